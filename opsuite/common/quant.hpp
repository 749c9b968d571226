// NNAPI's integer requantisation as org.oprig.builtins and the opsuite's
// quantised kernels compute it, the semantics the graph runtime's host
// kernels define (runtime/graph/quant_math.hpp, after NNAPI's reference CPU implementation and the TFLite
// kernels it calls). Written here from those rules, so the package needs
// nothing of the runtime; tests/graph_device checks the device kernels code
// for code against the host. prepare() computes the parameters on the host;
// every backend's kernel evaluates per element exactly the integer steps of
// eval_add / eval_mul below (the opencl and vulkan kernels spell them in
// their own languages, the dsp kernel with the simulator's srdhm_w and
// rdbpot_w, which are these primitives).
//
// - A real multiplier M > 0 is m * 2^(shift - 31) with m a Q31 integer in
//   [2^30, 2^31): frexp, m = round(q * 2^31) (2^31 folds into 2^30 and
//   shift + 1), M below 2^-31 flushes to m = 0.
// - x * M = rdbpot(srdhm(x << max(shift, 0), m), max(-shift, 0)):
//   srdhm(a, b) = (a * b + (a * b >= 0 ? 2^30 : 1 - 2^30)) / 2^31, the
//   division truncating (ties go toward +inf), INT32_MIN * INT32_MIN
//   saturating to INT32_MAX;
//   rdbpot(x, e) = (x >> e) + (x mod 2^e > 2^(e-1) - 1 + (x < 0) ? 1 : 0).
// - ADD/SUB: both inputs offset by their zero points, shifted left 20 bits,
//   scaled by s_i / (2 max(s1, s2)) (SUB negates the second multiplier),
//   summed, scaled by 2 max(s1, s2) / (2^20 s_out), offset by the output's
//   zero point, clamped to the activation's range. The three multipliers
//   must be below 1.
// - MUL: the product of the offset inputs scaled by s1 s2 / s_out (below 1).
// - The activation's range in codes: q(r) = zero_point + (int)round(r /
//   scale) in float (round half away from zero): RELU [q(0), max], RELU1
//   [q(-1), q(1)], RELU6 [q(0), q(6)], within the type.
// - A comparison of quantised inputs compares float((q - zero_point)) *
//   scale, each input with its own scale and zero point.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace oprig::opsuite::quant {

struct Multiplier {
  int32_t m = 0;
  int32_t left = 0;   // max(shift, 0)
  int32_t right = 0;  // max(-shift, 0), 0..31
};

// false when M is not a finite positive number below 1 (or 0).
inline bool multiplier_below_one(double real, Multiplier* out) {
  *out = {};
  if (!(real > 0.0 && real < 1.0)) return false;
  int shift = 0;
  const double fraction = std::frexp(real, &shift);
  auto fixed = static_cast<int64_t>(std::round(fraction * 2147483648.0));
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) return true;  // flushes to 0
  if (shift > 0) return false;   // M >= 1
  out->m = static_cast<int32_t>(fixed);
  out->right = -shift;
  return true;
}

// Any finite M >= 0 (FULLY_CONNECTED's s_in s_w / s_out may exceed 1):
// false when M is negative, not finite, or 2^31 or more (x << shift would
// leave int32 for every x != 0).
inline bool multiplier(double real, Multiplier* out) {
  *out = {};
  if (real == 0.0) return true;
  if (!std::isfinite(real) || real < 0) return false;
  int shift = 0;
  const double fraction = std::frexp(real, &shift);
  auto fixed = static_cast<int64_t>(std::round(fraction * 2147483648.0));
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) return true;  // flushes to 0
  if (shift > 30) return false;
  out->m = static_cast<int32_t>(fixed);
  out->left = shift > 0 ? shift : 0;
  out->right = shift > 0 ? 0 : -shift;
  return true;
}

inline int32_t srdhm(int32_t a, int32_t b) {
  if (a == std::numeric_limits<int32_t>::min() && b == a) return std::numeric_limits<int32_t>::max();
  const int64_t product = static_cast<int64_t>(a) * b;
  return static_cast<int32_t>((product + (product >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30))) /
                              (int64_t{1} << 31));
}

