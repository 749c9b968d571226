// The requantisation instructions against gemmlowp's own fixed-point
// functions (libgemmlowp-dev), on random int32 lanes and on the edges,
// INT32_MIN included.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "hvx_sim/core.hpp"

namespace oprig::hvx {
namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

// Edge values first, then uniform random 32-bit values, then small ones.
std::vector<int32_t> test_values(size_t count) {
  std::vector<int32_t> v = {kMin, kMin + 1, kMax, kMax - 1, 0, 1, -1, 2, -2,
                            1 << 30, -(1 << 30), (1 << 30) + 1, 1 << 15, -(1 << 15)};
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int32_t> any(kMin, kMax), small(-70000, 70000);
  while (v.size() < count) v.push_back(v.size() % 3 == 0 ? small(rng) : any(rng));
  return v;
}

Vec pack(const std::vector<int32_t>& values, size_t first) {
  Vec v;
  for (size_t i = 0; i < 32; ++i) v.set_lane<int32_t>(i, values[(first + i) % values.size()]);
  return v;
}

TEST(HvxRequant, SaturatingRoundingDoublingHighMulMatchesGemmlowp) {
  const std::vector<int32_t> values = test_values(4096);
  Core core;
  size_t checked = 0;
  for (size_t a0 = 0; a0 < values.size(); a0 += 32) {
    // Every lane block against several rotations of the others, so each edge
    // value meets every other edge value.
    for (size_t shift : {size_t{0}, size_t{1}, size_t{7}, size_t{13}, size_t{777}}) {
      const Vec a = pack(values, a0), b = pack(values, a0 + shift);
      const Vec r = core.srdhm_w(a, b);
      for (size_t i = 0; i < 32; ++i) {
        const int32_t x = a.lane<int32_t>(i), y = b.lane<int32_t>(i);
        ASSERT_EQ(r.lane<int32_t>(i), gemmlowp::SaturatingRoundingDoublingHighMul(x, y))
            << x << " * " << y;
        ++checked;
      }
    }
  }
  // All pairs of the edge values explicitly.
  for (int32_t x : {kMin, kMin + 1, kMax, -1, 0, 1, 1 << 30})
    for (int32_t y : {kMin, kMin + 1, kMax, -1, 0, 1, 1 << 30}) {
      Vec a, b;
      a.set_lane<int32_t>(0, x);
      b.set_lane<int32_t>(0, y);
      EXPECT_EQ(core.srdhm_w(a, b).lane<int32_t>(0),
                gemmlowp::SaturatingRoundingDoublingHighMul(x, y))
          << x << " * " << y;
    }
  EXPECT_GT(checked, 20000u);
}

TEST(HvxRequant, RoundingDivideByPotMatchesGemmlowpForEveryExponent) {
  const std::vector<int32_t> values = test_values(2048);
  Core core;
  for (uint32_t exponent = 0; exponent <= 31; ++exponent) {
    for (size_t first = 0; first < values.size(); first += 32) {
      const Vec x = pack(values, first);
      const Vec r = core.rdbpot_w(x, exponent);
      for (size_t i = 0; i < 32; ++i)
        ASSERT_EQ(r.lane<int32_t>(i),
                  gemmlowp::RoundingDivideByPOT(x.lane<int32_t>(i), static_cast<int>(exponent)))
            << x.lane<int32_t>(i) << " / 2^" << exponent;
    }
  }
  EXPECT_THROW(core.rdbpot_w(Vec{}, 32), std::invalid_argument);
}

TEST(HvxRequant, RoundingDivideByPotTiesGoAwayFromZero) {
  Core core;
  Vec x;
  x.set_lane<int32_t>(0, 5);   // 2.5 -> 3
  x.set_lane<int32_t>(1, -5);  // -2.5 -> -3
  x.set_lane<int32_t>(2, -3);  // -1.5 -> -2
  x.set_lane<int32_t>(3, kMin);
  const Vec r = core.rdbpot_w(x, 1);
  EXPECT_EQ(r.lane<int32_t>(0), 3);
  EXPECT_EQ(r.lane<int32_t>(1), -3);
  EXPECT_EQ(r.lane<int32_t>(2), -2);
  EXPECT_EQ(r.lane<int32_t>(3), kMin / 2);
}

}  // namespace
}  // namespace oprig::hvx
