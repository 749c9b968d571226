// The cpu Quantize kernel through the package ABI: codes spelled out by hand
// (ties to even, saturation, Inf, NaN), the three ISA paths and both thread
// counts agreeing bit for bit at every tail length, and quantisations the op
// cannot honour rejected in prepare. The conformance cases judge against the
// fp64 reference; the values here come from hand arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

oprig_tensor quantised_output(oprig_dtype dtype, float scale, int32_t zero_point) {
  oprig_tensor out{};
  out.dtype = dtype;
  out.scale = scale;
  out.zero_point = zero_point;
  return out;
}

HostTensor run_once(CpuBackend& backend, const std::vector<float>& x, const oprig_tensor& out) {
  KernelSession s(backend, cpu_impl(), "Quantize", ParamList(),
                  {HostTensor::of(OPRIG_DTYPE_FLOAT_32, {static_cast<int64_t>(x.size())}, x)}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0);
}

std::vector<oprig_cpu_isa> host_isas() {
  std::vector<oprig_cpu_isa> isas;
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512})
    if (isa <= host_cpu_isa()) isas.push_back(isa);
  return isas;
}

TEST(QuantizeCpu, TiesGoToEvenAndTheEndsSaturate) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Scale 1, zero point 128: the inputs are the quotients.
  const std::vector<float> x = {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 126.5f, 127.5f, -127.5f, -128.5f,
                                inf,   -inf,  nan,   1e30f, -1e30f, 0.49999997f, -0.0f};
  const std::vector<uint8_t> u8 = {126, 126, 128, 128, 130, 130, 254, 255, 0, 0, 255, 0, 128, 255, 0, 128, 128};
  // Scale 0.5, zero point -3 (signed): quotients are 2x.
  const std::vector<float> xs = {-1.25f, -0.75f, -0.25f, 0.25f, 0.75f, 1.25f, 63.25f, 63.75f, 65.25f, -62.25f,
                                 -62.75f, inf, -inf, nan};
  const std::vector<int8_t> i8 = {-5, -5, -3, -3, -1, -1, 123, 125, 127, -127, -128, 127, -128, -3};
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    EXPECT_EQ(run_once(backend, x, quantised_output(OPRIG_DTYPE_UINT_8, 1.0f, 128)).as<uint8_t>(), u8) << isa;
    EXPECT_EQ(run_once(backend, xs, quantised_output(OPRIG_DTYPE_INT_8, 0.5f, -3)).as<int8_t>(), i8) << isa;
  }
}

TEST(QuantizeCpu, DividesByTheScaleRatherThanMultiplyingByItsReciprocal) {
  // 0.375 / fp32(0.03) = 12.5000003 exactly; the fp32 quotient is 12.5, a tie
  // that goes to 12 (even). 0.375 * fp32(1 / fp32(0.03)) = 12.500001 -> 13.
  // The spec says fp32(x / scale), as ONNX's float32 reference does: 12.
  const std::vector<float> x = {0.375f};
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    EXPECT_EQ(run_once(backend, x, quantised_output(OPRIG_DTYPE_UINT_8, 0.03f, 0)).as<uint8_t>()[0], 12) << isa;
  }
}

TEST(QuantizeCpu, IsaPathsAndThreadCountsAgreeBitForBitAtEveryTail) {
  // Every length up to 70 (the vector tails of 8, 16 and 32 lanes) and one
  // that splits over threads; values around and beyond the code range.
  std::vector<size_t> lengths;
  for (size_t n = 1; n <= 70; ++n) lengths.push_back(n);
  lengths.push_back(300007);
  uint32_t state = 12345;
  for (size_t n : lengths) {
    std::vector<float> x(n);
    for (float& v : x) {
      state = state * 1664525u + 1013904223u;
      v = (static_cast<float>(state >> 8) / 16777216.0f - 0.5f) * 80.0f;
    }
    if (n > 3) x[n / 2] = std::numeric_limits<float>::quiet_NaN();
    for (const oprig_tensor& out : {quantised_output(OPRIG_DTYPE_UINT_8, 0.1f, 128),
                                    quantised_output(OPRIG_DTYPE_INT_8, 0.125f, -7)}) {
      CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
      const std::vector<std::byte> expected = run_once(baseline, x, out).bytes;
      for (oprig_cpu_isa isa : host_isas())
        for (unsigned threads : {1u, 2u}) {
          CpuBackend backend(threads, isa);
          EXPECT_EQ(run_once(backend, x, out).bytes, expected) << "n " << n << " isa " << isa << " threads " << threads;
        }
    }
  }
}

TEST(QuantizeCpu, RejectsQuantisationsTheOpCannotHonour) {
  CpuBackend backend(1);
  const HostTensor x = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {2}, std::vector<float>{1, 2});
  const auto prepare_status = [&](const oprig_tensor& out) {
    return KernelSession(backend, cpu_impl(), "Quantize", ParamList(), {x}, {out}).prepare_status();
  };
  EXPECT_EQ(prepare_status(quantised_output(OPRIG_DTYPE_UINT_8, -1.0f, 0)), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare_status(quantised_output(OPRIG_DTYPE_UINT_8, 0.0f, 0)), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare_status(quantised_output(OPRIG_DTYPE_INT_8, std::numeric_limits<float>::infinity(), 0)),
            OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare_status(quantised_output(OPRIG_DTYPE_UINT_8, 1.0f, (1 << 24) + 1)), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare_status(quantised_output(OPRIG_DTYPE_INT_16, 1.0f, 0)), OPRIG_STATUS_UNSUPPORTED);
  EXPECT_EQ(prepare_status(quantised_output(OPRIG_DTYPE_UINT_8, 1.0f, 1 << 24)), OPRIG_STATUS_OK);
}

}  // namespace
}  // namespace oprig::harness
