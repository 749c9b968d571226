// Every simulator instruction, bit for bit, against a scalar definition
// written here from the instruction's documented meaning, on random vectors
// and on vectors full of saturation edges.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>

#include "hvx_sim/core.hpp"
#include "test_vectors.hpp"

namespace oprig::hvx {
namespace {

using testing::edge_vec;
using testing::random_vec;

constexpr int kTrials = 200;

// Clamp written out long-hand, independent of the simulator's helper.
template <typename Lane>
int64_t clamp_to(int64_t v) {
  const int64_t lo = std::numeric_limits<Lane>::min();
  const int64_t hi = std::numeric_limits<Lane>::max();
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}

template <typename Lane>
void expect_binary(Vec (Core::*op)(const Vec&, const Vec&),
                   const std::function<int64_t(int64_t, int64_t)>& scalar, const char* name) {
  std::mt19937 rng(42);
  Core core;
  for (int t = 0; t < kTrials; ++t) {
    const Vec a = t % 2 ? random_vec(rng) : edge_vec<Lane>(rng, t);
    const Vec b = t % 3 ? random_vec(rng) : edge_vec<Lane>(rng, t + 1);
    const Vec r = (core.*op)(a, b);
    for (size_t i = 0; i < Vec::lanes<Lane>(); ++i) {
      const int64_t want = scalar(a.lane<Lane>(i), b.lane<Lane>(i));
      ASSERT_EQ(int64_t{r.lane<Lane>(i)}, want)
          << name << " lane " << i << " a=" << int64_t{a.lane<Lane>(i)}
          << " b=" << int64_t{b.lane<Lane>(i)};
    }
  }
}

TEST(HvxAlu, SaturatingAddSubMatchScalar) {
  auto add = [](auto lane_tag) {
    using L = decltype(lane_tag);
    return [](int64_t x, int64_t y) { return clamp_to<L>(x + y); };
  };
  auto sub = [](auto lane_tag) {
    using L = decltype(lane_tag);
    return [](int64_t x, int64_t y) { return clamp_to<L>(x - y); };
  };
  expect_binary<uint8_t>(&Core::add_sat_ub, add(uint8_t{}), "add_sat_ub");
  expect_binary<uint8_t>(&Core::sub_sat_ub, sub(uint8_t{}), "sub_sat_ub");
  expect_binary<int8_t>(&Core::add_sat_b, add(int8_t{}), "add_sat_b");
  expect_binary<int8_t>(&Core::sub_sat_b, sub(int8_t{}), "sub_sat_b");
  expect_binary<int16_t>(&Core::add_sat_h, add(int16_t{}), "add_sat_h");
  expect_binary<int16_t>(&Core::sub_sat_h, sub(int16_t{}), "sub_sat_h");
  expect_binary<int32_t>(&Core::add_sat_w, add(int32_t{}), "add_sat_w");
  expect_binary<int32_t>(&Core::sub_sat_w, sub(int32_t{}), "sub_sat_w");
}

TEST(HvxAlu, SaturationEdgesByHand) {
  Core core;
  Vec a, b;
  a.set_lane<int32_t>(0, INT32_MAX);
  b.set_lane<int32_t>(0, 1);
  a.set_lane<int32_t>(1, INT32_MIN);
  b.set_lane<int32_t>(1, 1);
  EXPECT_EQ(core.add_sat_w(a, b).lane<int32_t>(0), INT32_MAX);
  EXPECT_EQ(core.sub_sat_w(a, b).lane<int32_t>(1), INT32_MIN);
  Vec c, d;
  c.set_lane<uint8_t>(0, 250);
  d.set_lane<uint8_t>(0, 10);
  EXPECT_EQ(core.add_sat_ub(c, d).lane<uint8_t>(0), 255);
  EXPECT_EQ(core.sub_sat_ub(d, c).lane<uint8_t>(0), 0);
  c.set_lane<int8_t>(1, -100);
  d.set_lane<int8_t>(1, 100);
  EXPECT_EQ(core.sub_sat_b(c, d).lane<int8_t>(1), -128);
  EXPECT_EQ(core.sub_sat_b(d, c).lane<int8_t>(1), 127);
}

TEST(HvxAlu, MinMaxMatchScalar) {
  auto mn = [](int64_t x, int64_t y) { return x < y ? x : y; };
  auto mx = [](int64_t x, int64_t y) { return x > y ? x : y; };
  expect_binary<uint8_t>(&Core::min_ub, mn, "min_ub");
  expect_binary<uint8_t>(&Core::max_ub, mx, "max_ub");
  expect_binary<int8_t>(&Core::min_b, mn, "min_b");
  expect_binary<int8_t>(&Core::max_b, mx, "max_b");
  expect_binary<int16_t>(&Core::min_h, mn, "min_h");
  expect_binary<int16_t>(&Core::max_h, mx, "max_h");
  expect_binary<int32_t>(&Core::min_w, mn, "min_w");
  expect_binary<int32_t>(&Core::max_w, mx, "max_w");
}

TEST(HvxAlu, BitwiseMatchScalar) {
  expect_binary<uint8_t>(&Core::vor, [](int64_t x, int64_t y) { return x | y; }, "vor");
  expect_binary<uint8_t>(&Core::vand, [](int64_t x, int64_t y) { return x & y; }, "vand");
}

template <typename Lane>
void expect_compare(Pred (Core::*op)(const Vec&, const Vec&), bool equal) {
  std::mt19937 rng(7);
  Core core;
  for (int t = 0; t < kTrials; ++t) {
    Vec a = edge_vec<Lane>(rng, t);
    const Vec b = t % 2 ? edge_vec<Lane>(rng, t + 3) : a;  // equal lanes too
    const Pred q = (core.*op)(a, b);
    for (size_t i = 0; i < Vec::lanes<Lane>(); ++i) {
      const bool want = equal ? a.lane<Lane>(i) == b.lane<Lane>(i) : a.lane<Lane>(i) > b.lane<Lane>(i);
      for (size_t k = 0; k < sizeof(Lane); ++k) ASSERT_EQ(q.bits[i * sizeof(Lane) + k], want);
    }
  }
}

TEST(HvxAlu, CompareSetsEveryByteOfTheLane) {
  expect_compare<uint8_t>(&Core::cmp_gt_ub, false);
  expect_compare<int8_t>(&Core::cmp_gt_b, false);
  expect_compare<int16_t>(&Core::cmp_gt_h, false);
  expect_compare<int32_t>(&Core::cmp_gt_w, false);
  expect_compare<int8_t>(&Core::cmp_eq_b, true);
}

TEST(HvxAlu, MuxSelectsBytes) {
  std::mt19937 rng(3);
  Core core;
  const Vec a = random_vec(rng), b = random_vec(rng);
  const Pred q = core.cmp_gt_h(a, b);
  const Vec r = core.mux(q, a, b);
  for (size_t i = 0; i < Vec::lanes<int16_t>(); ++i)
    EXPECT_EQ(r.lane<int16_t>(i), std::max(a.lane<int16_t>(i), b.lane<int16_t>(i)));
}

TEST(HvxAlu, SplatAndSetq) {
  Core core;
  const Vec b = core.splat_b(0xAB);
  const Vec h = core.splat_h(-1234);
  const Vec w = core.splat_w(INT32_MIN);
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(b.bytes[i], 0xAB);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(h.lane<int16_t>(i), -1234);
  for (size_t i = 0; i < 32; ++i) EXPECT_EQ(w.lane<int32_t>(i), INT32_MIN);
  for (size_t n : {size_t{0}, size_t{1}, size_t{77}, size_t{127}, size_t{128}}) {
    const Pred q = core.setq(n);
    for (size_t i = 0; i < 128; ++i) EXPECT_EQ(q.bits[i], i < n % 128) << n << " " << i;
  }
}

TEST(HvxMultiply, WideningProductsAndWrappingAccumulate) {
  std::mt19937 rng(11);
  Core core;
  for (int t = 0; t < kTrials; ++t) {
    const Vec a = edge_vec<uint8_t>(rng, t), b = edge_vec<int8_t>(rng, t + 1);
    const VecPair p = core.mpy_ub_b(a, b);
    const VecPair acc = core.mpy_acc_ub_b(p, a, b);  // 2 * product, wrapping at 16 bits
    for (size_t i = 0; i < 128; ++i) {
      const int32_t want = int32_t{a.lane<uint8_t>(i)} * b.lane<int8_t>(i);
      const Vec& half = i < 64 ? p.lo : p.hi;
      const Vec& acc_half = i < 64 ? acc.lo : acc.hi;
      ASSERT_EQ(half.lane<int16_t>(i % 64), want);
      ASSERT_EQ(acc_half.lane<int16_t>(i % 64), static_cast<int16_t>(static_cast<uint16_t>(2 * want)));
    }
    const Vec c = edge_vec<int16_t>(rng, t), d = edge_vec<int16_t>(rng, t + 2);
    const VecPair w = core.mpy_h_h(c, d);
    const VecPair wacc = core.mpy_acc_h_h(w, c, d);
    for (size_t i = 0; i < 64; ++i) {
      const int64_t want = int64_t{c.lane<int16_t>(i)} * d.lane<int16_t>(i);
      const Vec& half = i < 32 ? w.lo : w.hi;
      const Vec& acc_half = i < 32 ? wacc.lo : wacc.hi;
      ASSERT_EQ(half.lane<int32_t>(i % 32), want);
      ASSERT_EQ(acc_half.lane<int32_t>(i % 32),
                static_cast<int32_t>(static_cast<uint32_t>(2 * want)));
    }
  }
}

// Narrowing vasr:rnd:sat, defined as floor((v + 2^(s-1)) / 2^s) then clamp.
template <typename Wide, typename Narrow>
void expect_narrowing(Vec (Core::*op)(const Vec&, const Vec&, uint32_t)) {
  std::mt19937 rng(5);
  Core core;
  for (uint32_t shift = 0; shift < 8 * sizeof(Wide); ++shift) {
    for (int t = 0; t < 20; ++t) {
      const Vec lo = edge_vec<Wide>(rng, t), hi = random_vec(rng);
      const Vec r = (core.*op)(lo, hi, shift);
      constexpr size_t n = Vec::lanes<Wide>();
      for (size_t i = 0; i < 2 * n; ++i) {
        const int64_t v = i < n ? lo.lane<Wide>(i) : hi.lane<Wide>(i - n);
        int64_t rounded = v;
        if (shift > 0) {
          const int64_t num = v + (int64_t{1} << (shift - 1));
          const int64_t den = int64_t{1} << shift;
          rounded = num >= 0 ? num / den : -((-num + den - 1) / den);  // floor
        }
        ASSERT_EQ(int64_t{r.lane<Narrow>(i)}, clamp_to<Narrow>(rounded))
            << "shift " << shift << " lane " << i << " v " << v;
      }
    }
  }
}

TEST(HvxShift, NarrowingRoundsAndSaturates) {
  expect_narrowing<int32_t, int16_t>(&Core::asr_w_to_h_rnd_sat);
  expect_narrowing<int16_t, uint8_t>(&Core::asr_h_to_ub_rnd_sat);
  expect_narrowing<int16_t, int8_t>(&Core::asr_h_to_b_rnd_sat);
}

TEST(HvxShift, NarrowingByHand) {
  Core core;
  Vec lo, hi;
  lo.set_lane<int32_t>(0, 0x7FFFFFFF);  // >> 8 rounds to 2^23: saturates int16
  lo.set_lane<int32_t>(1, -384);        // -1.5 * 256 -> -1 (halves round up)
  lo.set_lane<int32_t>(2, 640);         // 2.5 * 256 -> 3
  const Vec r = core.asr_w_to_h_rnd_sat(lo, hi, 8);
  EXPECT_EQ(r.lane<int16_t>(0), 32767);
  EXPECT_EQ(r.lane<int16_t>(1), -1);
  EXPECT_EQ(r.lane<int16_t>(2), 3);
  EXPECT_THROW(core.asr_w_to_h_rnd_sat(lo, hi, 32), std::invalid_argument);
}

TEST(HvxPermute, Lut32CoversAllIndicesInEightLookups) {
  std::mt19937 rng(9);
  Core core;
  Vec low = random_vec(rng), high = random_vec(rng);
  uint8_t table[256];
  for (int i = 0; i < 128; ++i) table[i] = low.bytes[i], table[128 + i] = high.bytes[i];
  for (int start = 0; start < 256; start += 128) {
    Vec idx;
    for (int i = 0; i < 128; ++i) idx.bytes[i] = static_cast<uint8_t>(start + i);
    Vec y = core.lut32(idx, low, 0);
    for (uint32_t s = 1; s < 8; ++s) y = core.lut32_or(y, idx, s < 4 ? low : high, s);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(y.bytes[i], table[start + i]) << start + i;
  }
}

TEST(HvxPermute, Lut32SegmentGivesZeroOutsideItsRange) {
  Core core;
  Vec table, idx;
  for (int i = 0; i < 128; ++i) table.bytes[i] = 0xEE, idx.bytes[i] = static_cast<uint8_t>(2 * i);
  const Vec y = core.lut32(idx, table, 5);  // serves indices 160..191
  for (int i = 0; i < 128; ++i) EXPECT_EQ(y.bytes[i], (2 * i >= 160 && 2 * i < 192) ? 0xEE : 0);
  EXPECT_THROW(core.lut32(idx, table, 8), std::invalid_argument);
}

TEST(HvxPermute, RotateRight) {
  Core core;
  Vec v;
  for (int i = 0; i < 128; ++i) v.bytes[i] = static_cast<uint8_t>(i);
  const Vec r = core.vror(v, 5);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(r.bytes[i], (i + 5) % 128);
}

TEST(HvxMemory, LoadsAndStoresRespectTheMap) {
  alignas(128) uint8_t src[384];
  alignas(128) uint8_t dst[384] = {};
  for (int i = 0; i < 384; ++i) src[i] = static_cast<uint8_t>(i * 7);
  Core core;
  core.map_readable(src + 10, 200);  // bytes [10, 210)
  core.map_writable(dst + 128, 100);
  const Vec a = core.vmem(src + 137);  // aligned: the low bits are ignored
  for (int i = 0; i < 128; ++i) EXPECT_EQ(a.bytes[i], src[128 + i] * (128 + i < 210));
  const Vec u = core.vmemu(src + 5);  // bytes 5..9 are unmapped: read as 0
  for (int i = 0; i < 128; ++i) EXPECT_EQ(u.bytes[i], (5 + i >= 10) ? src[5 + i] : 0);
  EXPECT_THROW(core.vmem(src + 256), Fault);  // line [256, 384) holds no mapped byte
  EXPECT_THROW(core.vmem_store(dst + 128, u), Fault);  // 28 bytes past the writable end
  const Pred q = core.setq(100);
  core.vmem_store_if(q, dst + 128, u);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(dst[128 + i], i < 100 ? u.bytes[i] : 0);
  EXPECT_EQ(core.counters().unaligned_accesses, 1u);
}

}  // namespace
}  // namespace oprig::hvx
