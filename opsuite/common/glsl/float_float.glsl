// Float-float arithmetic: a value as the unevaluated sum hi + lo of two
// floats (vec2: .x = hi, .y = lo), about 48 bits, for the sums and
// reciprocals of the slice kernels (Softmax, LayerNorm, RMSNorm). The GLSL
// twin of common/opencl/float_float.cl, with two differences Vulkan forces:
// - every error-free step writes `precise` variables, so no driver may
//   reassociate or contract it (SPIR-V NoContraction; without it Mesa's NIR
//   may rewrite (a + b) - b as a);
// - products are split (Veltkamp, Dekker) instead of taking fma's error:
//   Vulkan lets fma() round twice, and lavapipe does (Mesa lowers ffma to a
//   multiply and an add). Vulkan's + - * are correctly rounded.
// Underflow makes the pairs inexact (and drivers that flush denormals lose
// the low parts below 2^-126): the callers keep their values far from it.
#ifndef OPRIG_FLOAT_FLOAT_GLSL
#define OPRIG_FLOAT_FLOAT_GLSL

// a + b = s + e exactly, whatever the magnitudes (Knuth's TwoSum).
vec2 oprig_two_sum(float a, float b) {
  precise float s = a + b;
  precise float b_part = s - a;
  precise float e = (a - (s - b_part)) + (b - b_part);
  return vec2(s, e);
}

// a = hi + lo with hi of 12 significant bits (Veltkamp; |a| < 2^115).
vec2 oprig_split(float a) {
  precise float c = 4097.0 * a;
  precise float hi = c - (c - a);
  precise float lo = a - hi;
  return vec2(hi, lo);
}

// a * b = p + e exactly (Dekker; no underflow, |a|, |b| < 2^115).
vec2 oprig_two_prod(float a, float b) {
  precise float p = a * b;
  vec2 as = oprig_split(a), bs = oprig_split(b);
  precise float e = ((as.x * bs.x - p) + as.x * bs.y + as.y * bs.x) + as.y * bs.y;
  return vec2(p, e);
}

// Adds v to an accumulator (s, c): s the running float sum, c the sum of
// its rounding errors (Ogita, Rump and Oishi's Sum2). Not normalised;
// oprig_ff_add is.
vec2 oprig_ff_accumulate(vec2 acc, float v) {
  vec2 s = oprig_two_sum(acc.x, v);
  precise float lo = acc.y + s.y;
  return vec2(s.x, lo);
}

// a + b, normalised. Symmetric in a and b, bit for bit, so every invocation
// of a butterfly reduction ends with the same value.
vec2 oprig_ff_add(vec2 a, vec2 b) {
  vec2 s = oprig_two_sum(a.x, b.x);
  precise float lo = s.y + (a.y + b.y);
  return oprig_two_sum(s.x, lo);
}

// a / n for a count n < 2^24 (exact as a float).
vec2 oprig_ff_div_count(vec2 a, float n) {
  float q = a.x / n;
  vec2 p = oprig_two_prod(q, n);
  precise float residual = ((a.x - p.x) - p.y) + a.y;  // a.x - p.x is exact: p.x is close to a.x
  return oprig_two_sum(q, residual / n);
}

// 1 / a to about 2^-46 for a normal a > 0: the division's estimate (Vulkan
// allows 2.5 ulp) and one Newton step on the exact residual 1 - a r.
vec2 oprig_ff_reciprocal(vec2 a) {
  float r = 1.0 / a.x;
  vec2 p = oprig_two_prod(a.x, r);
  precise float residual = ((1.0 - p.x) - p.y) - a.y * r;
  return oprig_two_sum(r, r * residual);
}

// 1 / sqrt(v) for v = hi + lo, to about 2^-44 relative: inversesqrt's
// estimate, a Newton step in float, and one with the residual 1 - v r^2 in
// float-float. v = 0 gives +inf, v = +inf gives 0, NaN stays NaN.
vec2 oprig_ff_rsqrt(vec2 v) {
  if (v.x == 0.0) return vec2(uintBitsToFloat(0x7f800000u), 0.0);
  if (floatBitsToUint(v.x) == 0x7f800000u) return vec2(0.0);
  float r = inversesqrt(v.x);
  r = r * (1.5 - 0.5 * v.x * r * r);
  // t = v r^2 as (v r) r: both factors stay near sqrt(v) and 1 / sqrt(v),
  // inside the splits' range for every normal v.
  vec2 vr = oprig_two_prod(v.x, r);
  vec2 t = oprig_two_prod(vr.x, r);
  precise float t_lo = t.y + (vr.y + v.y * r) * r;
  precise float residual = (1.0 - t.x) - t_lo;  // 1 - t.x is exact: t.x is within a few ulp of 1
  return oprig_two_sum(r, r * (0.5 * residual));
}

// 2^k for an integer k in [-126, 127], exactly.
float oprig_pow2(int k) { return uintBitsToFloat(uint(k + 127) << 23); }

// Ordered integers of floats (from their bits, so a driver's max cannot
// lose a NaN): a < b iff order(a) < order(b) for non-NaN, -0 == +0.
int oprig_float_order(uint bits) {
  int b = int(bits);
  return b < 0 ? int(0x80000000u) - b : b;
}
uint oprig_bits_of_order(int order) { return uint(order < 0 ? int(0x80000000u) - order : order); }

#endif
