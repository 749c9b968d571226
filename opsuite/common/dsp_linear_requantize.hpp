// Code -> code requantisation (dsp_requantize.hpp's CodeTable map) as one
// affine map in words instead of a 256-entry lookup (vlut32 + 7 vlut32or, 8
// permutes per 128 codes): per 128 codes a widening (vzxt, or vmpy), two
// multiply-accumulates and two vshuffo, and the values come out as halfwords
// that a max or min of two inputs can compare before the last narrowing,
// which they share. Exact where prepare's check accepts it (below), so a
// kernel keeps its CodeTable as the fallback. Header-only, for dsp kernels
// (it needs oprig_dsp.h). Users: opsuite/elementwise_binary/dsp.cpp (UINT_8
// MAX, MIN of inputs quantised unlike each other); Pool2D MAX and Resize
// NEAREST with another output quantisation could use it with one input.
//
// Requantising code q is T[q] = clamp(round(r (q - z)) + zo, 0, 255) with
// r = s_in / s_out, ties away from zero: monotonic and nearly linear. The
// program computes, per code,
//   w = C + (q M) K        (words mod 2^32: vzxt, or vmpy by M where r 2^S
//                           needs more than 16 bits; vmpyacc by K, a uh scalar)
//   h = floor(w / 2^16)    (vshuffo: the words' high halfwords, an ALU move)
//   code = sat8(round_half_up(h / 2^L))  (the last narrowing; L = 0: sat8(h))
// The floors nest, so code = sat8(floor((C + q M K) / 2^S)), S = 16 + L:
// one rounding with a slope of S fractional bits and a full word of
// constant, so the line can be anchored at q = z (C = zo 2^S - M K z, plus
// 2^(S-1) where L = 0; the narrowing adds it otherwise) with M K a hair above
// r 2^S: ties then round away from zero on both sides of z. The roundings
// are still not the fp64 table's, and w may wrap where r is large, so
// plan_linear_requantize() runs the program's integer steps
// (linear_requantize_code, which mirrors the simulator's instructions) for
// all 256 codes against the table and says "not usable" unless every code
// matches; the kernel then keeps the table. The last narrowing is monotonic,
// so the max (min) of two inputs' h, narrowed, is the max (min) of their
// codes, whatever h is where it wraps: both inputs take their own M, K, C
// and share L (plan_linear_requantize_pair picks the largest L both are
// exact with).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/dsp_requantize.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite::dsp {

// The last narrowing's largest shift (halfwords to codes): h holds codes
// times 2^L, code 255 and a half times 128 is 32704, inside int16.
constexpr int kLinearRequantizeMaxLastShift = 7;

struct LinearRequantizePlan {
  bool usable = false;
  uint32_t pre = 1;   // M, 1..255 (1: vzxt)
  uint32_t k = 0;     // K, 0..65535
  int32_t c = 0;      // C, the constant word
  int last_shift = 0; // L, 0..7
};

// The program's integer steps for one code, as the simulator runs them.
inline int32_t linear_requantize_halfword(const LinearRequantizePlan& p, uint32_t q) {
  const uint32_t w = static_cast<uint32_t>(p.c) + ((q * p.pre) & 0xffffu) * p.k;  // vmpyacc wraps as uw
  return static_cast<int16_t>(static_cast<uint16_t>(w >> 16));                    // vshuffo
}
inline uint8_t linear_requantize_narrow(int32_t halfword, int last_shift) {
  const int32_t half = last_shift > 0 ? 1 << (last_shift - 1) : 0;
  return static_cast<uint8_t>(std::clamp<int32_t>((halfword + half) >> last_shift, 0, 255));
}
inline uint8_t linear_requantize_code(const LinearRequantizePlan& p, uint32_t q) {
  return linear_requantize_narrow(linear_requantize_halfword(p, q), p.last_shift);
}

// At prepare (host only): the program for `target` (built by
// build_requantize(in_scale, in_zero, out_scale, out_zero)) with last shift
// L, or usable = false where no candidate gives every one of its 256 codes
// (ratios above about 128, where w wraps, and any set the candidates miss).
inline LinearRequantizePlan plan_linear_requantize(const CodeTable& target, double in_scale, int32_t in_zero,
                                                   double out_scale, int32_t out_zero, int last_shift) {
  LinearRequantizePlan p;
  const double ratio = in_scale / out_scale;
  if (!(ratio > 0) || !std::isfinite(ratio) || last_shift < 0 || last_shift > kLinearRequantizeMaxLastShift) return p;
  const int total = 16 + last_shift;  // S
  const double slope = std::ldexp(ratio, total);  // M K
  const double pre = slope <= 65535 ? 1 : std::ceil(slope / 65535);
  if (pre > 255) return p;
  const auto base = static_cast<int64_t>(std::round(slope / pre));
  const int64_t step = int64_t{1} << (total - 8);  // 1/256 of an output code, for the constant
  const auto matches = [&](const LinearRequantizePlan& candidate) {
    for (uint32_t q = 0; q < 256; ++q)
      if (linear_requantize_code(candidate, q) != target.entries[oprig_dsp_lut256_position(q)]) return false;
    return true;
  };
  // M K a hair steeper than r 2^S first (ties away from zero around the
  // anchor), then the nearest slopes and constants nudged by 1/256 of a code.
  for (const int64_t dk : {1, 0, 2, -1, 3, -2}) {
    const int64_t k = base + dk;
    if (k < 0 || k > 65535) continue;
    for (const int64_t dc : {0, -1, 1, -2, 2}) {
      LinearRequantizePlan candidate;
      candidate.pre = static_cast<uint32_t>(pre);
      candidate.k = static_cast<uint32_t>(k);
      // The half for rounding half up: here, or added by the last narrowing.
      const int64_t half = last_shift == 0 ? int64_t{1} << (total - 1) : 0;
      const int64_t c = (int64_t{out_zero} << total) - int64_t{candidate.pre} * k * in_zero + half + dc * step;
      candidate.c = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(c)));  // mod 2^32, as vmpyacc
      candidate.last_shift = last_shift;
      if (matches(candidate)) {
        candidate.usable = true;
        return candidate;
      }
    }
  }
  return p;
}

