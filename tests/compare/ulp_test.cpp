// ulp_distance against hand-counted nextafter steps, and the NaN/Inf and
// overflow rules of comparator.hpp.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "compare/comparator.hpp"
#include "core/half.hpp"

namespace oprig::compare {
namespace {

double f32_ulps(float got, double expected) { return ulp_distance(got, expected, kFloat32); }
double f16_ulps(uint16_t got_bits, double expected) {
  return ulp_distance(half_to_float(got_bits), expected, kFloat16);
}

TEST(UlpDistance, StepsAboveOne) {
  EXPECT_EQ(f32_ulps(1.0f, 1.0), 0.0);
  EXPECT_EQ(f32_ulps(std::nextafter(1.0f, 2.0f), 1.0), 1.0);
  EXPECT_EQ(f32_ulps(1.0f + 3 * 0x1p-23f, 1.0), 3.0);
  EXPECT_EQ(f32_ulps(-1.0f - 3 * 0x1p-23f, -1.0), 3.0);
  // Below a power of two the steps of the got side are half as large, and the
  // unit is the ulp at the expected value: one step down is half an ulp.
  EXPECT_EQ(f32_ulps(std::nextafter(1.0f, 0.0f), 1.0), 0.5);
}

TEST(UlpDistance, InexactExpectedValue) {
  // 0.1f - 0.1 = 0.2 ulp of fp32 at 0.1 (computed exactly with Python fractions).
  EXPECT_NEAR(f32_ulps(0.1f, 0.1), 0.19999999925494194, 1e-15);
  EXPECT_NEAR(f32_ulps(std::nextafter(0.1f, 1.0f), 0.1), 1.19999999925494194, 1e-15);
}

TEST(UlpDistance, DenormalSteps) {
  const float smallest = std::bit_cast<float>(0x00000001u);  // 2^-149
  EXPECT_EQ(f32_ulps(smallest, 0x1p-149), 0.0);
  EXPECT_EQ(f32_ulps(2 * smallest, 0x1p-149), 1.0);
  EXPECT_EQ(f32_ulps(std::bit_cast<float>(0x00000010u), 0x1p-145), 0.0);
  EXPECT_EQ(f32_ulps(std::bit_cast<float>(0x00000013u), 0x1p-145), 3.0);
  // Across the normal/subnormal boundary the step stays 2^-149.
  EXPECT_EQ(f32_ulps(std::nextafter(FLT_MIN, 0.0f), static_cast<double>(FLT_MIN)), 1.0);
  // A flushed denormal: atan(d) = d, got 0 -> distance d / 2^-149.
  EXPECT_EQ(f32_ulps(0.0f, 0x1p-140), 512.0);
}

TEST(UlpDistance, SignCrossingsAtZero) {
  const float smallest = std::bit_cast<float>(0x00000001u);
  EXPECT_EQ(f32_ulps(smallest, 0.0), 1.0);
  EXPECT_EQ(f32_ulps(-smallest, 0.0), 1.0);
  EXPECT_EQ(f32_ulps(-smallest, 0x1p-149), 2.0);
  EXPECT_EQ(f32_ulps(-2 * smallest, 0x1p-148), 4.0);
  EXPECT_EQ(f32_ulps(-0.0f, 0.0), 0.0);  // ±0 are equal values
}

TEST(UlpDistance, Fp16Steps) {
  EXPECT_EQ(f16_ulps(0x3c00, 1.0), 0.0);
  EXPECT_EQ(f16_ulps(0x3c01, 1.0), 1.0);   // 1 + 2^-10
  EXPECT_EQ(f16_ulps(0x3c03, 1.0), 3.0);
  EXPECT_EQ(f16_ulps(0x3bff, 1.0), 0.5);   // 1 - 2^-11
  EXPECT_EQ(f16_ulps(0x0001, 0.0), 1.0);   // 2^-24
  EXPECT_EQ(f16_ulps(0x8001, 0x1p-24), 2.0);
  EXPECT_NEAR(f16_ulps(0x2e66, 0.1), 0.40000000000009095, 1e-12);  // float16(0.1) = 0x2e66
}

TEST(UlpDistance, NanRules) {
  EXPECT_EQ(ulp_distance(NAN, NAN, kFloat32), 0.0);
  EXPECT_EQ(ulp_distance(-NAN, NAN, kFloat32), 0.0);  // any payload or sign
  EXPECT_EQ(ulp_distance(std::bit_cast<float>(0x7fc00123u), NAN, kFloat32), 0.0);
  EXPECT_EQ(ulp_distance(0.0, NAN, kFloat32), INFINITY);
  EXPECT_EQ(ulp_distance(INFINITY, NAN, kFloat32), INFINITY);
  EXPECT_EQ(ulp_distance(NAN, 1.0, kFloat32), INFINITY);
  EXPECT_EQ(ulp_distance(NAN, INFINITY, kFloat32), INFINITY);
}

TEST(UlpDistance, InfinitiesMustMatchExactly) {
  EXPECT_EQ(ulp_distance(INFINITY, INFINITY, kFloat32), 0.0);
  EXPECT_EQ(ulp_distance(-INFINITY, -INFINITY, kFloat32), 0.0);
  EXPECT_EQ(ulp_distance(-INFINITY, INFINITY, kFloat32), INFINITY);
  EXPECT_EQ(ulp_distance(FLT_MAX, INFINITY, kFloat32), INFINITY);
  EXPECT_EQ(ulp_distance(INFINITY, FLT_MAX, kFloat32), INFINITY);  // expected within range
  EXPECT_EQ(ulp_distance(INFINITY, 1.0, kFloat32), INFINITY);
}

TEST(UlpDistance, ReferenceBeyondFp32Range) {
  // 1e39 rounds to +Inf in fp32: +Inf is exact, FLT_MAX one step short.
  EXPECT_EQ(ulp_distance(INFINITY, 1e39, kFloat32), 0.0);
  EXPECT_EQ(ulp_distance(FLT_MAX, 1e39, kFloat32), 1.0);
  EXPECT_EQ(ulp_distance(-INFINITY, 1e39, kFloat32), INFINITY);
  EXPECT_EQ(ulp_distance(-INFINITY, -1e300, kFloat32), 0.0);
  // Just above FLT_MAX (by a quarter ulp = 2^102) it rounds to FLT_MAX.
  const double just_above = static_cast<double>(FLT_MAX) + 0x1p102;
  EXPECT_EQ(ulp_distance(FLT_MAX, just_above, kFloat32), 0.25);
  EXPECT_EQ(ulp_distance(INFINITY, just_above, kFloat32), 0.75);  // Inf stands for 2^128
}

TEST(UlpDistance, ReferenceBeyondFp16Range) {
  EXPECT_EQ(f16_ulps(0x7c00, 70000.0), 0.0);     // rounds to +Inf
  EXPECT_EQ(f16_ulps(0x7bff, 70000.0), 1.0);     // 65504 vs stand-in 65536, ulp 32
  EXPECT_EQ(f16_ulps(0x7bff, 65510.0), 0.1875);  // rounds to 65504: 6 / 32
  EXPECT_EQ(f16_ulps(0x7c00, 65510.0), 0.8125);  // (65536 - 65510) / 32
  EXPECT_EQ(f16_ulps(0x7c00, 65504.0), INFINITY);
}

}  // namespace
}  // namespace oprig::compare
