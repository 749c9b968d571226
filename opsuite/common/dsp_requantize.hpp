// UINT_8 building blocks of the opsuite's dsp kernels that more than one op
// needs, written once on oprig_dsp.h (header-only; include it from a dsp.cpp
// only, it needs the simulator's intrinsics). Users: opsuite/pool2d/dsp.cpp
// (MAX with another output quantisation, AVG's sums and per-window divisors),
// opsuite/resize/dsp.cpp (NEAREST with another output quantisation,
// BILINEAR's fixed-point blend).
//
// - CodeTable: code -> code requantisation of a tensor whose values pass
//   through unchanged (a max, a copy): 256 entries built at prepare in fp64,
//   round half away from zero as the harness's reference, looked up with
//   vlut32 (oprig_dsp_lut256). Exact.
// - scale_words: TFLite's MultiplyByQuantizedMultiplier with a quant.hpp
//   Multiplier chosen per output (a window's divisor), the same primitives
//   bit for bit as quant::scale_by.
// - fold_halfword_sums / narrow_split_w_ub_sat: byte sums accumulated in
//   halfwords with vaddacc (which splits even and odd lanes between a pair),
//   widened to words and narrowed back to bytes in element order.
// - weighted_sum_w: a * rest + b * weight on words with fixed-point weights
//   (vmpyi by a halfword scalar), the step of a linear interpolation.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "common/quant.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite::dsp {

// The code for `real`, rounded half away from zero and clamped to UINT_8.
inline uint8_t quantize_u8(double real, double scale, int32_t zero) {
  const double code = std::round(real / scale) + zero;
  return static_cast<uint8_t>(std::clamp(code, 0.0, 255.0));
}

// A 256-entry code -> code table laid out for vlut32.
struct CodeTable {
  alignas(OPRIG_DSP_VECTOR_BYTES) std::array<uint8_t, 256> entries{};

  void build_requantize(double in_scale, int32_t in_zero, double out_scale, int32_t out_zero) {
    for (size_t q = 0; q < 256; ++q)
      entries[oprig_dsp_lut256_position(q)] =
          quantize_u8(in_scale * (static_cast<double>(q) - in_zero), out_scale, out_zero);
  }
};

// The table's two vectors, mapped and loaded once per execute.
struct CodeLookup {
  HVX_Vector low, high;
  explicit CodeLookup(const CodeTable& t) {
    oprig_dsp_map(t.entries.data(), t.entries.size(), "the requantisation table");
    low = oprig_vmem_load(t.entries.data());
    high = oprig_vmem_load(t.entries.data() + OPRIG_DSP_VECTOR_BYTES);
  }
  HVX_Vector operator()(HVX_Vector codes) const { return oprig_dsp_lut256(codes, low, high); }
};

// x * M per word for M = m * 2^(left - right) / 2^31 (quant::Multiplier),
// with `m` already splatted: quant::scale_by on 32 lanes. `zero` is a zero
// vector made outside the loop.
inline HVX_Vector scale_words(HVX_Vector x, HVX_Vector m, const quant::Multiplier& mul, HVX_Vector zero) {
  const HVX_Vector shifted = mul.left > 0 ? Q6_Vw_vasl_VwR(x, mul.left) : x;
  return oprig_dsp_rdbpot_w(oprig_dsp_srdhm_w(shifted, m), mul.right, zero);
}

// Words of 128 byte lanes in the order vaddacc + vzxt leave them: w[0] holds
// lanes 4i, w[1] lanes 4i + 2, w[2] lanes 4i + 1, w[3] lanes 4i + 3.
struct SplitWords {
  HVX_Vector w[4];
};

// Adds halfword sums of bytes (lo: even byte lanes, hi: odd ones, as
// Q6_Wh_vaddacc_WhVubVub accumulates them, read as unsigned) into words.
inline void fold_halfword_sums(HVX_VectorPair sums, SplitWords* words) {
  const HVX_VectorPair even = Q6_Wuw_vzxt_Vuh(Q6_V_lo_W(sums)), odd = Q6_Wuw_vzxt_Vuh(Q6_V_hi_W(sums));
  words->w[0] = Q6_Vw_vadd_VwVw(words->w[0], Q6_V_lo_W(even));
  words->w[1] = Q6_Vw_vadd_VwVw(words->w[1], Q6_V_hi_W(even));
  words->w[2] = Q6_Vw_vadd_VwVw(words->w[2], Q6_V_lo_W(odd));
  words->w[3] = Q6_Vw_vadd_VwVw(words->w[3], Q6_V_hi_W(odd));
}

// Saturates split words to bytes and puts the lanes back in element order:
// vsat interleaves its operands (the second in the even lanes), undoing vzxt
// and then vaddacc's split.
inline HVX_Vector narrow_split_w_ub_sat(const SplitWords& words) {
  const HVX_Vector even = Q6_Vh_vsat_VwVw(words.w[1], words.w[0]);  // halfword k: byte lane 2k
  const HVX_Vector odd = Q6_Vh_vsat_VwVw(words.w[3], words.w[2]);   // halfword k: byte lane 2k + 1
  return Q6_Vub_vsat_VhVh(odd, even);
}

// A fixed-point weight for vmpyi's halfword scalar (it reads halfword i % 2
// of Rt for word lane i): the weight in both halves.
inline int32_t halfword_weight(int32_t weight) {
  return static_cast<int32_t>((static_cast<uint32_t>(weight) & 0xffffu) * 0x10001u);
}

// a * rest + b * weight per word, exactly (the low 32 bits; a caller keeps
// the sum in range): a fixed-point weighted sum of two vectors, `rest` and
// `weight` made by halfword_weight (|weight| < 2^15).
inline HVX_Vector weighted_sum_w(HVX_Vector a, int32_t rest, HVX_Vector b, int32_t weight) {
  return Q6_Vw_vmpyiacc_VwVwRh(Q6_Vw_vmpyi_VwRh(a, rest), b, weight);
}

}  // namespace oprig::opsuite::dsp