// Both inputs' programs with the largest last shift both are exact with (the
// most fractional bits of slope), preferring M = 1, or unusable ones. `b`
// null: one input.
struct LinearRequantizePair {
  LinearRequantizePlan a, b;
};
struct LinearRequantizeInput {
  const CodeTable* target;
  double scale;
  int32_t zero;
};
inline LinearRequantizePair plan_linear_requantize_pair(const LinearRequantizeInput& a, const LinearRequantizeInput* b,
                                                        double out_scale, int32_t out_zero) {
  // First without a pre-multiply (the simulator runs vzxt on the host in a
  // fraction of vmpy's time), then with one where a ratio needs it.
  for (const bool widen_only : {true, false}) {
    for (int last = kLinearRequantizeMaxLastShift; last >= 0; --last) {
      LinearRequantizePair pair;
      pair.a = plan_linear_requantize(*a.target, a.scale, a.zero, out_scale, out_zero, last);
      if (!pair.a.usable || (widen_only && pair.a.pre != 1)) continue;
      if (b != nullptr) pair.b = plan_linear_requantize(*b->target, b->scale, b->zero, out_scale, out_zero, last);
      if (b == nullptr || (pair.b.usable && (!widen_only || pair.b.pre == 1))) return pair;
    }
  }
  return {};
}

// The plan's splats (once per execute, outside the loop).
struct LinearRequantize {
  HVX_VectorPair constant;  // C in every word of both vectors
  int32_t pre = 0;          // M in every byte (vmpy reads byte i % 4), 0 for vzxt
  int32_t k = 0;            // K in both halfwords (vmpy reads halfword i % 2)
  int last_shift = 0;
  explicit LinearRequantize(const LinearRequantizePlan& p)
      : constant(Q6_W_vcombine_VV(Q6_V_vsplat_R(p.c), Q6_V_vsplat_R(p.c))),
        pre(p.pre == 1 ? 0 : static_cast<int32_t>(p.pre * 0x01010101u)),
        k(static_cast<int32_t>(p.k * 0x10001u)),
        last_shift(p.last_shift) {}
};

// 128 codes as halfwords h (see above), in vzxt's split: even elements in
// order, odd elements in order.
struct SplitHalfwords {
  HVX_Vector even, odd;
};

// vzxt (VA_DV) or vmpy by M (VX_DV), two widening multiply-accumulates into
// the constant (VX_DV: words of elements 4i, 4i + 2 and 4i + 1, 4i + 3) and
// two vshuffo (VA), which interleave their sources back into the vzxt order.
inline SplitHalfwords linear_requantize_halfwords(const LinearRequantize& l, HVX_Vector codes) {
  const HVX_VectorPair h = l.pre == 0 ? Q6_Wuh_vzxt_Vub(codes) : Q6_Wuh_vmpy_VubRub(codes, l.pre);
  const HVX_VectorPair even = Q6_Wuw_vmpyacc_WuwVuhRuh(l.constant, Q6_V_lo_W(h), l.k);
  const HVX_VectorPair odd = Q6_Wuw_vmpyacc_WuwVuhRuh(l.constant, Q6_V_hi_W(h), l.k);
  return {Q6_Vh_vshuffo_VhVh(Q6_V_hi_W(even), Q6_V_lo_W(even)), Q6_Vh_vshuffo_VhVh(Q6_V_hi_W(odd), Q6_V_lo_W(odd))};
}

// The last narrowing (VS): rounded by L, saturated to codes, in element order.
inline HVX_Vector linear_requantize_codes(const SplitHalfwords& h, int last_shift) {
  return last_shift > 0 ? Q6_Vub_vasr_VhVhR_rnd_sat(h.odd, h.even, last_shift)
                        : Q6_Vub_vasr_VhVhR_sat(h.odd, h.even, 0);
}

}  // namespace oprig::opsuite::dsp
