// The fixed-point helpers of oprig_dsp.h that quantised kernels build on,
// written in HVX intrinsics and run on the simulator, against gemmlowp's own
// scalar functions (libgemmlowp-dev) and scalar definitions written here: on
// random int32 lanes and on the edges, INT32_MIN included.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "sim_session.hpp"

namespace oprig::hvx {
namespace {

using testing::SimSession;

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

// Edge values first, then uniform random 32-bit values, then small ones.
std::vector<int32_t> test_values(size_t count) {
  std::vector<int32_t> v = {kMin, kMin + 1, kMax, kMax - 1, 0, 1, -1, 2, -2,
                            1 << 30, -(1 << 30), (1 << 30) + 1, 1 << 15, -(1 << 15), 0x7FFF, -0x8000, 0xFFFF};
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int32_t> any(kMin, kMax), small(-70000, 70000);
  while (v.size() < count) v.push_back(v.size() % 3 == 0 ? small(rng) : any(rng));
  return v;
}

HVX_Vector pack(const std::vector<int32_t>& values, size_t first) {
  HVX_Vector v;
  for (size_t i = 0; i < 32; ++i) v[i] = values[(first + i) % values.size()];
  return v;
}

TEST(HvxRequant, SaturatingRoundingDoublingHighMulMatchesGemmlowp) {
  const std::vector<int32_t> values = test_values(4096);
  SimSession s;
  size_t checked = 0;
  for (size_t a0 = 0; a0 < values.size(); a0 += 32)
    // Every lane block against several rotations of the others, so each edge value meets every other.
    for (size_t shift : {size_t{0}, size_t{1}, size_t{7}, size_t{13}, size_t{777}}) {
      const HVX_Vector a = pack(values, a0), b = pack(values, a0 + shift);
      const HVX_Vector r = oprig_dsp_srdhm_w(a, b);
      for (size_t i = 0; i < 32; ++i) {
        ASSERT_EQ(r[i], gemmlowp::SaturatingRoundingDoublingHighMul(a[i], b[i])) << a[i] << " * " << b[i];
        ++checked;
      }
    }
  for (int32_t x : {kMin, kMin + 1, kMax, -1, 0, 1, 1 << 30})
    for (int32_t y : {kMin, kMin + 1, kMax, -1, 0, 1, 1 << 30}) {
      const HVX_Vector r = oprig_dsp_srdhm_w(Q6_V_vsplat_R(x), Q6_V_vsplat_R(y));
      EXPECT_EQ(r[5], gemmlowp::SaturatingRoundingDoublingHighMul(x, y)) << x << " * " << y;
    }
  EXPECT_GT(checked, 20000u);
  EXPECT_FALSE(s.sim().faulted());
}

TEST(HvxRequant, RoundingDivideByPotMatchesGemmlowpForEveryExponent) {
  const std::vector<int32_t> values = test_values(2048);
  SimSession s;
  for (int exponent = 0; exponent <= 31; ++exponent)
    for (size_t first = 0; first < values.size(); first += 32) {
      const HVX_Vector x = pack(values, first);
      const HVX_Vector r = oprig_dsp_rdbpot_w(x, exponent, Q6_V_vzero());
      for (size_t i = 0; i < 32; ++i)
        ASSERT_EQ(r[i], gemmlowp::RoundingDivideByPOT(x[i], exponent)) << x[i] << " / 2^" << exponent;
    }
}

TEST(HvxRequant, RoundingDivideByPotTiesGoAwayFromZeroAndNeverOverflows) {
  SimSession s;
  HVX_Vector x = Q6_V_vzero();
  x[0] = 5;   // 2.5 -> 3
  x[1] = -5;  // -2.5 -> -3
  x[2] = -3;  // -1.5 -> -2
  x[3] = kMin;
  x[4] = kMax;      // 1073741823.5 -> 1073741824, no overflow on the way
  x[5] = kMin + 1;  // -1073741823.5 -> -1073741824
  x[6] = -1;        // -0.5 -> -1
  const HVX_Vector r = oprig_dsp_rdbpot_w(x, 1, Q6_V_vzero());
  EXPECT_EQ(r[0], 3);
  EXPECT_EQ(r[1], -3);
  EXPECT_EQ(r[2], -2);
  EXPECT_EQ(r[3], kMin / 2);
  EXPECT_EQ(r[4], 1073741824);
  EXPECT_EQ(r[5], -1073741824);
  EXPECT_EQ(r[6], -1);
}

// TFLite's MultiplyByQuantizedMultiplier, composed from gemmlowp as TFLite does.
int32_t multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return gemmlowp::RoundingDivideByPOT(gemmlowp::SaturatingRoundingDoublingHighMul(shifted, multiplier), right);
}

TEST(HvxRequant, MultiplyByQuantizedMultiplierMatchesTfliteComposition) {
  const std::vector<int32_t> values = test_values(1024);
  SimSession s;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int32_t> q31(1 << 30, kMax);
  for (int shift = -31; shift <= 8; ++shift) {
    const int32_t multiplier = q31(rng);
    const oprig_dsp_quantized_multiplier m = oprig_dsp_make_quantized_multiplier(multiplier, shift);
    for (size_t first = 0; first < values.size(); first += 32) {
      const HVX_Vector x = pack(values, first);
      const HVX_Vector r = oprig_dsp_apply_quantized_multiplier_w(x, &m);
      for (size_t i = 0; i < 32; ++i)
        ASSERT_EQ(r[i], multiply_by_quantized_multiplier(x[i], multiplier, shift))
            << x[i] << " * " << multiplier << " shift " << shift;
    }
  }
}

TEST(HvxRequant, LowProductWrapsLikeUnsignedMultiplication) {
  const std::vector<int32_t> values = test_values(2048);
  SimSession s;
  for (size_t first = 0; first < values.size(); first += 32) {
    const HVX_Vector a = pack(values, first), b = pack(values, first + 5);
    const HVX_Vector r = oprig_dsp_mul_lo_w(a, b);
    for (size_t i = 0; i < 32; ++i)
      ASSERT_EQ(r[i], static_cast<int32_t>(static_cast<uint32_t>(a[i]) * static_cast<uint32_t>(b[i])))
          << a[i] << " * " << b[i];
  }
}

TEST(HvxRequant, WidenAndNarrowKeepElementOrderAndSaturate) {
  SimSession s;
  HVX_Vector bytes;
  auto* b = reinterpret_cast<uint8_t*>(&bytes);
  for (int i = 0; i < 128; ++i) b[i] = static_cast<uint8_t>(i * 2 + 1);
  HVX_Vector w[4], sw[4];
  oprig_dsp_widen_ub_w(bytes, w);
  oprig_dsp_widen_b_w(bytes, sw);
  for (int i = 0; i < 128; ++i) {
    ASSERT_EQ(w[i / 32][i % 32], int32_t{b[i]}) << i;
    ASSERT_EQ(sw[i / 32][i % 32], int32_t{static_cast<int8_t>(b[i])}) << i;
  }
  // Words past a byte's range saturate: -300 -> 0 / -128, 300 -> 255 / 127.
  for (int i = 0; i < 128; ++i) w[i / 32][i % 32] = i % 3 == 0 ? -300 : i % 3 == 1 ? 300 : i;
  const HVX_Vector u = oprig_dsp_narrow_w_ub_sat(w), sgn = oprig_dsp_narrow_w_b_sat(w);
  const auto* ub = reinterpret_cast<const uint8_t*>(&u);
  const auto* sb = reinterpret_cast<const int8_t*>(&sgn);
  for (int i = 0; i < 128; ++i) {
    ASSERT_EQ(ub[i], i % 3 == 0 ? 0 : i % 3 == 1 ? 255 : i) << i;
    ASSERT_EQ(sb[i], i % 3 == 0 ? -128 : i % 3 == 1 ? 127 : i) << i;
  }
}

}  // namespace
}  // namespace oprig::hvx
