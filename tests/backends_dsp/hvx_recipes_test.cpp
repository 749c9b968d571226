// The kernel recipes of backends/dsp/README.md, written against oprig_dsp.h
// as a vendor would and checked against scalar references written here:
//   - a quantised UINT_8 elementwise add (TFLite's reference: zero points,
//     left shift 20, three MultiplyByQuantizedMultiplier, clamp);
//   - a requantisation of int32 accumulators to UINT_8;
//   - a 3x3 convolution inner loop (one output row of 128 pixels: valign for
//     the four phases, vrmpy accumulating the three rows, vshuff back into
//     pixel order, then the requantisation);
//   - a 256-entry lookup (vlut32) applying an arbitrary UINT_8 function.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

#include "sim_session.hpp"

namespace oprig::hvx {
namespace {

using testing::SimSession;

// ---- scalar references ----
int32_t mbqm(int32_t x, int32_t multiplier, int shift) {  // TFLite MultiplyByQuantizedMultiplier
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(static_cast<int32_t>(static_cast<uint32_t>(x) << left), multiplier),
      right);
}

struct AddParams {
  int32_t a_offset, b_offset, out_offset;
  int32_t a_multiplier, b_multiplier, out_multiplier;
  int a_shift, b_shift, out_shift;
};

uint8_t add_reference(uint8_t a, uint8_t b, const AddParams& p) {
  const int32_t sa = mbqm((a + p.a_offset) * (1 << 20), p.a_multiplier, p.a_shift);
  const int32_t sb = mbqm((b + p.b_offset) * (1 << 20), p.b_multiplier, p.b_shift);
  const int32_t raw = mbqm(sa + sb, p.out_multiplier, p.out_shift) + p.out_offset;
  return static_cast<uint8_t>(std::clamp(raw, 0, 255));
}

// ---- recipe: quantised UINT_8 add, 128 elements per iteration ----
void quantised_add(const uint8_t* a, const uint8_t* b, uint8_t* y, size_t n, const AddParams& p) {
  // Constants once, outside the loop (each splat is an instruction).
  const oprig_dsp_quantized_multiplier ma = oprig_dsp_make_quantized_multiplier(p.a_multiplier, p.a_shift);
  const oprig_dsp_quantized_multiplier mb = oprig_dsp_make_quantized_multiplier(p.b_multiplier, p.b_shift);
  const oprig_dsp_quantized_multiplier mo = oprig_dsp_make_quantized_multiplier(p.out_multiplier, p.out_shift);
  const HVX_Vector a_offset = Q6_V_vsplat_R(p.a_offset), b_offset = Q6_V_vsplat_R(p.b_offset);
  const HVX_Vector out_offset = Q6_V_vsplat_R(p.out_offset), lo = Q6_V_vzero(), hi = Q6_V_vsplat_R(255);
  for (size_t i = 0; i < n; i += 128) {
    HVX_Vector wa[4], wb[4], r[4];
    oprig_dsp_widen_ub_w(oprig_dsp_load_bytes(a + i, n - i), wa);
    oprig_dsp_widen_ub_w(oprig_dsp_load_bytes(b + i, n - i), wb);
    for (int k = 0; k < 4; ++k) {
      const HVX_Vector xa = Q6_Vw_vasl_VwR(Q6_Vw_vadd_VwVw(wa[k], a_offset), 20);
      const HVX_Vector xb = Q6_Vw_vasl_VwR(Q6_Vw_vadd_VwVw(wb[k], b_offset), 20);
      const HVX_Vector sum = Q6_Vw_vadd_VwVw(oprig_dsp_apply_quantized_multiplier_w(xa, &ma),
                                             oprig_dsp_apply_quantized_multiplier_w(xb, &mb));
      const HVX_Vector raw = Q6_Vw_vadd_VwVw(oprig_dsp_apply_quantized_multiplier_w(sum, &mo), out_offset);
      r[k] = Q6_Vw_vmin_VwVw(Q6_Vw_vmax_VwVw(raw, lo), hi);
    }
    oprig_dsp_store_bytes(y + i, n - i, oprig_dsp_narrow_w_ub_sat(r));
  }
}

TEST(HvxRecipes, QuantisedAddMatchesTfliteReference) {
  constexpr size_t n = 1000;  // a partial last vector too
  alignas(128) uint8_t a[n], b[n], y[n];
  std::mt19937 rng(17);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<uint8_t>(rng());
    b[i] = static_cast<uint8_t>(rng());
  }
  // Scales 0.05 (a), 0.03 (b) -> 0.06 (out), as TFLite derives them for an add.
  const AddParams p{-128, -120, 5, 1789569707, 1073741824, 1073741824, -1, -1, -18};
  SimSession s;
  oprig_dsp_map(a, n, "input 0");
  oprig_dsp_map(b, n, "input 1");
  oprig_dsp_map_writable(y, n, "output 0");
  quantised_add(a, b, y, n, p);
  ASSERT_FALSE(s.sim().faulted()) << s.sim().fault();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(y[i], add_reference(a[i], b[i], p)) << i;
  std::cout << "[ recipes ] quantised add: " << s.sim().cycles() << " cycles for " << n << " elements, "
            << s.sim().counters().instructions << " instructions\n";
}

// ---- recipe: requantise int32 accumulators to UINT_8 (128 per iteration) ----
HVX_Vector requantize(const HVX_Vector acc[4], const oprig_dsp_quantized_multiplier* m, HVX_Vector out_offset) {
  HVX_Vector r[4];
  for (int k = 0; k < 4; ++k) r[k] = Q6_Vw_vadd_VwVw(oprig_dsp_apply_quantized_multiplier_w(acc[k], m), out_offset);
  return oprig_dsp_narrow_w_ub_sat(r);  // the saturating packs clamp to 0..255
}

