// NNAPI's quantised ADD, SUB and MUL (quant.hpp's eval_add / eval_mul) on
// 128 codes at a time in HVX code on the dsp simulator: codes widened to
// 32-bit lanes, offset, shifted left (ADD/SUB), scaled with gemmlowp's
// SaturatingRoundingDoublingHighMul and RoundingDivideByPOT, offset by the
// output's zero point, clamped to the activation's range and narrowed back
// (110-116 instructions, 24 simulated cycles per 128 codes). ADD and SUB also
// have a fast program (22-32 instructions, 7-8 cycles, below) that kernels run
// where prepare found it bit-exact for every code pair; MUL has one exact
// program in halfword products (dsp_quant_mul_codes, 10-11 cycles).
// Used by opsuite/builtins/dsp.cpp (QuantizedArithmetic) and
// opsuite/elementwise_binary/dsp.cpp (UINT_8 ADD, SUB, MUL). Include only from
// dsp kernels (it needs oprig_dsp.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/quant.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

// ---- The fast ADD/SUB program (about 8 simulated cycles per 128 codes) -----
// The three gemmlowp rescales of ADD/SUB are close to one linear map of the
// offset codes: out - zo ~ (a - za) alpha + (b - zb) beta, alpha and beta the
// products of the quantised multipliers. The fast program evaluates
//   X = a A + b B + C   (A, B, C integers, A ~ alpha 2^(16+S)), exactly,
// as two vdmpy per 32 lanes on words holding a and b in their halves (32-bit
// coefficients split into a signed high and an unsigned low halfword), takes
// t = floor(X / 2^16) (vasracc), optionally t - 1 where the result is negative
// (so a tie rounds away from zero, as rdbpot does), rounds t / 2^S in the
// saturating narrowing shift and packs to codes. Its rounding is not the
// rule's, so plan_dsp_quant_add_fast() evaluates the program's exact integer
// steps for all 65536 code pairs at prepare against quant::eval_add and the
// kernel uses it only where every pair agrees (the exact program otherwise).
struct QuantAddFastPlan {
  bool usable = false;
  bool sign_fix = false;  // t - 1 where t < zo 2^S
  bool is_signed = false;
  bool clamp = false;     // the activation's range is narrower than the type's
  int shift = 0;          // S, 1..15 (the narrowing shift's range)
  int32_t coef_hi = 0;    // A >> 16 in the low halfword, B >> 16 in the high one
  uint32_t coef_lo = 0;   // A & 0xffff, B & 0xffff
  int32_t const_hi = 0, const_lo = 0;  // C >> 16, C & 0xffff
  int32_t threshold = 0;  // zo 2^S
  quant::Range range;
};

namespace detail {
inline int64_t sat32(int64_t v) {
  return std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
}
// round(m1 m2 / 2^k) for |m1 m2| < 2^62, ties up.
inline int64_t round_shift(int64_t product, int k) {
  if (k >= 63) return 0;
  if (k == 0) return product;
  return (product + (int64_t{1} << (k - 1))) >> k;
}
// The fast program's integer steps for one code pair, as the simulator runs them.
inline int32_t fast_add_code(const QuantAddFastPlan& f, int32_t a, int32_t b) {
  const int32_t a_hi = static_cast<int16_t>(f.coef_hi & 0xffff), b_hi = static_cast<int16_t>(f.coef_hi >> 16);
  const int64_t a_lo = f.coef_lo & 0xffffu, b_lo = f.coef_lo >> 16;
  const int64_t lo = sat32(f.const_lo + a * a_lo + b * b_lo);
  const int64_t hi = sat32(f.const_hi + int64_t{a} * a_hi + int64_t{b} * b_hi);
  int64_t t = static_cast<int32_t>(static_cast<uint32_t>(hi + (lo >> 16)));
  if (f.sign_fix && t < f.threshold) t -= 1;
  const int64_t h = std::clamp<int64_t>((t + (int64_t{1} << (f.shift - 1))) >> f.shift, -32768, 32767);
  const quant::Range type = quant::type_range(f.is_signed);
  const int32_t code = static_cast<int32_t>(std::clamp<int64_t>(h, type.lo, type.hi));
  return std::clamp(code, f.range.lo, f.range.hi);
}
inline bool fast_add_exact(const QuantAddFastPlan& f, const quant::ArithmeticParams& p) {
  const quant::Range type = quant::type_range(f.is_signed);
  for (int32_t a = type.lo; a <= type.hi; ++a)
    for (int32_t b = type.lo; b <= type.hi; ++b)
      if (fast_add_code(f, a, b) != quant::eval_add(a, b, p)) return false;
  return true;
}
}  // namespace detail

