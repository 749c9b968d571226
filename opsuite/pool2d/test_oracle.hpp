// What Pool2D's unit tests (cpu_test.cpp, device_test.cpp) check kernels
// against, written from the spec and nothing of the kernels: small-integer
// inputs, whose window sums are exact in fp32, pooled in double; quantised
// codes pooled in integers and rounded half away from zero as exact
// fractions. Plus running a kernel through the package ABI.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/test_device.hpp"
#include "core/half.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness::pool2d_test {

struct Pooling {
  std::string type;
  std::vector<int64_t> kernel, stride, pads;
  bool include_pad = false;
};

inline ParamList params_of(const Pooling& p) {
  ParamList list;
  list.add_string("type", p.type).add_ints("kernel", p.kernel);
  if (!p.stride.empty()) list.add_ints("stride", p.stride);
  if (!p.pads.empty()) list.add_ints("pads", p.pads);
  list.add_bool("count_include_pad", p.include_pad);
  return list;
}

// One execute of Pool2D on `backend`; `out` gives the output's dtype and quantisation.
inline HostTensor run_pool(Backend& backend, const oprig_implementation_v1& impl, const HostTensor& in,
                           const Pooling& p, const oprig_tensor& out) {
  return run_once(backend, impl, "Pool2D", params_of(p), in, out);
}

// Integers in [-8, 8]: exact in fp16 and fp32, and so are their window sums.
inline std::vector<float> small_ints(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t x = seed * 2654435761u + 7;
  for (float& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<float>(static_cast<int>((x >> 16) % 17) - 8);
  }
  return v;
}

struct Geometry {
  int64_t n, h, w, c, sh, sw, out_h, out_w;
  std::vector<int64_t> pads;
};

inline Geometry geometry_of(const std::vector<int64_t>& shape, const Pooling& p) {
  Geometry g{shape[0], shape[1], shape[2], shape[3], p.stride.empty() ? 1 : p.stride[0],
             p.stride.empty() ? 1 : p.stride[1], 0, 0,
             p.pads.empty() ? std::vector<int64_t>{0, 0, 0, 0} : p.pads};
  g.out_h = (g.h + g.pads[0] + g.pads[2] - p.kernel[0]) / g.sh + 1;
  g.out_w = (g.w + g.pads[1] + g.pads[3] - p.kernel[1]) / g.sw + 1;
  return g;
}

// Calls visit(values of one output element's window, divisor) for every
// output element in order; `at(i)` is input element i.
template <class At, class Visit>
void for_each_window(const std::vector<int64_t>& shape, const Pooling& p, At at, Visit visit) {
  const Geometry g = geometry_of(shape, p);
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t oh = 0; oh < g.out_h; ++oh)
      for (int64_t ow = 0; ow < g.out_w; ++ow)
        for (int64_t c = 0; c < g.c; ++c) {
          std::vector<decltype(at(0))> cells;
          for (int64_t i = 0; i < p.kernel[0]; ++i)
            for (int64_t j = 0; j < p.kernel[1]; ++j) {
              const int64_t h = oh * g.sh - g.pads[0] + i, w = ow * g.sw - g.pads[1] + j;
              if (h < 0 || h >= g.h || w < 0 || w >= g.w) continue;
              cells.push_back(at(static_cast<size_t>(((n * g.h + h) * g.w + w) * g.c + c)));
            }
          const auto cell_count = static_cast<int64_t>(cells.size());
          visit(cells, p.include_pad ? p.kernel[0] * p.kernel[1] : cell_count);
        }
}

// The oracle: the definition of Pool2D, in double.
inline std::vector<double> pool_in_double(const std::vector<float>& x, const std::vector<int64_t>& shape,
                                          const Pooling& p) {
  std::vector<double> out;
  for_each_window(shape, p, [&](size_t i) { return static_cast<double>(x[i]); },
                  [&](const std::vector<double>& cells, int64_t divisor) {
                    double best = -std::numeric_limits<double>::infinity(), sum = 0;
                    for (double v : cells) {
                      best = std::max(best, v);
                      sum += v;
                    }
                    out.push_back(p.type == "MAX" ? best : sum / static_cast<double>(divisor));
                  });
  return out;
}

// x / d rounded half away from zero, exactly (d > 0).
inline int64_t round_half_away(int64_t x, int64_t d) {
  const int64_t magnitude = (2 * (x < 0 ? -x : x) + d) / (2 * d);
  return x < 0 ? -magnitude : magnitude;
}

// Quantised codes: the real values in_scale * (code - in_zero), pooled and
// quantised again with out_scale and out_zero, where in_scale / out_scale is
// the fraction ratio_p / ratio_q (so that the oracle stays in integers).
inline std::vector<uint8_t> pool_codes(const std::vector<uint8_t>& x, const std::vector<int64_t>& shape,
                                       const Pooling& p, int64_t in_zero, int64_t out_zero, int64_t ratio_p,
                                       int64_t ratio_q) {
  std::vector<uint8_t> out;
  for_each_window(shape, p, [&](size_t i) { return static_cast<int64_t>(x[i]) - in_zero; },
                  [&](const std::vector<int64_t>& cells, int64_t divisor) {
                    int64_t best = std::numeric_limits<int64_t>::min(), sum = 0;
                    for (int64_t v : cells) {
                      best = std::max(best, v);
                      sum += v;
                    }
                    const int64_t code = p.type == "MAX" ? round_half_away(best * ratio_p, ratio_q)
                                                         : round_half_away(sum * ratio_p, divisor * ratio_q);
                    out.push_back(static_cast<uint8_t>(std::clamp<int64_t>(out_zero + code, 0, 255)));
                  });
  return out;
}

inline HostTensor tensor_of(oprig_dtype dtype, const std::vector<int64_t>& shape, const std::vector<float>& values) {
  if (dtype == OPRIG_DTYPE_FLOAT_32) return HostTensor::of(dtype, shape, values);
  std::vector<uint16_t> h(values.size());
  for (size_t i = 0; i < values.size(); ++i) h[i] = float_to_half(values[i]);
  return HostTensor::of(dtype, shape, h);
}

inline std::vector<float> floats_of(const HostTensor& t) {
  if (t.dtype == OPRIG_DTYPE_FLOAT_32) return t.as<float>();
  std::vector<float> f;
  for (uint16_t h : t.as<uint16_t>()) f.push_back(half_to_float(h));
  return f;
}

// The exact value rounded once to the output type: fp32, or fp16.
inline float rounded_to(oprig_dtype dtype, double exact) {
  const auto exact32 = static_cast<float>(exact);
  return dtype == OPRIG_DTYPE_FLOAT_32 ? exact32 : half_to_float(float_to_half(exact32));
}

inline HostTensor codes(std::vector<int64_t> shape, const std::vector<uint8_t>& values, float scale, int32_t zero) {
  HostTensor t = HostTensor::of(OPRIG_DTYPE_UINT_8, std::move(shape), values);
  t.scale = scale;
  t.zero_point = zero;
  return t;
}

inline oprig_tensor output_of(oprig_dtype dtype, float scale = 0, int32_t zero = 0) {
  oprig_tensor out{};
  out.dtype = dtype;
  out.scale = scale;
  out.zero_point = zero;
  return out;
}

}  // namespace oprig::harness::pool2d_test
