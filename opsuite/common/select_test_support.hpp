// For the tests of the selection ops (argmax/, top_k/ device_test.cpp, and
// tensor_of for their cpu_test.cpp):
// inputs in FLOAT_32, FLOAT_16 or INT_32 drawn from a few values, so that
// every line holds ties, with NaN, both zeros, infinities and the integer
// extremes among them; each element also as a double for the oracles, which
// order values as the specs do (NaN above every number, -0 equal to +0) and
// are written here, apart from the kernels.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/half.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness::select_test {

struct Input {
  HostTensor tensor;
  std::vector<double> values;  // element by element, as the oracle sees them
};

// `levels` distinct values (at most 8) per type, drawn at random: few levels
// make ties everywhere; specials adds NaN (of both signs), -0 and
// infinities (floats) or INT32_MIN / INT32_MAX (integers).
inline Input make_input(oprig_dtype dtype, std::vector<int64_t> shape, uint32_t seed, int levels, bool specials) {
  size_t count = 1;
  for (int64_t d : shape) count *= static_cast<size_t>(d);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> floats = {1.5, -2, 0, 7, -0.5, 3, 11, -9};
  const std::vector<double> float_specials = {nan, -0.0, kInf, -kInf, -nan};
  const std::vector<double> ints = {3, -1, 0, 12, -7, 5, 100, -100};
  const std::vector<double> int_specials = {2147483647.0, -2147483648.0};
  const bool integer = dtype == OPRIG_DTYPE_INT_32;
  std::vector<double> pool((integer ? ints : floats).begin(), (integer ? ints : floats).begin() + levels);
  if (specials) {
    const std::vector<double>& extra = integer ? int_specials : float_specials;
    pool.insert(pool.end(), extra.begin(), extra.end());
  }
  Input in;
  in.values.resize(count);
  uint32_t x = seed * 2654435761u + 17;
  for (double& v : in.values) {
    x = x * 1664525u + 1013904223u;
    v = pool[(x >> 8) % pool.size()];
  }
  if (dtype == OPRIG_DTYPE_FLOAT_32) {
    std::vector<float> f(in.values.begin(), in.values.end());
    in.tensor = HostTensor::of(dtype, std::move(shape), f);
  } else if (dtype == OPRIG_DTYPE_FLOAT_16) {
    std::vector<uint16_t> h;
    for (double v : in.values) h.push_back(float_to_half(static_cast<float>(v)));
    in.tensor = HostTensor::of(dtype, std::move(shape), h);
  } else {
    std::vector<int32_t> i;
    for (double v : in.values) i.push_back(static_cast<int32_t>(v));
    in.tensor = HostTensor::of(dtype, std::move(shape), i);
  }
  return in;
}

// a ranks above b: NaN above every number and equal to NaN, -0 equal to +0.
inline bool above(double a, double b) {
  if (std::isnan(b)) return false;
  if (std::isnan(a)) return true;
  return a > b;
}

// The lines of a tensor along `axis`: element j of line (o, i) is at
// (o n + j) inner + i.
struct Lines {
  size_t outer = 1, n = 1, inner = 1;
  Lines(const std::vector<int64_t>& shape, int axis) {
    const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int>(shape.size()) : axis);
    for (size_t d = 0; d < shape.size(); ++d) {
      if (d < a) outer *= static_cast<size_t>(shape[d]);
      else if (d > a) inner *= static_cast<size_t>(shape[d]);
    }
    n = static_cast<size_t>(shape[a]);
  }
  size_t at(size_t o, size_t j, size_t i) const { return (o * n + j) * inner + i; }
};

// Values of few levels (multiples of 1 / int_scale) as a tensor of `dtype`:
// INT_32 holds v * int_scale, which keeps their order; FLOAT_16 rounds to
// nearest even.
inline HostTensor tensor_of(oprig_dtype dtype, const std::vector<int64_t>& shape, const std::vector<double>& v,
                            double int_scale) {
  if (dtype == OPRIG_DTYPE_INT_32) {
    std::vector<int32_t> i(v.size());
    for (size_t k = 0; k < v.size(); ++k) i[k] = static_cast<int32_t>(v[k] * int_scale);
    return HostTensor::of(dtype, shape, i);
  }
  if (dtype == OPRIG_DTYPE_FLOAT_16) {
    std::vector<uint16_t> h(v.size());
    for (size_t k = 0; k < v.size(); ++k) h[k] = float_to_half(static_cast<float>(v[k]));
    return HostTensor::of(dtype, shape, h);
  }
  std::vector<float> f(v.begin(), v.end());
  return HostTensor::of(dtype, shape, f);
}

inline std::string dtype_text(oprig_dtype dtype) {
  return dtype == OPRIG_DTYPE_FLOAT_32 ? "f32" : dtype == OPRIG_DTYPE_FLOAT_16 ? "f16" : "i32";
}

}  // namespace oprig::harness::select_test
