// Code -> code requantisation (dsp_requantize.hpp's CodeTable map) as one
// affine map in words and two narrowing shifts instead of a 256-entry lookup
// (vlut32 + 7 vlut32or, 8 permutes per 128 codes): 2 multiplies and 2 shifts
// per 128 codes, and the values come out as halfwords that a max or min
// can compare before the last, shared narrowing. Header-only, for dsp kernels
// (it needs oprig_dsp.h). Users: opsuite/elementwise_binary/dsp.cpp (UINT_8
// MAX, MIN).
//
// Requantising code q is T[q] = clamp(round(r (q - z)) + zo, 0, 255) with
// r = s_in / s_out, ties away from zero: monotonic and nearly linear. The
// program computes, per code,
//   w = C + q K                      (words, exact: vzxt, vmpyacc by a uh scalar)
//   h = sat16(floor(w / 2^S1))       (narrowing shift, no rounding)
//   code = sat8(floor((h + 64) / 2^7))  (the last narrowing, rounding)
// The floors nest, so code = sat(round_half_up((C + q K) / 2^(S1+7))): one
// rounding at up to 22 fractional bits of slope, and C is a full word, so the
// line can be anchored at q = z (C = zo 2^S - K z) with K a hair above
// r 2^S: ties then round away from zero on both sides of z. The roundings
// still are not the fp64 table's, so plan_linear_requantize() runs the
// program's integer steps (linear_requantize_code, which mirrors the
// simulator's instructions) for all 256 codes against the table and says
// "not usable" unless every code matches; the kernel then keeps the table.
// h is monotonic in q and every later step is monotonic, so the max (min) of
// two inputs' h, narrowed, is the max (min) of their codes: both inputs may
// take their own K, C, S1 and share the last narrowing.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/dsp_requantize.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite::dsp {

// The last narrowing's shift (halfwords to codes), shared by every input: h
// holds codes times 128 (code 255 and half is 32704, inside int16).
constexpr int kLinearRequantizeLastShift = 7;

struct LinearRequantizePlan {
  bool usable = false;
  uint32_t k = 0;     // the slope, 0..65535
  int32_t c = 0;      // the constant word
  int shift = 0;      // S1, 0..15
};

// The program's integer steps for one code, as the simulator runs them.
inline int32_t linear_requantize_halfword(const LinearRequantizePlan& p, uint32_t q) {
  const auto w = static_cast<int32_t>(static_cast<uint32_t>(p.c) + q * p.k);  // vmpyacc wraps as uw
  return std::clamp<int32_t>(w >> p.shift, std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max());
}
inline uint8_t linear_requantize_narrow(int32_t halfword) {
  constexpr int32_t half = 1 << (kLinearRequantizeLastShift - 1);
  return static_cast<uint8_t>(std::clamp<int32_t>((halfword + half) >> kLinearRequantizeLastShift, 0, 255));
}
inline uint8_t linear_requantize_code(const LinearRequantizePlan& p, uint32_t q) {
  return linear_requantize_narrow(linear_requantize_halfword(p, q));
}

// At prepare (host only): the program for `target` (built by
// build_requantize(in_scale, in_zero, out_scale, out_zero)), or usable =
// false where no candidate gives every one of its 256 codes (ratios above
// 512, where K would not fit 16 bits, and any set the candidates miss).
inline LinearRequantizePlan plan_linear_requantize(const CodeTable& target, double in_scale, int32_t in_zero,
                                                   double out_scale, int32_t out_zero) {
  LinearRequantizePlan p;
  const double ratio = in_scale / out_scale;
  if (!(ratio > 0) || !std::isfinite(ratio)) return p;
  constexpr int kMaxShift = 15 + kLinearRequantizeLastShift;
  int total = kMaxShift;  // S = S1 + 7, as large as K allows: the slope's precision
  while (total >= kLinearRequantizeLastShift && std::round(std::ldexp(ratio, total)) > 65535) --total;
  if (total < kLinearRequantizeLastShift) return p;
  const auto base = static_cast<int64_t>(std::round(std::ldexp(ratio, total)));
  const int64_t step = int64_t{1} << (total - 8);  // 1/256 of an output code, for the constant
  const auto matches = [&](const LinearRequantizePlan& candidate) {
    for (uint32_t q = 0; q < 256; ++q)
      if (linear_requantize_code(candidate, q) != target.entries[oprig_dsp_lut256_position(q)]) return false;
    return true;
  };
  // K a hair steeper than r 2^S first (ties away from zero around the anchor),
  // then the nearest slopes and constants nudged by 1/256 of a code.
  for (const int64_t dk : {1, 0, 2, -1, 3, -2}) {
    const int64_t k = base + dk;
    if (k < 0 || k > 65535) continue;
    for (const int64_t dc : {0, -1, 1, -2, 2}) {
      const int64_t c = (int64_t{out_zero} << total) - k * in_zero + dc * step;
      if (c < std::numeric_limits<int32_t>::min() || c > std::numeric_limits<int32_t>::max()) continue;
      LinearRequantizePlan candidate;
      candidate.k = static_cast<uint32_t>(k);
      candidate.c = static_cast<int32_t>(c);
      candidate.shift = total - kLinearRequantizeLastShift;
      if (matches(candidate)) {
        candidate.usable = true;
        return candidate;
      }
    }
  }
  return p;
}

// The plan's splats (once per execute, outside the loop).
struct LinearRequantize {
  HVX_VectorPair constant;  // C in every word of both vectors
  int32_t k = 0;            // K in both halfwords (vmpy reads halfword i % 2)
  int shift = 0;
  explicit LinearRequantize(const LinearRequantizePlan& p)
      : constant(Q6_W_vcombine_VV(Q6_V_vsplat_R(p.c), Q6_V_vsplat_R(p.c))),
        k(static_cast<int32_t>(p.k * 0x10001u)),
        shift(p.shift) {}
};

// 128 codes as halfwords h (see above), in vzxt's split: even elements in
// order, odd elements in order.
struct SplitHalfwords {
  HVX_Vector even, odd;
};

// vzxt (VA_DV), two widening multiply-accumulates into the constant (VX_DV:
// words of elements 4i, 4i + 2 and 4i + 1, 4i + 3) and two narrowing shifts
// (VS), which interleave their sources back into the vzxt order.
inline SplitHalfwords linear_requantize_halfwords(const LinearRequantize& l, HVX_Vector codes) {
  const HVX_VectorPair h = Q6_Wuh_vzxt_Vub(codes);
  const HVX_VectorPair even = Q6_Wuw_vmpyacc_WuwVuhRuh(l.constant, Q6_V_lo_W(h), l.k);
  const HVX_VectorPair odd = Q6_Wuw_vmpyacc_WuwVuhRuh(l.constant, Q6_V_hi_W(h), l.k);
  return {Q6_Vh_vasr_VwVwR_sat(Q6_V_hi_W(even), Q6_V_lo_W(even), l.shift),
          Q6_Vh_vasr_VwVwR_sat(Q6_V_hi_W(odd), Q6_V_lo_W(odd), l.shift)};
}

// The last narrowing (VS): rounded, saturated to codes, in element order.
inline HVX_Vector linear_requantize_codes(const SplitHalfwords& h) {
  return Q6_Vub_vasr_VhVhR_rnd_sat(h.odd, h.even, kLinearRequantizeLastShift);
}

}  // namespace oprig::opsuite::dsp
