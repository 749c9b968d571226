// What the device tests of the slice kernels (softmax/, layer_norm/,
// rms_norm/ device_test.cpp) share beside test_device.hpp (the backend, made
// once per process; the tests skip where it is absent): a kernel run with
// several inputs, and the fp64 reference (reference.cpp, the conformance
// oracle) for the same inputs. The tests reach what the plans'
// modest shapes do not: slices longer than a team's registers and more
// work-groups than a launch holds.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/reference.hpp"
#include "common/test_device.hpp"
#include "core/half.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::opsuite::slice_test {

// Deterministic values in [low, high).
inline std::vector<float> values(size_t n, uint32_t seed, float low, float high) {
  std::vector<float> v(n);
  for (float& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = low + (high - low) * static_cast<float>(seed >> 8) * 0x1p-24f;
  }
  return v;
}

// `v` as a tensor of `dtype`: FLOAT_32, or FLOAT_16 rounded once (the
// values the kernel and the reference then both see are the fp16 ones).
inline harness::HostTensor tensor(oprig_dtype dtype, std::vector<int64_t> shape, std::vector<float>& v) {
  if (dtype == OPRIG_DTYPE_FLOAT_32) return harness::HostTensor::of(dtype, std::move(shape), v);
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    h[i] = float_to_half(v[i]);
    v[i] = half_to_float(h[i]);
  }
  return harness::HostTensor::of(dtype, std::move(shape), h);
}

// The kernel's output 0 as floats.
inline std::vector<float> run(harness::TestDevice& device, const std::string& op, const harness::ParamList& params,
                              const std::vector<harness::HostTensor>& inputs, oprig_dtype dtype) {
  oprig_tensor out{};
  out.dtype = dtype;
  harness::KernelSession session(*device.backend, *device.impl, op, params, inputs, {out});
  if (!session.ok()) throw std::runtime_error(session.error());
  if (session.run() != OPRIG_STATUS_OK) throw std::runtime_error(op + ": execute failed");
  const harness::HostTensor y = session.output(0);
  if (dtype == OPRIG_DTYPE_FLOAT_32) return y.as<float>();
  std::vector<float> f;
  for (uint16_t h : y.as<uint16_t>()) f.push_back(half_to_float(h));
  return f;
}

// The fp64 reference's output 0 for these inputs (values as the kernel saw them).
inline std::vector<double> reference(const std::string& op, const nlohmann::json& params,
                                     const std::vector<std::vector<int64_t>>& shapes,
                                     const std::vector<std::vector<float>>& inputs) {
  const ReferenceOp* ref = find_reference(op);
  if (ref == nullptr) throw std::runtime_error("no reference for " + op);
  std::vector<RefTensor> in(inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    in[k].shape = shapes[k];
    in[k].values.assign(inputs[k].begin(), inputs[k].end());
    in[k].dtype = OPRIG_DTYPE_FLOAT_32;
  }
  std::vector<RefTensor> out(1);
  ref->compute(in, RefParams(params), out);
  return out[0].values;
}

// |got - expected| in ulps of the expected value rounded to the type (fp32:
// 24 bits, fp16: 11 bits, denormals in their fixed steps).
inline double ulps(float got, double expected, oprig_dtype dtype) {
  const bool half = dtype == OPRIG_DTYPE_FLOAT_16;
  const int min_exponent = half ? -14 : -126, bits = half ? 10 : 23;
  const double a = std::fabs(expected);
  const int exponent = a < std::ldexp(1.0, min_exponent) ? min_exponent : std::ilogb(a);
  return std::fabs(static_cast<double>(got) - expected) / std::ldexp(1.0, exponent - bits);
}

}  // namespace oprig::opsuite::slice_test