// At prepare (host only): the fast program for ADD/SUB with these parameters,
// or usable = false where it is not bit-exact for every code pair.
inline QuantAddFastPlan plan_dsp_quant_add_fast(const quant::ArithmeticParams& p, bool is_signed) {
  QuantAddFastPlan f;
  f.is_signed = is_signed;
  f.range = p.range;
  const quant::Range type = quant::type_range(is_signed);
  f.clamp = p.range.lo != type.lo || p.range.hi != type.hi;
  if (p.in1.left != 0 || p.in2.left != 0 || p.out.left != 0) return f;
  // alpha 2^(16+S) = 2^20 m1 mo / 2^(62 + r1 + ro - 16 - S).
  const auto coefficient = [&](const quant::Multiplier& in, int s) {
    return detail::round_shift(int64_t{in.m} * p.out.m, 26 + in.right + p.out.right - s);
  };
  for (int s = 15; s >= 1 && !f.usable; --s) {
    const int64_t a = coefficient(p.in1, s), b = coefficient(p.in2, s);
    const int64_t limit = (int64_t{1} << 31) - (int64_t{1} << 16);
    if (a > limit || a < -limit || b > limit || b < -limit) continue;
    const int64_t c = int64_t{p.in1_offset} * a + int64_t{p.in2_offset} * b + (int64_t{p.out_offset} << (16 + s));
    const int64_t c_lo = c & 0xffff, c_hi = (c - c_lo) >> 16;
    // No vdmpy may saturate, nor t leave int32 (checked on the bounds, not the pairs).
    const int64_t reach_hi = 256 * ((a >> 16 < 0 ? -(a >> 16) : a >> 16) + (b >> 16 < 0 ? -(b >> 16) : b >> 16));
    if (c_hi + reach_hi >= (int64_t{1} << 30) || c_hi - reach_hi <= -(int64_t{1} << 30)) continue;
    f.shift = s;
    f.coef_hi = static_cast<int32_t>(static_cast<uint32_t>((a >> 16) & 0xffff) | static_cast<uint32_t>((b >> 16) & 0xffff) << 16);
    f.coef_lo = static_cast<uint32_t>(a & 0xffff) | static_cast<uint32_t>(b & 0xffff) << 16;
    f.const_hi = static_cast<int32_t>(c_hi);
    f.const_lo = static_cast<int32_t>(c_lo);
    f.threshold = static_cast<int32_t>(int64_t{p.out_offset} << s);
    for (const bool fix : {false, true}) {
      f.sign_fix = fix;
      if (detail::fast_add_exact(f, p)) {
        f.usable = true;
        break;
      }
    }
    break;  // the largest S that fits is the most precise; a smaller one is not better
  }
  return f;
}

// The splats of the fast program (once per execute).
struct DspQuantAddFast {
  QuantAddFastPlan plan;
  HVX_Vector const_hi, const_lo, threshold, one, lo, hi;
};

inline DspQuantAddFast make_dsp_quant_add_fast(const QuantAddFastPlan& f) {
  DspQuantAddFast k;
  k.plan = f;
  k.const_hi = Q6_V_vsplat_R(f.const_hi);
  k.const_lo = Q6_V_vsplat_R(f.const_lo);
  if (f.sign_fix) {
    k.threshold = Q6_V_vsplat_R(f.threshold);
    k.one = Q6_V_vsplat_R(1);
  }
  if (f.clamp) {
    k.lo = Q6_Vb_vsplat_R(f.range.lo);
    k.hi = Q6_Vb_vsplat_R(f.range.hi);
  }
  return k;
}

