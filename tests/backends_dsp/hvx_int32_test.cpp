// The 32-bit integer instructions the graph's INT_32 built-ins run on: wrap-
// around add and subtract, the low half of a 32 x 32 product, word
// equality. Against scalar definitions written here (two's complement via
// uint64_t) on random and edge vectors, by hand at the wrap points, and the
// cost of mpyi_w (two dependent MULTIPLY halves, as srdhm_w).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

#include "hvx_sim/core.hpp"
#include "test_vectors.hpp"

namespace oprig::hvx {
namespace {

using testing::edge_vec;
using testing::random_vec;

// The low 32 bits of a wide result, as a signed lane.
int32_t low32(uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v & 0xffffffffu)); }

template <typename Op, typename Scalar>
void expect_words(Op op, Scalar scalar, const char* name) {
  std::mt19937 rng(11);
  Core core;
  for (int t = 0; t < 200; ++t) {
    const Vec a = t % 2 ? random_vec(rng) : edge_vec<int32_t>(rng, t);
    const Vec b = t % 3 ? random_vec(rng) : edge_vec<int32_t>(rng, t + 1);
    const Vec r = op(core, a, b);
    for (size_t i = 0; i < Vec::lanes<int32_t>(); ++i)
      ASSERT_EQ(r.lane<int32_t>(i), scalar(a.lane<int32_t>(i), b.lane<int32_t>(i)))
          << name << " lane " << i << " a=" << a.lane<int32_t>(i) << " b=" << b.lane<int32_t>(i);
  }
}

TEST(HvxInt32, WrapAroundAddSubAndLowProductMatchScalar) {
  expect_words([](Core& c, const Vec& a, const Vec& b) { return c.add_w(a, b); },
               [](int32_t x, int32_t y) { return low32(static_cast<uint64_t>(int64_t{x}) + static_cast<uint64_t>(int64_t{y})); },
               "add_w");
  expect_words([](Core& c, const Vec& a, const Vec& b) { return c.sub_w(a, b); },
               [](int32_t x, int32_t y) { return low32(static_cast<uint64_t>(int64_t{x}) - static_cast<uint64_t>(int64_t{y})); },
               "sub_w");
  expect_words([](Core& c, const Vec& a, const Vec& b) { return c.mpyi_w(a, b); },
               [](int32_t x, int32_t y) { return low32(static_cast<uint64_t>(int64_t{x} * int64_t{y})); },
               "mpyi_w");
}

TEST(HvxInt32, WrapPointsByHand) {
  Core core;
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max(), kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(core.add_w(core.splat_w(kMax), core.splat_w(1)).lane<int32_t>(5), kMin);
  EXPECT_EQ(core.sub_w(core.splat_w(kMin), core.splat_w(1)).lane<int32_t>(5), kMax);
  EXPECT_EQ(core.mpyi_w(core.splat_w(65536), core.splat_w(65536)).lane<int32_t>(0), 0);   // 2^32
  EXPECT_EQ(core.mpyi_w(core.splat_w(-3), core.splat_w(7)).lane<int32_t>(31), -21);
  EXPECT_EQ(core.mpyi_w(core.splat_w(kMin), core.splat_w(-1)).lane<int32_t>(1), kMin);  // 2^31 wraps
}

TEST(HvxInt32, WordEqualitySetsEveryByteOfTheLane) {
  Core core;
  Vec a = core.splat_w(0x01020304), b = core.splat_w(0x01020304);
  b.set_lane<int32_t>(3, 0x01020305);  // differs in one byte only
  const Pred q = core.cmp_eq_w(a, b);
  for (size_t i = 0; i < Vec::lanes<int32_t>(); ++i)
    for (size_t k = 0; k < 4; ++k) EXPECT_EQ(q.bits[i * 4 + k], i != 3) << "lane " << i << " byte " << k;
}

TEST(HvxInt32, LowProductCostsTwoDependentMultiplies) {
  Core core;
  const Vec a = core.splat_w(3);  // P1 @0, ready @1
  const Vec b = core.splat_w(5);  // P1 @0
  core.mpyi_w(a, b);              // vmpyieo P2 @1 (ready @3); vmpyie P3 waits to @3 (stall 1)
  EXPECT_EQ(core.counters().stall_cycles, 1u);
  EXPECT_EQ(core.pipeline_cycles(), 4u);
  Core add;
  add.add_w(add.splat_w(1), add.splat_w(2));  // two splats in P1, the add in P2: one ALU op
  EXPECT_EQ(add.counters().packets, 2u);
  EXPECT_EQ(add.pipeline_cycles(), 2u);
}

}  // namespace
}  // namespace oprig::hvx
