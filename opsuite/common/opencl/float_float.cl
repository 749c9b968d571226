// Float-float arithmetic: a value as the unevaluated sum hi + lo of two
// floats (float2: .x = hi, .y = lo), about 48 bits, for the sums and
// reciprocals of the slice kernels (Softmax, LayerNorm, RMSNorm) on devices
// without fast fp64. The error-free transformations need IEEE + - * without
// reassociation (OpenCL C keeps them unless -cl-fast-relaxed-math or
// -cl-unsafe-math-optimizations is given); the products whose rounding
// error is taken are explicit fma() calls, which OpenCL requires to be fused
// (0 ulp), so contraction of other expressions cannot change them.

// The rounding error e of s = a + b (a + b = s + e exactly, whatever the
// magnitudes: Knuth's TwoSum), for float and float vectors alike; a, b and s
// must be variables (each is read more than once).
#define OPRIG_TWO_SUM_ERROR(a, b, s) (((a) - ((s) - ((s) - (a)))) + ((b) - ((s) - (a))))
// The rounding error of p = a * b (barring underflow), for any float type.
#define OPRIG_TWO_PROD_ERROR(a, b, p) fma((a), (b), -(p))

inline float2 oprig_two_sum(const float a, const float b) {
  const float s = a + b;
  return (float2)(s, OPRIG_TWO_SUM_ERROR(a, b, s));
}

inline float2 oprig_two_prod(const float a, const float b) {
  const float p = a * b;
  return (float2)(p, OPRIG_TWO_PROD_ERROR(a, b, p));
}

// Adds v to an accumulator (s, c): s the running float sum, c the sum of its
// rounding errors (Ogita, Rump and Oishi's Sum2: as accurate as summing in
// twice the precision). The result is not normalised; oprig_ff_add is.
inline float2 oprig_ff_accumulate(const float2 acc, const float v) {
  const float2 s = oprig_two_sum(acc.x, v);
  return (float2)(s.x, acc.y + s.y);
}

// a + b, normalised (|lo| <= ulp(hi) / 2). Symmetric in a and b, bit for
// bit, so every work-item of a butterfly reduction ends with the same value.
inline float2 oprig_ff_add(const float2 a, const float2 b) {
  const float2 s = oprig_two_sum(a.x, b.x);
  return oprig_two_sum(s.x, s.y + (a.y + b.y));
}

// a / n for a count n < 2^24 (exact as a float): the quotient's residual
// a - q n is exact by fma.
inline float2 oprig_ff_div_count(const float2 a, const float n) {
  const float q = a.x / n;
  const float residual = fma(-q, n, a.x) + a.y;
  return oprig_two_sum(q, residual / n);
}

// 1 / a to about 2^-46 for a normal a > 0 (a float): the division's
// estimate (OpenCL allows 2.5 ulp) and one Newton step, whose residual
// 1 - a r is exact by fma.
inline float2 oprig_ff_reciprocal(const float2 a) {
  const float r = 1.0f / a.x;
  const float residual = fma(-a.x, r, 1.0f) - a.y * r;
  return oprig_two_sum(r, r * residual);
}

// 1 / sqrt(v) for v = hi + lo, to about 2^-44 relative: rsqrt's estimate
// (OpenCL allows 2 ulp), a Newton step in float, and one with the residual
// 1 - v r^2 in float-float. v = 0 gives +inf, v = +inf gives 0, NaN stays.
inline float2 oprig_ff_rsqrt(const float2 v) {
  if (v.x == 0.0f) return (float2)(INFINITY, 0.0f);
  if (isinf(v.x)) return (float2)(0.0f, 0.0f);
  float r = rsqrt(v.x);
  r = r * (1.5f - 0.5f * v.x * r * r);
  // t = v r^2 as (v r) r: no intermediate leaves the float range for a normal v.
  const float2 vr = oprig_two_prod(v.x, r);
  const float2 t = oprig_two_prod(vr.x, r);
  const float t_lo = t.y + (vr.y + v.y * r) * r;
  const float residual = (1.0f - t.x) - t_lo;  // 1 - t.x is exact: t.x is within a few ulp of 1
  return oprig_two_sum(r, r * (0.5f * residual));
}

// 2^k for an integer k in [-126, 127], exactly.
inline float oprig_pow2(const int k) { return as_float((uint)(k + 127) << 23); }

// Ordered integers of floats: a < b iff oprig_float_order(a) < oprig_float_order(b)
// (for non-NaN; -0 and +0 are equal), for max reductions that cannot lose a
// NaN to a driver's fmax. oprig_float_of_order is the inverse.
inline int oprig_float_order(const float f) {
  const int bits = as_int(f);
  return bits < 0 ? INT_MIN - bits : bits;
}
inline float oprig_float_of_order(const int order) { return as_float(order < 0 ? INT_MIN - order : order); }