// 128 codes of a and b -> 128 result codes (all lanes computed; a kernel
// stores the valid ones).
inline HVX_Vector dsp_quant_add_fast_codes(const DspQuantAddFast& k, HVX_Vector va, HVX_Vector vb) {
  const QuantAddFastPlan& f = k.plan;
  // Halfwords: lo = even elements, hi = odd ones.
  const HVX_VectorPair ha = f.is_signed ? Q6_Wh_vsxt_Vb(va) : Q6_Wuh_vzxt_Vub(va);
  const HVX_VectorPair hb = f.is_signed ? Q6_Wh_vsxt_Vb(vb) : Q6_Wuh_vzxt_Vub(vb);
  // Words a | b << 16. Without the sign fix the ALU has room: vshuffoe (ALU)
  // makes words of elements 4j, 4j+2 (from the even halfwords) and 4j+1,
  // 4j+3, and the two interleaving narrowings restore the order (7 cycles,
  // shift-bound). With it, vshuff (permute + shift) makes words of elements
  // 0, 2, .., 62 and 64, .., 126 (and the odd ones), one interleaving
  // narrowing and vpack restore the order (8 cycles, shift-bound; vshuffoe
  // would make it 9, ALU-bound).
  HVX_VectorPair even, odd;
  if (f.sign_fix) {
    even = Q6_W_vshuff_VVR(Q6_V_lo_W(hb), Q6_V_lo_W(ha), -2);
    odd = Q6_W_vshuff_VVR(Q6_V_hi_W(hb), Q6_V_hi_W(ha), -2);
  } else {
    even = Q6_Wh_vshuffoe_VhVh(Q6_V_lo_W(hb), Q6_V_lo_W(ha));
    odd = Q6_Wh_vshuffoe_VhVh(Q6_V_hi_W(hb), Q6_V_hi_W(ha));
  }
  const HVX_Vector words[4] = {Q6_V_lo_W(even), Q6_V_lo_W(odd), Q6_V_hi_W(even), Q6_V_hi_W(odd)};
  HVX_Vector t[4];
  for (size_t part = 0; part < 4; ++part) {
    const HVX_Vector lo = Q6_Vw_vdmpyacc_VwVhRuh_sat(k.const_lo, words[part], static_cast<int32_t>(f.coef_lo));
    const HVX_Vector hi = Q6_Vw_vdmpyacc_VwVhRh_sat(k.const_hi, words[part], f.coef_hi);
    t[part] = Q6_Vw_vasracc_VwVwR(hi, lo, 16);
    if (f.sign_fix) t[part] = Q6_Vw_condnac_QVwVw(Q6_Q_vcmp_gt_VwVw(k.threshold, t[part]), t[part], k.one);
  }
  HVX_Vector r;
  if (f.sign_fix) {
    // Narrowing interleaves its sources: elements 0..63, then 64..127.
    const HVX_Vector first = Q6_Vh_vasr_VwVwR_rnd_sat(t[1], t[0], f.shift);
    const HVX_Vector second = Q6_Vh_vasr_VwVwR_rnd_sat(t[3], t[2], f.shift);
    r = f.is_signed ? Q6_Vb_vpack_VhVh_sat(second, first) : Q6_Vub_vpack_VhVh_sat(second, first);
  } else {
    // Even elements (4j, 4j+2 interleaved), odd ones, then bytes interleaved.
    const HVX_Vector even_h = Q6_Vh_vasr_VwVwR_rnd_sat(t[2], t[0], f.shift);
    const HVX_Vector odd_h = Q6_Vh_vasr_VwVwR_rnd_sat(t[3], t[1], f.shift);
    r = f.is_signed ? Q6_Vb_vasr_VhVhR_sat(odd_h, even_h, 0) : Q6_Vub_vasr_VhVhR_sat(odd_h, even_h, 0);
  }
  if (!f.clamp) return r;
  return f.is_signed ? Q6_Vb_vmin_VbVb(Q6_Vb_vmax_VbVb(r, k.lo), k.hi) : Q6_Vub_vmin_VubVub(Q6_Vub_vmax_VubVub(r, k.lo), k.hi);
}


