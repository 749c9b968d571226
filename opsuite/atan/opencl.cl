// Atan for the opencl backend: y = atan(x + offset), x + offset in fp32.
//
// Not the built-in atan: on PoCL's CPU device it is a scalar library call and
// about 50x slower than this. Instead:
//   reduction (branch-free, one division per element), with a = |v|:
//     a > tan(3pi/8):  atan a = pi/2 + atan(-1/a)
//     a > tan(pi/8):   atan a = pi/4 + atan((a-1)/(a+1))
//     otherwise:       atan a = atan(a / 1)
//   so t = num/den with |t| <= tan(pi/8), then atan t = t + t*z*P(z), z = t*t,
//   P of degree 4: coefficients fitted for this file (weighted least squares
//   with Lawson iterations towards minimax on z in [0, tan^2(pi/8)]); their
//   relative error there is 2.3e-9 (0.04 fp32 ulp) once rounded to float.
//   pi/2 and pi/4 are added as hi + lo float pairs so the constants' own
//   rounding does not eat the 3 ulp budget; the sign comes back with copysign.
// Special values fall out of the arithmetic: NaN stays NaN (all compares are
// false, t = NaN/1); +-Inf gives t = -1/Inf = -0 and so +-pi/2 rounded to fp32;
// a denormal d takes the small path, z underflows to 0 and the result is d
// exactly (the program is never built with -cl-denorms-are-zero).
//
// Each work-item handles OPRIG_ATAN_VEC consecutive elements with vector
// loads and stores (the host passes -D OPRIG_ATAN_VEC=4, 8 or 16); the last
// work-item of a tensor whose size is not a multiple handles the tail through
// the same vector code on a zero-padded register.

#ifndef OPRIG_ATAN_VEC
#define OPRIG_ATAN_VEC 8
#endif

#define OPRIG_CAT_(a, b) a##b
#define OPRIG_CAT(a, b) OPRIG_CAT_(a, b)
#define floatN OPRIG_CAT(float, OPRIG_ATAN_VEC)
#define intN OPRIG_CAT(int, OPRIG_ATAN_VEC)
#define vloadN OPRIG_CAT(vload, OPRIG_ATAN_VEC)
#define vstoreN OPRIG_CAT(vstore, OPRIG_ATAN_VEC)
#define vload_halfN OPRIG_CAT(vload_half, OPRIG_ATAN_VEC)
#define vstore_halfN_rte OPRIG_CAT(OPRIG_CAT(vstore_half, OPRIG_ATAN_VEC), _rte)

#define TAN_3PI_8 2.41421356237309504880f
#define TAN_PI_8 0.41421356237309504880f
#define PI_2_HI 1.57079637050628662109375f
#define PI_2_LO -4.37113900018624283e-8f
#define PI_4_HI 0.785398185253143310546875f
#define PI_4_LO -2.18556950009312142e-8f
#define P0 -0x1.55554ap-2f
#define P1 0x1.9991aep-3f
#define P2 -0x1.23b6cap-3f
#define P3 0x1.b20318p-4f
#define P4 -0x1.f25b1ap-5f

static floatN atan_poly(floatN v) {
  const floatN a = fabs(v);
  const intN big = isgreater(a, (floatN)TAN_3PI_8);
  const intN mid = isgreater(a, (floatN)TAN_PI_8) & ~big;

  floatN num = select(a, a - 1.0f, mid);
  num = select(num, (floatN)-1.0f, big);
  floatN den = select((floatN)1.0f, a + 1.0f, mid);
  den = select(den, a, big);
  floatN hi = select((floatN)0.0f, (floatN)PI_4_HI, mid);
  hi = select(hi, (floatN)PI_2_HI, big);
  floatN lo = select((floatN)0.0f, (floatN)PI_4_LO, mid);
  lo = select(lo, (floatN)PI_2_LO, big);

  const floatN t = num / den;
  const floatN z = t * t;
  floatN p = fma(z, (floatN)P4, (floatN)P3);
  p = fma(z, p, (floatN)P2);
  p = fma(z, p, (floatN)P1);
  p = fma(z, p, (floatN)P0);
  const floatN r = hi + (t + fma(t * z, p, lo));
  return copysign(r, v);
}

kernel void atan_f32(global const float* restrict x, global float* restrict y,
                     const float offset, const ulong n) {
  const size_t item = get_global_id(0);
  const ulong first = (ulong)item * OPRIG_ATAN_VEC;
  if (first + OPRIG_ATAN_VEC <= n) {
    vstoreN(atan_poly(vloadN(item, x) + offset), item, y);
    return;
  }
  floatN v = (floatN)0.0f;
  float* lanes = (float*)&v;
  for (ulong i = first; i < n; ++i) lanes[i - first] = x[i] + offset;
  v = atan_poly(v);
  for (ulong i = first; i < n; ++i) y[i] = lanes[i - first];
}

// fp16 storage, fp32 arithmetic: vload_half/vstore_half are core OpenCL, so
// this needs no cl_khr_fp16. The result is rounded to fp16 once (to nearest even).
kernel void atan_f16(global const half* restrict x, global half* restrict y,
                     const float offset, const ulong n) {
  const size_t item = get_global_id(0);
  const ulong first = (ulong)item * OPRIG_ATAN_VEC;
  if (first + OPRIG_ATAN_VEC <= n) {
    vstore_halfN_rte(atan_poly(vload_halfN(item, x) + offset), item, y);
    return;
  }
  floatN v = (floatN)0.0f;
  float* lanes = (float*)&v;
  for (ulong i = first; i < n; ++i) lanes[i - first] = vload_half(i, x) + offset;
  v = atan_poly(v);
  for (ulong i = first; i < n; ++i) vstore_half_rte(lanes[i - first], i, y);
}
