// For the unit tests of the ops (<op>/*_test.cpp in oprig_opsuite_test;
// used by conv2d/, depthwise_conv2d/, activation/, quantize/, dequantize/,
// elementwise_binary/), beside test_device.hpp: one execute of an op of any
// number of inputs (or of one input to an output of a given type and
// quantisation) through the package ABI on any backend, test data (small integers, whose fp32 sums are exact in any
// order, or values in [-1, 1]; fp16 conversions), and a fixture for tests
// run on each device backend by name (test_device(): one backend per
// process), which skips where the backend is absent.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/test_device.hpp"
#include "core/half.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness::op_test {

inline const oprig_implementation_v1& implementation(oprig_backend_kind kind) {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(kind, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

// One execute of `op`; the output has the first input's dtype. Throws with
// the failing call's message; `shape` receives the output's dimensions.
inline HostTensor run_op(Backend& backend, const std::string& op, const ParamList& params,
                         std::vector<HostTensor> inputs, std::vector<int64_t>* shape = nullptr) {
  oprig_tensor out{};
  out.dtype = inputs.at(0).dtype;
  KernelSession s(backend, implementation(backend.kind()), op, params, std::move(inputs), {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error(op + ": execute failed");
  if (shape != nullptr) shape->assign(s.outputs()[0].dims, s.outputs()[0].dims + s.outputs()[0].rank);
  return s.output(0);
}

// An output's description for run_once() (test_device.hpp): its dtype and
// quantisation (the kernel writes the shape).
inline oprig_tensor output_of(oprig_dtype dtype, float scale = 0, int32_t zero_point = 0) {
  oprig_tensor t{};
  t.dtype = dtype;
  t.scale = scale;
  t.zero_point = zero_point;
  return t;
}

// One execute of a one-input op with the output `out` describes.
inline HostTensor run_one(Backend& backend, const std::string& op, const ParamList& params, const HostTensor& in,
                          const oprig_tensor& out) {
  return run_once(backend, implementation(backend.kind()), op, params, in, out);
}

inline size_t count(const std::vector<int64_t>& shape) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

// Small integers in [-3, 3], or values in [-1, 1].
inline std::vector<float> values(size_t n, uint32_t seed, bool small_ints) {
  std::vector<float> v(n);
  uint32_t x = seed * 2654435761u + 11;
  for (float& e : v) {
    x = x * 1664525u + 1013904223u;
    e = small_ints ? static_cast<float>(static_cast<int>((x >> 8) % 7) - 3)
                   : static_cast<float>((x >> 8) % 20001) / 10000.0f - 1.0f;
  }
  return v;
}

inline HostTensor f32(std::vector<int64_t> shape, const std::vector<float>& v) {
  return HostTensor::of(OPRIG_DTYPE_FLOAT_32, std::move(shape), v);
}
// FLOAT_16 of values that fp16 holds exactly (or rounded to nearest even).
inline HostTensor f16(std::vector<int64_t> shape, const std::vector<float>& v) {
  std::vector<uint16_t> h;
  for (float f : v) h.push_back(float_to_half(f));
  return HostTensor::of(OPRIG_DTYPE_FLOAT_16, std::move(shape), h);
}
inline std::vector<float> floats_of_f16(const HostTensor& t) {
  std::vector<float> f;
  for (uint16_t h : t.as<uint16_t>()) f.push_back(half_to_float(h));
  return f;
}

// Tests of one device backend by name (TEST_P; instantiate with
// ::testing::Values("opencl", "vulkan")).
class DeviceTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    TestDevice& device = test_device(GetParam());
    backend_ = device.backend.get();
    if (!device.present()) GTEST_SKIP() << GetParam() << " backend unavailable: " << device.why;
  }
  Backend& backend() { return *backend_; }

 private:
  Backend* backend_ = nullptr;
};

inline std::string backend_name(const ::testing::TestParamInfo<const char*>& info) { return info.param; }

}  // namespace oprig::harness::op_test
