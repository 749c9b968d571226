// The cpu Atan kernel's three code paths, each forced through the backend's
// cpu_isa: AVX-512 and AVX2+FMA perform the same IEEE operations and must
// agree bit for bit (NaN payloads included) at every tensor size, tails
// included; the scalar path (no fused multiply-add) must stay within the
// plan's 3 ulp of fp64 and within 1 fp16 step, and it must not read or
// write outside the tensor either. A path the host cannot run is skipped.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "atan_cpu_runner.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"

namespace oprig::testing {
namespace {

// Every 4099th fp32 bit pattern (about 1M values, all binades, both signs,
// NaNs and infinities) plus the neighbours of the reduction thresholds.
std::vector<float> sample_inputs() {
  std::vector<float> x;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 4099) x.push_back(std::bit_cast<float>(uint32_t(bits)));
  for (float edge : {0.41421356f, 2.4142137f, 1.0f})
    for (float v = edge; v < edge * 1.00001f; v = std::nextafter(v, 10.0f)) {
      x.push_back(v);
      x.push_back(-v);
    }
  return x;
}

std::vector<float> run_f32(oprig_cpu_isa isa, const std::vector<float>& x, float offset) {
  CpuBackend backend(2, isa);
  EXPECT_EQ(backend.context().cpu_isa, static_cast<uint32_t>(isa));
  std::vector<float> y;
  const AtanRun run = run_atan_f32(backend, x, offset, y);
  EXPECT_TRUE(run.ok()) << cpu_isa_name(isa) << ": " << run.step << " status " << run.status << " guards "
                        << run.guards_intact;
  return y;
}

void require(oprig_cpu_isa isa) {
  if (host_cpu_isa() < isa) GTEST_SKIP() << "this host has no " << cpu_isa_name(isa);
}

TEST(AtanCpuIsaPaths, Avx512AndAvx2AgreeBitwiseOverTheSample) {
  require(OPRIG_CPU_ISA_AVX512);
  const std::vector<float> x = sample_inputs();
  for (float offset : {0.0f, -1.0f, 0.5f}) {
    const std::vector<float> wide = run_f32(OPRIG_CPU_ISA_AVX512, x, offset);
    const std::vector<float> narrow = run_f32(OPRIG_CPU_ISA_AVX2, x, offset);
    ASSERT_EQ(wide.size(), x.size());
    ASSERT_EQ(narrow.size(), x.size());
    size_t differ = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (std::bit_cast<uint32_t>(wide[i]) != std::bit_cast<uint32_t>(narrow[i]) && differ++ < 5)
        ADD_FAILURE() << "offset " << offset << ", x = " << x[i] << ": AVX-512 " << wide[i] << ", AVX2 " << narrow[i];
    EXPECT_EQ(differ, 0u) << "offset " << offset;
  }
}

TEST(AtanCpuIsaPaths, Avx512AndAvx2AgreeBitwiseAtEverySizeAroundTheVectorWidths) {
  require(OPRIG_CPU_ISA_AVX512);
  const std::vector<float> sample = sample_inputs();
  for (size_t n = 0; n <= 49; ++n) {
    const std::vector<float> x(sample.begin() + 1000, sample.begin() + 1000 + static_cast<std::ptrdiff_t>(n));
    const std::vector<float> wide = run_f32(OPRIG_CPU_ISA_AVX512, x, 0.25f);
    const std::vector<float> narrow = run_f32(OPRIG_CPU_ISA_AVX2, x, 0.25f);
    ASSERT_EQ(wide.size(), n);
    ASSERT_EQ(narrow.size(), n);
    if (n > 0) {
      EXPECT_EQ(std::memcmp(wide.data(), narrow.data(), n * sizeof(float)), 0) << "n = " << n;
    }
  }
}

TEST(AtanCpuIsaPaths, Avx512AndAvx2AgreeBitwiseOnEveryHalf) {
  require(OPRIG_CPU_ISA_AVX512);
  std::vector<uint16_t> x(65536 + 5);  // every pattern, then a 5-element tail
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>(i);
  CpuBackend wide_backend(2, OPRIG_CPU_ISA_AVX512), narrow_backend(2, OPRIG_CPU_ISA_AVX2);
  std::vector<uint16_t> wide, narrow;
  ASSERT_TRUE(run_atan_f16(wide_backend, x, 0.5f, wide).ok());
  ASSERT_TRUE(run_atan_f16(narrow_backend, x, 0.5f, narrow).ok());
  ASSERT_EQ(wide.size(), x.size());
  ASSERT_EQ(narrow.size(), x.size());
  EXPECT_EQ(std::memcmp(wide.data(), narrow.data(), x.size() * sizeof(uint16_t)), 0);
}

TEST(AtanCpuIsaPaths, ScalarPathStaysWithinThreeUlp) {
  const std::vector<float> x = sample_inputs();
  for (float offset : {0.0f, -1.0f}) {
    const std::vector<float> y = run_f32(OPRIG_CPU_ISA_SCALAR, x, offset);
    ASSERT_EQ(y.size(), x.size());
    size_t bad = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (ulp_error_f32(y[i], std::atan(static_cast<double>(x[i]) + offset)) > 3.0 && bad++ < 5)
        ADD_FAILURE() << "offset " << offset << ", x = " << x[i] << " gave " << y[i];
    EXPECT_EQ(bad, 0u);
  }
}

TEST(AtanCpuIsaPaths, ScalarPathRoundsEveryHalfToWithinOneStep) {
  std::vector<uint16_t> x(65536);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>(i);
  CpuBackend backend(1, OPRIG_CPU_ISA_SCALAR);
  std::vector<uint16_t> y;
  ASSERT_TRUE(run_atan_f16(backend, x, 0.0f, y).ok());
  ASSERT_EQ(y.size(), x.size());
  size_t bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const uint16_t bits = x[i];
    const bool nan_in = (bits & 0x7C00u) == 0x7C00u && (bits & 0x3FFu) != 0;
    const bool nan_out = (y[i] & 0x7C00u) == 0x7C00u && (y[i] & 0x3FFu) != 0;
    if (nan_in) {
      if (!nan_out && bad++ < 5) ADD_FAILURE() << "NaN pattern " << bits << " gave " << y[i];
      continue;
    }
    // An independent decoding of the half: sign, exponent, mantissa.
    const int exponent = (bits >> 10) & 0x1F;
    const double mantissa = bits & 0x3FF;
    double value = exponent == 0    ? std::ldexp(mantissa, -24)
                   : exponent == 31 ? INFINITY
                                    : std::ldexp(1024.0 + mantissa, exponent - 25);
    if (bits & 0x8000u) value = -value;
    if (half_steps_apart(y[i], round_to_half(std::atan(value))) > 1 && bad++ < 5)
      ADD_FAILURE() << "half pattern " << bits << " gave " << y[i];
  }
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace oprig::testing