inline int32_t rdbpot(int32_t x, int32_t exponent) {
  const uint32_t mask = exponent == 0 ? 0u : 0xffffffffu >> (32 - exponent);
  const uint32_t remainder = static_cast<uint32_t>(x) & mask;
  const uint32_t threshold = (mask >> 1) + (x < 0 ? 1u : 0u);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

inline int32_t scale_by(int32_t x, const Multiplier& mul) {
  return rdbpot(srdhm(static_cast<int32_t>(static_cast<uint32_t>(x) << mul.left), mul.m), mul.right);
}

// The 8-bit code range of a tensor type: UINT_8 [0, 255], INT_8 [-128, 127].
struct Range {
  int32_t lo = 0, hi = 255;
};
inline Range type_range(bool is_signed) { return is_signed ? Range{-128, 127} : Range{0, 255}; }

// activation: 0 NONE, 1 RELU, 2 RELU1, 3 RELU6.
inline Range activation_range(uint32_t activation, float scale, int32_t zero_point, Range type) {
  const auto code = [&](float real) { return zero_point + static_cast<int32_t>(std::round(real / scale)); };
  switch (activation) {
    case 1: return {std::max(type.lo, code(0.0f)), type.hi};
    case 2: return {std::max(type.lo, code(-1.0f)), std::min(type.hi, code(1.0f))};
    case 3: return {std::max(type.lo, code(0.0f)), std::min(type.hi, code(6.0f))};
    default: return type;
  }
}

// Everything an element of QuantizedArithmetic needs.
struct ArithmeticParams {
  int32_t in1_offset = 0, in2_offset = 0, out_offset = 0;  // -z1, -z2, z_out
  Multiplier in1, in2, out;  // ADD/SUB: all three (SUB: in2.m negative); MUL: out only
  Range range;               // the activation's clamp in codes
};

inline constexpr int kAddLeftShift = 20;

// operation 0 ADD, 1 SUB, 2 MUL. false: no multiplier below 1 for these scales.
inline bool arithmetic_params(uint32_t operation, float s1, int32_t z1, float s2, int32_t z2, float so, int32_t zo,
                              uint32_t activation, bool is_signed, ArithmeticParams* p) {
  *p = {};
  p->in1_offset = -z1;
  p->in2_offset = -z2;
  p->out_offset = zo;
  p->range = activation_range(activation, so, zo, type_range(is_signed));
  if (operation == 2)
    return multiplier_below_one(static_cast<double>(s1) * static_cast<double>(s2) / static_cast<double>(so), &p->out);
  const double twice_max = 2.0 * std::max(static_cast<double>(s1), static_cast<double>(s2));
  const bool ok = multiplier_below_one(s1 / twice_max, &p->in1) && multiplier_below_one(s2 / twice_max, &p->in2) &&
                  multiplier_below_one(twice_max / ((1 << kAddLeftShift) * static_cast<double>(so)), &p->out);
  // SUB negates the second multiplier itself: srdhm rounds ties toward +inf,
  // so scaling by -m is not the negation of scaling by m.
  if (operation == 1) p->in2.m = -p->in2.m;
  return ok;
}

inline int32_t eval_add(int32_t a, int32_t b, const ArithmeticParams& p) {
  const int32_t sa = scale_by((a + p.in1_offset) * (1 << kAddLeftShift), p.in1);
  const int32_t sb = scale_by((b + p.in2_offset) * (1 << kAddLeftShift), p.in2);
  const int32_t raw = scale_by(sa + sb, p.out) + p.out_offset;
  return std::clamp(raw, p.range.lo, p.range.hi);
}

inline int32_t eval_mul(int32_t a, int32_t b, const ArithmeticParams& p) {
  const int32_t raw = scale_by((a + p.in1_offset) * (b + p.in2_offset), p.out) + p.out_offset;
  return std::clamp(raw, p.range.lo, p.range.hi);
}

}  // namespace oprig::opsuite::quant
