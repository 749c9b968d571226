// Fixed-point requantisation as NNAPI's reference CPU implementation does it
// (packages/modules/NeuralNetworks common/OperationsUtils.cpp and the TFLite
// kernels it calls), so quantised built-ins give the codes NNAPI's own
// generated tests expect, not merely codes within their 1-LSB tolerance:
//
// - a real multiplier M is stored as a Q31 fixed-point number m and a power
//   of two: M = m * 2^(shift - 31), 2^30 <= m < 2^31 (frexp, then rounded);
// - x * M is computed as RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(
//   x << max(shift, 0), m), max(-shift, 0)): a 64-bit product rounded to the
//   nearest (ties away from zero) high word, then an arithmetic right shift
//   rounded to nearest with ties away from zero.
//
// Header-only so the unit tests can check it against gemmlowp's fixedpoint
// (an independent implementation of the same primitives).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "graph/builtin_ops.hpp"

namespace oprig::graph::quant {

struct Multiplier {
  int32_t m = 0;      // Q31, 0 or in [2^30, 2^31)
  int32_t shift = 0;  // M = m * 2^(shift - 31)
};

// NNAPI QuantizeMultiplier: false when M cannot be represented (never for
// the finite positive multipliers of valid models). M below about 2^-31
// flushes to zero, as NNAPI's does.
inline bool quantize_multiplier(double real, Multiplier* out) {
  *out = {};
  if (real == 0.0) return true;
  if (!std::isfinite(real) || real < 0) return false;
  int shift = 0;
  const double q = std::frexp(real, &shift);
  auto fixed = static_cast<int64_t>(std::round(q * static_cast<double>(1ll << 31)));
  if (fixed > (1ll << 31)) return false;
  if (fixed == (1ll << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) {
    shift = 0;
    fixed = 0;
  }
  if (shift > 30) return false;  // x << shift would leave int32 for any x != 0
  out->m = static_cast<int32_t>(fixed);
  out->shift = shift;
  return true;
}

// NNAPI QuantizeMultiplierSmallerThanOneExp: 0 < M < 1 only.
inline bool quantize_multiplier_below_one(double real, Multiplier* out) {
  if (!(real > 0.0 && real < 1.0)) return false;
  return quantize_multiplier(real, out) && out->shift <= 0;
}

// gemmlowp SaturatingRoundingDoublingHighMul: round(a * b / 2^31), ties away
// from zero; the one overflow (INT32_MIN * INT32_MIN) saturates.
inline int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (1ll << 30) : (1 - (1ll << 30));
  return static_cast<int32_t>((ab + nudge) / (1ll << 31));
}

// gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away
// from zero. 0 <= exponent <= 31.
inline int32_t rounding_divide_by_pot(int32_t x, int exponent) {
  const int64_t mask = (int64_t{1} << exponent) - 1;
  const int64_t remainder = static_cast<int64_t>(x) & mask;
  const int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int32_t>((static_cast<int64_t>(x) >> exponent) + (remainder > threshold ? 1 : 0));
}

// TFLite MultiplyByQuantizedMultiplier: x * M with the rounding above. The
// left shift wraps like the reference's int32 arithmetic would for inputs
// that valid models never produce.
inline int32_t multiply(int32_t x, Multiplier mul) {
  const int left = mul.shift > 0 ? mul.shift : 0, right = mul.shift > 0 ? 0 : -mul.shift;
  const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, mul.m), right);
}

// The clamp range of a fused activation in the output's quantised domain
// (NNAPI CalculateActivationRangeImpl): RELU [q(0), max], RELU1 [q(-1), q(1)],
// RELU6 [q(0), q(6)], each limited to the type's range, where q(r) =
// zero_point + (int)round(r / scale) (std::round: half away from zero).
struct Range {
  int32_t lo, hi;
};
inline Range activation_range(FuseCode act, float scale, int32_t zero_point, int32_t qmin, int32_t qmax) {
  auto q = [&](float r) { return zero_point + static_cast<int32_t>(std::round(r / scale)); };
  switch (act) {
    case FuseCode::kRelu: return {std::max(qmin, q(0.0f)), qmax};
    case FuseCode::kRelu1: return {std::max(qmin, q(-1.0f)), std::min(qmax, q(1.0f))};
    case FuseCode::kRelu6: return {std::max(qmin, q(0.0f)), std::min(qmax, q(6.0f))};
    case FuseCode::kNone: break;
  }
  return {qmin, qmax};
}

// ADD and SUB of quantised tensors (NNAPI Broadcast.cpp addQuant8/subQuant8):
// both inputs are offset, shifted left by 20 bits and scaled to twice the
// larger input scale; the sum is scaled to the output. SUB negates the second
// input's multiplier.
inline constexpr int kAddLeftShift = 20;
struct AddParams {
  Multiplier in1, in2, out;
  int32_t in1_offset = 0, in2_offset = 0, out_offset = 0;  // offsets = -zero_point (inputs), zero_point (output)
};
inline bool add_params(float s1, int32_t z1, float s2, int32_t z2, float so, int32_t zo, bool subtract, AddParams* p) {
  const double twice_max = 2.0 * std::max(static_cast<double>(s1), static_cast<double>(s2));
  const bool ok = quantize_multiplier_below_one(s1 / twice_max, &p->in1) &&
                  quantize_multiplier_below_one(s2 / twice_max, &p->in2) &&
                  quantize_multiplier_below_one(twice_max / ((1 << kAddLeftShift) * static_cast<double>(so)), &p->out);
  if (subtract) p->in2.m = -p->in2.m;
  p->in1_offset = -z1;
  p->in2_offset = -z2;
  p->out_offset = zo;
  return ok;
}
inline int32_t add_quantised(int32_t a, int32_t b, const AddParams& p, Range r) {
  const int32_t sa = multiply((a + p.in1_offset) * (1 << kAddLeftShift), p.in1);
  const int32_t sb = multiply((b + p.in2_offset) * (1 << kAddLeftShift), p.in2);
  const int32_t raw = multiply(sa + sb, p.out) + p.out_offset;
  return std::clamp(raw, r.lo, r.hi);
}

// MUL of quantised tensors (NNAPI mulQuant8): the product of the offset
// inputs scaled by s1 * s2 / s_out, which must be below 1.
struct MulParams {
  Multiplier out;
  int32_t in1_offset = 0, in2_offset = 0, out_offset = 0;
};
inline bool mul_params(float s1, int32_t z1, float s2, int32_t z2, float so, int32_t zo, MulParams* p) {
  p->in1_offset = -z1;
  p->in2_offset = -z2;
  p->out_offset = zo;
  return quantize_multiplier_below_one(static_cast<double>(s1) * static_cast<double>(s2) / static_cast<double>(so),
                                       &p->out);
}
inline int32_t mul_quantised(int32_t a, int32_t b, const MulParams& p, Range r) {
  const int32_t raw = multiply((a + p.in1_offset) * (b + p.in2_offset), p.out) + p.out_offset;
  return std::clamp(raw, r.lo, r.hi);
}

}  // namespace oprig::graph::quant
