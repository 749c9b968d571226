// ulp_at and round_to_format against hand-derived powers of two and against
// the host's own fp32 conversion (an independent rounding implementation).
#include "compare/float_format.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

namespace oprig::compare {
namespace {

TEST(FloatFormat, UlpOfFp32) {
  EXPECT_EQ(ulp_at(1.0, kFloat32), 0x1p-23);
  EXPECT_EQ(ulp_at(1.9999, kFloat32), 0x1p-23);
  EXPECT_EQ(ulp_at(-2.0, kFloat32), 0x1p-22);
  EXPECT_EQ(ulp_at(0.1, kFloat32), 0x1p-27);  // 0.1 lies in [2^-4, 2^-3)
  EXPECT_EQ(ulp_at(0x1p-126, kFloat32), 0x1p-149);  // smallest normal
  EXPECT_EQ(ulp_at(0x1p-140, kFloat32), 0x1p-149);  // subnormal range: fixed step
  EXPECT_EQ(ulp_at(0.0, kFloat32), 0x1p-149);
  EXPECT_EQ(ulp_at(1e-300, kFloat32), 0x1p-149);
  EXPECT_EQ(ulp_at(FLT_MAX, kFloat32), 0x1p104);
  EXPECT_EQ(ulp_at(1e39, kFloat32), 0x1p104);  // beyond the range: top binade's step
  EXPECT_TRUE(std::isnan(ulp_at(INFINITY, kFloat32)));
}

TEST(FloatFormat, UlpOfFp16AndFp64) {
  EXPECT_EQ(ulp_at(1.0, kFloat16), 0x1p-10);
  EXPECT_EQ(ulp_at(0.0, kFloat16), 0x1p-24);
  EXPECT_EQ(ulp_at(0x1p-20, kFloat16), 0x1p-24);
  EXPECT_EQ(ulp_at(65504.0, kFloat16), 32.0);
  EXPECT_EQ(ulp_at(1.0, kFloat64), 0x1p-52);
  EXPECT_EQ(ulp_at(0.0, kFloat64), 0x1p-1074);
}

TEST(FloatFormat, MaxFinite) {
  EXPECT_EQ(kFloat32.max_finite(), static_cast<double>(FLT_MAX));
  EXPECT_EQ(kFloat16.max_finite(), 65504.0);
  EXPECT_EQ(kFloat64.max_finite(), DBL_MAX);
}

TEST(FloatFormat, RoundToFp32AgreesWithTheHardware) {
  const double samples[] = {0.1, -0.1, 1.0 / 3.0, 3.4028235677973366e38, 3.40282357e38, 1e39, -1e39,
                            1e-40, 1e-45, 7e-46, 1.5 * 0x1p-149, 2.5 * 0x1p-149, 1e300, 2.0 - 0x1p-30};
  for (double x : samples) {
    SCOPED_TRACE(x);
    EXPECT_EQ(round_to_format(x, kFloat32), static_cast<double>(static_cast<float>(x)));
  }
}

TEST(FloatFormat, RoundToFp16WithoutDoubleRounding) {
  EXPECT_EQ(round_to_format(0.1, kFloat16), 0.0999755859375);  // numpy.float16(0.1)
  EXPECT_EQ(round_to_format(65510.0, kFloat16), 65504.0);
  EXPECT_EQ(round_to_format(65519.99, kFloat16), 65504.0);
  EXPECT_EQ(round_to_format(65520.0, kFloat16), INFINITY);  // tie at max + half ulp goes up (even)
  EXPECT_EQ(round_to_format(0x1p-25, kFloat16), 0.0);       // half the smallest subnormal: tie to even 0
  EXPECT_EQ(round_to_format(0x1p-25 + 0x1p-40, kFloat16), 0x1p-24);
  // 1 + 2^-11 + 2^-30 is just above the fp16 tie: it must round up; rounding
  // through fp32 first (1 + 2^-11, a tie) would give 1.
  EXPECT_EQ(round_to_format(1.0 + 0x1p-11 + 0x1p-30, kFloat16), 1.0 + 0x1p-10);
}

}  // namespace
}  // namespace oprig::compare