// The splatted constants of one quantised arithmetic program: made once per
// execute, outside the loop (each splat is an instruction).
struct DspQuantArith {
  HVX_Vector in1_offset, in2_offset, out_offset, lo, hi, zero;
  oprig_dsp_quantized_multiplier in1, in2, out;
  bool mul = false;
  bool is_signed = false;
  bool fast = false;  // ADD/SUB by the fast program (add_fast), the rest unused
  DspQuantAddFast add_fast{};
  // MUL in halfword products (dsp_quant_mul_codes): the offsets as halfwords,
  // zo 2^round_shift, the byte clamp.
  HVX_Vector in1_offset_h, in2_offset_h, mul_out_offset, lo_b, hi_b;
  int pre_shift = 0, round_shift = 0;
  bool clamp = false;
};

// x * M (quant.hpp) as the vector helper wants it.
inline oprig_dsp_quantized_multiplier dsp_vector_multiplier(const quant::Multiplier& mul) {
  return oprig_dsp_make_quantized_multiplier(mul.m, mul.left > 0 ? mul.left : -mul.right);
}

inline DspQuantArith make_dsp_quant_arith(const quant::ArithmeticParams& p, bool mul, bool is_signed) {
  DspQuantArith k;
  k.in1_offset = Q6_V_vsplat_R(p.in1_offset);
  k.in2_offset = Q6_V_vsplat_R(p.in2_offset);
  k.out_offset = Q6_V_vsplat_R(p.out_offset);
  k.lo = Q6_V_vsplat_R(p.range.lo);
  k.hi = Q6_V_vsplat_R(p.range.hi);
  k.zero = Q6_V_vzero();
  k.mul = mul;
  k.is_signed = is_signed;
  k.out = dsp_vector_multiplier(p.out);
  k.in1 = mul ? k.out : dsp_vector_multiplier(p.in1);
  k.in2 = mul ? k.out : dsp_vector_multiplier(p.in2);
  if (mul) {
    // rdbpot(u, ro) = floor((u - [u < 0] + 2^(ro-1)) / 2^ro); the narrowing
    // rounds by at most 15 bits, so a larger ro first floors by ro - 15
    // (floors nest: the result is the same).
    k.in1_offset_h = Q6_Vh_vsplat_R(p.in1_offset);
    k.in2_offset_h = Q6_Vh_vsplat_R(p.in2_offset);
    k.round_shift = p.out.right < 15 ? p.out.right : 15;
    k.pre_shift = p.out.right - k.round_shift;
    k.mul_out_offset = Q6_V_vsplat_R(static_cast<int32_t>(static_cast<uint32_t>(p.out_offset) << k.round_shift));
    const quant::Range type = quant::type_range(is_signed);
    k.clamp = p.range.lo != type.lo || p.range.hi != type.hi;
    if (k.clamp) {
      k.lo_b = Q6_Vb_vsplat_R(p.range.lo);
      k.hi_b = Q6_Vb_vsplat_R(p.range.hi);
    }
  }
  return k;
}

// As above, with the fast ADD/SUB program where prepare found it exact
// (plan_dsp_quant_add_fast); then only its constants are splatted.
inline DspQuantArith make_dsp_quant_arith(const quant::ArithmeticParams& p, bool mul, bool is_signed,
                                          const QuantAddFastPlan& fast) {
  if (mul || !fast.usable) return make_dsp_quant_arith(p, mul, is_signed);
  DspQuantArith k{};
  k.is_signed = is_signed;
  k.fast = true;
  k.add_fast = make_dsp_quant_add_fast(fast);
  return k;
}

