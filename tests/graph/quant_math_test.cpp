// NNAPI's fixed-point requantisation (runtime/graph/quant_math.hpp) against
// gemmlowp's own fixed-point primitives (libgemmlowp-dev, an independent
// implementation of the same definitions), and the multiplier encoding and
// activation ranges against hand arithmetic.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "graph/quant_math.hpp"

namespace oprig::graph::quant {
namespace {

TEST(QuantMath, SaturatingRoundingDoublingHighMulMatchesGemmlowp) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> any(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  const int32_t edges[] = {std::numeric_limits<int32_t>::min(), -(1 << 30), -3, -1, 0, 1, 3, 1 << 30,
                           std::numeric_limits<int32_t>::max()};
  for (int32_t a : edges)
    for (int32_t b : edges) ASSERT_EQ(saturating_rounding_doubling_high_mul(a, b), gemmlowp::SaturatingRoundingDoublingHighMul(a, b)) << a << " " << b;
  for (int i = 0; i < 200000; ++i) {
    const int32_t a = any(rng), b = any(rng);
    ASSERT_EQ(saturating_rounding_doubling_high_mul(a, b), gemmlowp::SaturatingRoundingDoublingHighMul(a, b)) << a << " " << b;
  }
}

TEST(QuantMath, RoundingDivideByPotMatchesGemmlowp) {
  std::mt19937 rng(12);
  std::uniform_int_distribution<int32_t> any(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  for (int exponent = 0; exponent <= 31; ++exponent) {
    for (int32_t x : {std::numeric_limits<int32_t>::min(), -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5,
                      std::numeric_limits<int32_t>::max()})
      ASSERT_EQ(rounding_divide_by_pot(x, exponent), gemmlowp::RoundingDivideByPOT(x, exponent)) << x << " >> " << exponent;
    for (int i = 0; i < 5000; ++i) {
      const int32_t x = any(rng);
      ASSERT_EQ(rounding_divide_by_pot(x, exponent), gemmlowp::RoundingDivideByPOT(x, exponent)) << x << " >> " << exponent;
    }
  }
  // Hand values: ties go away from zero.
  EXPECT_EQ(rounding_divide_by_pot(5, 1), 3);    // 2.5 -> 3
  EXPECT_EQ(rounding_divide_by_pot(-5, 1), -3);  // -2.5 -> -3
  EXPECT_EQ(rounding_divide_by_pot(-6, 2), -2);  // -1.5 -> -2
  EXPECT_EQ(rounding_divide_by_pot(7, 2), 2);    // 1.75 -> 2
}

TEST(QuantMath, MultiplierEncoding) {
  Multiplier m;
  // 0.5 = 2^30 * 2^(0 - 31): frexp(0.5) = 0.5 * 2^0.
  ASSERT_TRUE(quantize_multiplier(0.5, &m));
  EXPECT_EQ(m.m, 1 << 30);
  EXPECT_EQ(m.shift, 0);
  // 1.0 = 0.5 * 2^1.
  ASSERT_TRUE(quantize_multiplier(1.0, &m));
  EXPECT_EQ(m.m, 1 << 30);
  EXPECT_EQ(m.shift, 1);
  // 0.75 = 0.75 * 2^0: m = round(0.75 * 2^31) = 1610612736.
  ASSERT_TRUE(quantize_multiplier(0.75, &m));
  EXPECT_EQ(m.m, 1610612736);
  EXPECT_EQ(m.shift, 0);
  // A mantissa that rounds up to 2^31 moves to the next power: 1 - 2^-40.
  ASSERT_TRUE(quantize_multiplier(1.0 - std::ldexp(1.0, -40), &m));
  EXPECT_EQ(m.m, 1 << 30);
  EXPECT_EQ(m.shift, 1);
  // Below 2^-32 flushes to zero, as NNAPI's does.
  ASSERT_TRUE(quantize_multiplier(std::ldexp(1.0, -40), &m));
  EXPECT_EQ(m.m, 0);
  EXPECT_FALSE(quantize_multiplier_below_one(1.0, &m));
  EXPECT_FALSE(quantize_multiplier_below_one(0.0, &m));
  EXPECT_TRUE(quantize_multiplier_below_one(0.999, &m));
}

// x * M is two roundings, as in NNAPI's reference: SaturatingRoundingDoublingHighMul
// rounds to nearest with a positive tie up and a negative tie toward zero
// (its nudge for negative products is 1 - 2^30, one short of a half), then
// RoundingDivideByPOT rounds ties away from zero.
TEST(QuantMath, MultiplyRoundsLikeTheReference) {
  Multiplier half;  // m = 2^30, shift 0: only the high-mul rounds
  ASSERT_TRUE(quantize_multiplier(0.5, &half));
  EXPECT_EQ(multiply(5, half), 3);    // 2.5 -> 3
  EXPECT_EQ(multiply(-5, half), -2);  // -2.5 -> -2
  EXPECT_EQ(multiply(4, half), 2);
  Multiplier quarter;  // m = 2^30, shift -1: x / 2 rounded, then / 2 rounded
  ASSERT_TRUE(quantize_multiplier(0.25, &quarter));
  EXPECT_EQ(multiply(6, quarter), 2);    // 3, then 1.5 -> 2
  EXPECT_EQ(multiply(-6, quarter), -2);  // -3.5 -> -3, then -1.5 -> -2
  EXPECT_EQ(multiply(5, quarter), 2);    // 1.25 exactly, but 2.5 -> 3 first, then 1.5 -> 2
  Multiplier three;  // 0.75 * 2^2: the left shift path
  ASSERT_TRUE(quantize_multiplier(3.0, &three));
  EXPECT_EQ(multiply(7, three), 21);
  EXPECT_EQ(multiply(-7, three), -21);
}

TEST(QuantMath, ActivationRanges) {
  // uint8, scale 0.5, zero point 100: q(0) = 100, q(6) = 112, q(-1) = 98, q(1) = 102.
  EXPECT_EQ(activation_range(FuseCode::kNone, 0.5f, 100, 0, 255).lo, 0);
  EXPECT_EQ(activation_range(FuseCode::kNone, 0.5f, 100, 0, 255).hi, 255);
  EXPECT_EQ(activation_range(FuseCode::kRelu, 0.5f, 100, 0, 255).lo, 100);
  EXPECT_EQ(activation_range(FuseCode::kRelu, 0.5f, 100, 0, 255).hi, 255);
  EXPECT_EQ(activation_range(FuseCode::kRelu6, 0.5f, 100, 0, 255).hi, 112);
  EXPECT_EQ(activation_range(FuseCode::kRelu1, 0.5f, 100, 0, 255).lo, 98);
  EXPECT_EQ(activation_range(FuseCode::kRelu1, 0.5f, 100, 0, 255).hi, 102);
  // int8, scale 0.01, zero point -128: q(6) = 472 is limited to 127.
  EXPECT_EQ(activation_range(FuseCode::kRelu6, 0.01f, -128, -128, 127).hi, 127);
  EXPECT_EQ(activation_range(FuseCode::kRelu6, 0.01f, -128, -128, 127).lo, -128);
}

TEST(QuantMath, AddAndMulOfExactlyRepresentableValues) {
  // (0.5, 100) + (0.25, 10) -> (1.0, 50): a = 106 (3.0), b = 30 (5.0): 8.0 -> 58.
  AddParams add;
  ASSERT_TRUE(add_params(0.5f, 100, 0.25f, 10, 1.0f, 50, false, &add));
  EXPECT_EQ(add_quantised(106, 30, add, {0, 255}), 58);
  AddParams sub;
  ASSERT_TRUE(add_params(0.5f, 100, 0.25f, 10, 1.0f, 50, true, &sub));
  EXPECT_EQ(add_quantised(106, 30, sub, {0, 255}), 48);  // 3 - 5 = -2
  // MUL (1.0, 128) * (0.5, 128) -> (1.0, 128): 9 * 1.5 = 13.5 -> ties away: 14 -> 142.
  MulParams mul;
  ASSERT_TRUE(mul_params(1.0f, 128, 0.5f, 128, 1.0f, 128, &mul));
  EXPECT_EQ(mul_quantised(137, 131, mul, {0, 255}), 142);
  EXPECT_EQ(mul_quantised(119, 131, mul, {0, 255}), 115);  // -9 * 1.5 = -13.5 -> -13 (high-mul tie)
  // Saturation at the clamp: 100 * 36 = 3600 -> 255.
  EXPECT_EQ(mul_quantised(228, 200, mul, {0, 255}), 255);
}

}  // namespace
}  // namespace oprig::graph::quant
