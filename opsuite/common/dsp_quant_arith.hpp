// NNAPI's quantised ADD, SUB and MUL (quant.hpp's eval_add / eval_mul) on
// 128 codes at a time in HVX code on the dsp simulator: codes widened to
// 32-bit lanes, offset, shifted left (ADD/SUB), scaled with gemmlowp's
// SaturatingRoundingDoublingHighMul and RoundingDivideByPOT, offset by the
// output's zero point, clamped to the activation's range and narrowed back.
// Used by opsuite/builtins/dsp.cpp (QuantizedArithmetic) and
// opsuite/elementwise_binary/dsp.cpp (UINT_8 ADD, SUB, MUL). Include only from
// dsp kernels (it needs oprig_dsp.h).
#pragma once

#include <cstddef>

#include "common/quant.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

// The splatted constants of one quantised arithmetic program: made once per
// execute, outside the loop (each splat is an instruction).
struct DspQuantArith {
  HVX_Vector in1_offset, in2_offset, out_offset, lo, hi, zero;
  oprig_dsp_quantized_multiplier in1, in2, out;
  bool mul = false;
  bool is_signed = false;
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
  return k;
}

// 128 codes of a and b (UINT_8, or INT_8 when is_signed) -> 128 result codes;
// only the first `valid` lanes are computed (the rest read 0).
inline HVX_Vector dsp_quant_arith_codes(const DspQuantArith& k, HVX_Vector va, HVX_Vector vb, size_t valid) {
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
    HVX_Vector raw;
    if (k.mul) {
      raw = oprig_dsp_apply_quantized_multiplier_w(oprig_dsp_mul_lo_w(x, z), &k.out);
    } else {
      const HVX_Vector sx = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vasl_VwR(x, quant::kAddLeftShift), &k.in1);
      const HVX_Vector sz = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vasl_VwR(z, quant::kAddLeftShift), &k.in2);
      raw = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vadd_VwVw(sx, sz), &k.out);
    }
    r[part] = Q6_Vw_vmin_VwVw(Q6_Vw_vmax_VwVw(Q6_Vw_vadd_VwVw(raw, k.out_offset), k.lo), k.hi);
  }
  return k.is_signed ? oprig_dsp_narrow_w_b_sat(r) : oprig_dsp_narrow_w_ub_sat(r);
}

}  // namespace oprig::opsuite