// MUL exactly, about 10 simulated cycles per 128 codes (multiplier-bound): the
// offset codes as halfwords (vzxt/vsxt: even elements, odd ones), their
// products as words by one widening vmpy per 64 lanes (|P| <= 65280), then
// per 32 lanes the rule's srdhm (vmpye + vmpyo) and rdbpot folded into the
// rounding narrowing: u - [u < 0], plus zo 2^s, rounded right by s. The
// products come as elements 4j and 4j+2 (even halfwords), 4j+1 and 4j+3: the
// two interleaving narrowings restore the order.
inline HVX_Vector dsp_quant_mul_codes(const DspQuantArith& k, HVX_Vector va, HVX_Vector vb) {
  const HVX_VectorPair ha = k.is_signed ? Q6_Wh_vsxt_Vb(va) : Q6_Wuh_vzxt_Vub(va);
  const HVX_VectorPair hb = k.is_signed ? Q6_Wh_vsxt_Vb(vb) : Q6_Wuh_vzxt_Vub(vb);
  const HVX_VectorPair even = Q6_Ww_vmpy_VhVh(Q6_Vh_vadd_VhVh(Q6_V_lo_W(ha), k.in1_offset_h),
                                              Q6_Vh_vadd_VhVh(Q6_V_lo_W(hb), k.in2_offset_h));
  const HVX_VectorPair odd = Q6_Ww_vmpy_VhVh(Q6_Vh_vadd_VhVh(Q6_V_hi_W(ha), k.in1_offset_h),
                                             Q6_Vh_vadd_VhVh(Q6_V_hi_W(hb), k.in2_offset_h));
  const HVX_Vector products[4] = {Q6_V_lo_W(even), Q6_V_lo_W(odd), Q6_V_hi_W(even), Q6_V_hi_W(odd)};
  HVX_Vector t[4];
  for (size_t part = 0; part < 4; ++part) {
    HVX_Vector u = oprig_dsp_srdhm_w(products[part], k.out.multiplier);
    if (k.out.right > 0) u = Q6_Vw_vsub_VwVw(u, Q6_Vuw_vlsr_VuwR(u, 31));  // |u| <= 65280: no wrap
    if (k.pre_shift > 0) u = Q6_Vw_vasr_VwR(u, k.pre_shift);
    t[part] = Q6_Vw_vadd_VwVw(u, k.mul_out_offset);
  }
  const HVX_Vector even_h = Q6_Vh_vasr_VwVwR_rnd_sat(t[2], t[0], k.round_shift);
  const HVX_Vector odd_h = Q6_Vh_vasr_VwVwR_rnd_sat(t[3], t[1], k.round_shift);
  const HVX_Vector r = k.is_signed ? Q6_Vb_vasr_VhVhR_sat(odd_h, even_h, 0) : Q6_Vub_vasr_VhVhR_sat(odd_h, even_h, 0);
  if (!k.clamp) return r;
  return k.is_signed ? Q6_Vb_vmin_VbVb(Q6_Vb_vmax_VbVb(r, k.lo_b), k.hi_b)
                     : Q6_Vub_vmin_VubVub(Q6_Vub_vmax_VubVub(r, k.lo_b), k.hi_b);
}

// 128 codes of a and b (UINT_8, or INT_8 when is_signed) -> 128 result codes;
// only the first `valid` lanes are computed (the rest read 0).
inline HVX_Vector dsp_quant_arith_codes(const DspQuantArith& k, HVX_Vector va, HVX_Vector vb, size_t valid) {
  if (k.fast) return dsp_quant_add_fast_codes(k.add_fast, va, vb);
  if (k.mul) return dsp_quant_mul_codes(k, va, vb);
  constexpr size_t kLanes32 = OPRIG_DSP_VECTOR_BYTES / 4;
  HVX_Vector wa[4], wb[4], r[4];
  if (k.is_signed) {
    oprig_dsp_widen_b_w(va, wa);
    oprig_dsp_widen_b_w(vb, wb);
  } else {
    oprig_dsp_widen_ub_w(va, wa);
    oprig_dsp_widen_ub_w(vb, wb);
  }
  for (size_t part = 0; part < 4; ++part) {
    if (part * kLanes32 >= valid) {
      r[part] = k.zero;
      continue;
    }
    const HVX_Vector x = Q6_Vw_vadd_VwVw(wa[part], k.in1_offset), z = Q6_Vw_vadd_VwVw(wb[part], k.in2_offset);
    const HVX_Vector sx = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vasl_VwR(x, quant::kAddLeftShift), &k.in1);
    const HVX_Vector sz = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vasl_VwR(z, quant::kAddLeftShift), &k.in2);
    const HVX_Vector raw = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vadd_VwVw(sx, sz), &k.out);
    r[part] = Q6_Vw_vmin_VwVw(Q6_Vw_vmax_VwVw(Q6_Vw_vadd_VwVw(raw, k.out_offset), k.lo), k.hi);
  }
  return k.is_signed ? oprig_dsp_narrow_w_b_sat(r) : oprig_dsp_narrow_w_ub_sat(r);
}

}  // namespace oprig::opsuite
