// pow(x, y) for fp32 operands (as bits), rounded once to fp32 (as bits):
// vulkan.comp's POW. GLSL's pow() is exp2(y log2 x) in the device's fp32
// with no useful bound (and none at all for x <= 0), and GLSL has no double
// transcendentals, so this computes 2^(y log2 |x|) in double with its own
// series:
//   log2 |x| = e + 2 atanh(s) / ln 2, |x| = m 2^e, m in [sqrt 1/2, sqrt 2),
//   s = (m - 1) / (m + 1) (|s| <= 0.172; m - 1 is exact), the series
//   s (1 + s^2/3 + ... + s^20/21) truncated below 2^-50 relative; 1 / (m + 1)
//   from a float reciprocal and two Newton steps (no double division, whose
//   accuracy Vulkan does not promise);
//   2^t = 2^k e^(f ln 2), k = roundEven(t), |f| <= 1/2 (t - k is exact),
//   Taylor to w^12/12! (below 2^-52 for |w| <= 0.347), then exact scaling.
// With log2 |x| within about 2^-50 relative and |t| <= 151 where the result
// is not 0 or Inf, the double result is within about 2^-42 of x^y: its
// rounding to fp32 (fp32_exact.glsl's narrow(), denormals included) is the
// correctly rounded result unless x^y lies within 2^-42 of a midpoint, and
// then one ulp off at most (the plan allows 2). Special cases as C's pow
// (std::pow, the reference): pow(x, +-0) = 1 and pow(1, y) = 1 even for NaN;
// a negative finite x to a non-integral y is NaN; odd integral y keep the
// sign of x (+-0, +-Inf); pow(-1, +-Inf) = 1; |x| < 1 or > 1 to +-Inf give
// 0 or Inf. Needs shaderFloat64 and fp32_exact.glsl.
#ifndef OPRIG_POW_FP64_GLSL
#define OPRIG_POW_FP64_GLSL

const uint kOne = 0x3f800000u;
const uint kInfBits = 0x7f800000u;
const uint kNaNBits = 0x7fc00000u;

// What y (its magnitude's bits) is: 0 not an integer, 1 an odd integer, 2 an even one (or 0).
uint integer_class(uint y_magnitude) {
  if (y_magnitude == 0u) return 2u;
  int e = int(y_magnitude >> 23) - 127;
  if (e < 0) return 0u;
  if (e >= 24) return 2u;  // every float from 2^24 on is even
  uint mantissa = (y_magnitude & 0x7fffffu) | 0x800000u;
  uint shift = uint(23 - e);
  if ((mantissa & ((1u << shift) - 1u)) != 0u) return 0u;
  return ((mantissa >> shift) & 1u) != 0u ? 1u : 2u;
}

// log2(a) for a positive normal double (every fp32 magnitude widened is one).
double log2_fp64(double a) {
  uvec2 words = unpackDouble2x32(a);
  int e = int((words.y >> 20) & 0x7ffu) - 1023;
  double m = packDouble2x32(uvec2(words.x, (words.y & 0x000fffffu) | 0x3ff00000u));  // [1, 2)
  if (m > 1.4142135623730951LF) {
    m *= 0.5LF;  // exact
    e += 1;
  }
  double b = m + 1.0LF;
  double d = double(1.0 / float(b));  // about 2^-22 relative
  d = d + d * (1.0LF - b * d);       // 2^-44
  d = d + d * (1.0LF - b * d);       // within a few double ulps
  double s = (m - 1.0LF) * d;
  double z = s * s;
  double series = 0.047619047619047616LF;  // 1/21, then 1/19 .. 1/3, 1
  series = series * z + 0.05263157894736842LF;
  series = series * z + 0.058823529411764705LF;
  series = series * z + 0.06666666666666667LF;
  series = series * z + 0.07692307692307693LF;
  series = series * z + 0.09090909090909091LF;
  series = series * z + 0.1111111111111111LF;
  series = series * z + 0.14285714285714285LF;
  series = series * z + 0.2LF;
  series = series * z + 0.3333333333333333LF;
  series = series * z + 1.0LF;
  // 2 s series / ln 2 = s series 2 log2(e)
  return double(e) + s * series * 2.8853900817779268LF;
}

// 2^t for t in [-152, 128] (a normal double).
double exp2_fp64(double t) {
  double k = roundEven(t);
  double w = (t - k) * 0.6931471805599453LF;  // t - k exact, |w| <= 0.347
  double p = 2.08767569878681e-09LF;         // 1/12!, then 1/11! .. 1/1!, 1
  p = p * w + 2.505210838544172e-08LF;
  p = p * w + 2.755731922398589e-07LF;
  p = p * w + 2.7557319223985893e-06LF;
  p = p * w + 2.48015873015873e-05LF;
  p = p * w + 0.0001984126984126984LF;
  p = p * w + 0.001388888888888889LF;
  p = p * w + 0.008333333333333333LF;
  p = p * w + 0.041666666666666664LF;
  p = p * w + 0.16666666666666666LF;
  p = p * w + 0.5LF;
  p = p * w + 1.0LF;
  p = p * w + 1.0LF;
  return ldexp(p, int(k));
}

uint pow_bits(uint x, uint y) {
  uint ax = x & kAbs, ay = y & kAbs;
  if (ay == 0u || x == kOne) return kOne;
  if (ax > kInfBits || ay > kInfBits) return kNaNBits;
  bool x_negative = (x & kSign) != 0u, y_negative = (y & kSign) != 0u;
  if (ay == kInfBits) {
    if (ax == kOne) return kOne;  // (-1)^+-Inf
    return ((ax > kOne) != y_negative) ? kInfBits : 0u;
  }
  uint y_class = integer_class(ay);
  uint odd_sign = (x_negative && y_class == 1u) ? kSign : 0u;
  if (ax == 0u) return (y_negative ? kInfBits : 0u) | odd_sign;         // +-0
  if (ax == kInfBits) return (y_negative ? 0u : kInfBits) | odd_sign;  // +-Inf
  if (x_negative && y_class == 0u) return kNaNBits;
  double t = widen(y) * log2_fp64(widen(ax));
  if (t >= 128.0LF) return kInfBits | odd_sign;  // at least 2^128: Inf
  if (t < -152.0LF) return odd_sign;            // below 2^-152: rounds to 0
  return narrow(exp2_fp64(t)) | odd_sign;
}

#endif