// ---- recipe: one output row of a 3x3 convolution (uint8 in, int8 weights) ----
// out[x] = sum over dy, dx in 0..2 of in[dy][x + dx] * w[dy][dx], for x in
// [0, 128), from rows in[0..2] of 256 pixels. vrmpy sums four bytes times
// four weights, so with the weights of a row as bytes (w0, w1, w2, 0) the
// word i of vrmpy(valign(next, row, k)) is the row's share of pixel 4i + k.
void conv3x3_row(const uint8_t* const rows[3], const int8_t w[3][3], HVX_Vector out[4]) {
  HVX_Vector acc[4] = {Q6_V_vzero(), Q6_V_vzero(), Q6_V_vzero(), Q6_V_vzero()};
  for (int dy = 0; dy < 3; ++dy) {
    const HVX_Vector row = oprig_vmem_load(rows[dy]), next = oprig_vmem_load(rows[dy] + 128);
    const int weights = static_cast<int>(static_cast<uint32_t>(static_cast<uint8_t>(w[dy][0])) |
                                         static_cast<uint32_t>(static_cast<uint8_t>(w[dy][1])) << 8 |
                                         static_cast<uint32_t>(static_cast<uint8_t>(w[dy][2])) << 16);
    for (int k = 0; k < 4; ++k)
      acc[k] = Q6_Vw_vrmpyacc_VwVubRb(acc[k], Q6_V_valign_VVR(next, row, k), weights);
  }
  // acc[k] holds pixels 4i + k: interleave words (k = 0 with 1, 2 with 3),
  // then doublewords, back into pixel order.
  const HVX_VectorPair p01 = Q6_W_vshuff_VVR(acc[1], acc[0], -4), p23 = Q6_W_vshuff_VVR(acc[3], acc[2], -4);
  const HVX_VectorPair lo = Q6_W_vshuff_VVR(Q6_V_lo_W(p23), Q6_V_lo_W(p01), -8);
  const HVX_VectorPair hi = Q6_W_vshuff_VVR(Q6_V_hi_W(p23), Q6_V_hi_W(p01), -8);
  out[0] = Q6_V_lo_W(lo);
  out[1] = Q6_V_hi_W(lo);
  out[2] = Q6_V_lo_W(hi);
  out[3] = Q6_V_hi_W(hi);
}

TEST(HvxRecipes, Conv3x3RowMatchesScalarThenRequantises) {
  alignas(128) uint8_t image[3][256];
  std::mt19937 rng(3);
  for (auto& row : image)
    for (uint8_t& p : row) p = static_cast<uint8_t>(rng());
  const int8_t w[3][3] = {{1, -2, 3}, {-128, 127, -1}, {5, 0, -7}};
  SimSession s;
  oprig_dsp_map(image, sizeof image, "input 0");
  const uint8_t* rows[3] = {image[0], image[1], image[2]};
  HVX_Vector acc[4];
  conv3x3_row(rows, w, acc);
  int32_t expected[128];
  for (int x = 0; x < 128; ++x) {
    int32_t sum = 0;
    for (int dy = 0; dy < 3; ++dy)
      for (int dx = 0; dx < 3; ++dx) sum += image[dy][x + dx] * w[dy][dx];
    expected[x] = sum;
    ASSERT_EQ(acc[x / 32][x % 32], sum) << "pixel " << x;
  }
  const oprig_dsp_quantized_multiplier m = oprig_dsp_make_quantized_multiplier(1395864371, -9);  // scale about 0.00127
  const HVX_Vector q = requantize(acc, &m, Q6_V_vsplat_R(100));
  for (int x = 0; x < 128; ++x)
    ASSERT_EQ(reinterpret_cast<const uint8_t*>(&q)[x],
              static_cast<uint8_t>(std::clamp(mbqm(expected[x], 1395864371, -9) + 100, 0, 255)))
        << "pixel " << x;
  ASSERT_FALSE(s.sim().faulted()) << s.sim().fault();
  std::cout << "[ recipes ] 3x3 conv row + requantisation: " << s.sim().cycles() << " cycles for 128 pixels, "
            << s.sim().counters().instructions << " instructions\n";
}

TEST(HvxRecipes, LookupTableAppliesAnyByteFunction) {
  alignas(128) uint8_t table[256], x[300], y[300];
  for (size_t e = 0; e < 256; ++e) table[oprig_dsp_lut256_position(e)] = static_cast<uint8_t>((e * e) >> 8);
  for (size_t i = 0; i < 300; ++i) x[i] = static_cast<uint8_t>(i * 37);
  SimSession s;
  oprig_dsp_map(table, sizeof table, "table");
  oprig_dsp_map(x, sizeof x, "input 0");
  oprig_dsp_map_writable(y, sizeof y, "output 0");
  const HVX_Vector low = oprig_vmem_load(table), high = oprig_vmem_load(table + 128);
  for (size_t i = 0; i < 300; i += 128)
    oprig_dsp_store_bytes(y + i, 300 - i, oprig_dsp_lut256(oprig_dsp_load_bytes(x + i, 300 - i), low, high));
  ASSERT_FALSE(s.sim().faulted()) << s.sim().fault();
  for (size_t i = 0; i < 300; ++i) ASSERT_EQ(y[i], static_cast<uint8_t>((x[i] * x[i]) >> 8)) << i;
}

}  // namespace
}  // namespace oprig::hvx
