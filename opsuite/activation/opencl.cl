// Activation for the opencl backend: the eight functions of the spec on
// FLOAT_32, FLOAT_16 (vload_half/vstore_half_rte: fp32 arithmetic, one
// rounding) and quantised UINT_8 (a 256-entry table per work-group). The
// host puts activation_coefficients.hpp in front of this text.
//
// The formulas are the cpu kernel's (activation_math.inl: Cody-Waite exp
// with the same polynomial, tanh's small-argument polynomial, GELU_TANH's
// exponent and GELU_ERF's x^2 as exact float pairs, the Mills-ratio tables),
// on float4 with OpenCL's fma (one rounding, as the spec requires). The
// division is correctly rounded where the device can (the host builds with
// -cl-fp32-correctly-rounded-divide-sqrt). Where the cpu recomputes rare
// lanes in double, this file stays in fp32 and needs neither fp64 nor fp32
// denormals from the device:
//   - tiny inputs (|x| < 2^-60, denormals included): RELU and RELU6 work on
//     the bits; TANH gives x (|x| < 2^-12); HARD_SWISH, GELU_ERF, GELU_TANH
//     and SILU give x / 2 rounded to nearest even, from the bits (what the
//     fp64 reference rounds to); SIGMOID's 1/2 needs nothing;
//   - tails whose results fall towards or into the denormal range (SIGMOID
//     and SILU below -87, GELU_TANH below -10, GELU_ERF below -13): the
//     result is computed times 2^64 (normal), then scaled down with one
//     rounding in integers (`descale`). There sigmoid(x) = e^x (1 - e^x) is
//     e^x to within 2^-125, GELU_TANH is x e^-v (e^-v < 2^-125 beside 1),
//     GELU_ERF is x e^(-a^2/2) M(a) with M from the tables below a = 14 and
//     from its asymptotic series 1/(a sqrt(2 pi)) (1 - a^-2 + 3 a^-4 - 15 a^-6
//     + 105 a^-8) above (relative error below 2^-27 there, where results are
//     denormals of a few bits);
//   - NaN gives NaN (the input), +-Inf the limits.
// Each work-item handles 4 elements per step of a grid-stride loop; the last
// n % 4 go to the first work-items. One kernel per mode and type
// (activation_<type>_<mode>), so no branch on the mode at run time.

#pragma OPENCL FP_CONTRACT OFF

#define V float4
#define VI int4
#define VU uint4

// ---- the lane operations of activation_math.inl ----------------------------

inline V fms(V a, V b, V c) { return fma(a, b, -c); }
inline V fnma(V a, V b, V c) { return fma(-a, b, c); }
// x86 min/max semantics as on the cpu: a NaN x stays NaN.
inline V limit_above(V x, float limit) { return select(x, (V)limit, isless((V)limit, x)); }
inline V limit_below(V x, float limit) { return select(x, (V)limit, isgreater((V)limit, x)); }
// p 2^n for integral n in [-126, 127] (other n only in lanes whose result is discarded).
inline V scale_by_pow2(V p, V n) { return p * as_float4((convert_int4_sat(n) + 127) << 23); }
// Entry `index` (0..6) of a table of 7, lane by lane, by the index's bits:
// selects instead of a per-lane gather from constant memory, which GPUs
// serialise over distinct addresses.
inline V lookup7(constant const float* table, VI index) {
  const VI bit0 = (index & 1) != 0, bit1 = (index & 2) != 0, bit2 = (index & 4) != 0;
  const V low = select(select((V)table[0], (V)table[1], bit0), select((V)table[2], (V)table[3], bit0), bit1);
  const V high = select(select((V)table[4], (V)table[5], bit0), (V)table[6], bit1);
  return select(low, high, bit2);
}

// ---- exp, as the cpu ---------------------------------------------------------

inline V exp_polynomial(V n, V r) {
  V q = fma((V)kExpQ[4], r, (V)kExpQ[3]);
  q = fma(q, r, (V)kExpQ[2]);
  q = fma(q, r, (V)kExpQ[1]);
  q = fma(q, r, (V)kExpQ[0]);
  return scale_by_pow2(fma(fma(q, r, (V)1.0f), r, (V)1.0f), n);
}

#define LOG2E 1.44269504f
#define LN2_HI 0.693145751953125f
#define LN2_LO 1.42860677e-06f
#define ROUNDING_SHIFT 12582912.0f  // 1.5 2^23

inline V nearest_multiple_of_ln2(V x) { return fma(x, (V)LOG2E, (V)ROUNDING_SHIFT) - ROUNDING_SHIFT; }

inline V exp_in_range(V x) {
  const V n = nearest_multiple_of_ln2(x);
  return exp_polynomial(n, fnma(n, (V)LN2_LO, fnma(n, (V)LN2_HI, x)));
}

inline V exp_hi_lo(V hi, V lo) {
  const V n = nearest_multiple_of_ln2(hi);
  return exp_polynomial(n, fnma(n, (V)LN2_LO, fnma(n, (V)LN2_HI, hi)) + lo);
}

inline V exp_limited(V x) { return exp_in_range(limit_above(limit_below(x, -87.0f), 88.0f)); }

// e^(hi + lo) 2^64 for hi in [-130, -60]: normal, the scale of the tails.
inline V exp_scaled(V hi, V lo) {
  const V n = nearest_multiple_of_ln2(hi);
  return exp_polynomial(n + 64.0f, fnma(n, (V)LN2_LO, fnma(n, (V)LN2_HI, hi)) + lo);
}

// ---- exact results from bits -------------------------------------------------

// RN(v 2^-64) with one rounding, without a floating-point operation on a
// denormal: v 2^-64 is normal when |v| >= 2^-62 (the exponent field minus
// 64); below, the denormal's mantissa is |v| 2^85 rounded to nearest even
// (|v| 2^85 < 2^23 is exact).
inline V descale(V v) {
  const VU bits = as_uint4(v);
  const VU magnitude = bits & 0x7fffffffu;
  const VU normal = bits - (64u << 23);
  const VU denormal = convert_uint4_sat(rint(as_float4(magnitude) * 0x1p85f)) | (bits & 0x80000000u);
  return as_float4(select(denormal, normal, magnitude >= 0x20800000u));  // 2^-62
}

// RN(x / 2) from the bits: the exponent field minus one, or for fields 0 and
// 1 (the value is the bits times 2^-149) the magnitude halved to nearest even.
inline V half_of(V x) {
  const VU bits = as_uint4(x);
  const VU magnitude = bits & 0x7fffffffu;
  const VU halved = (magnitude >> 1) + (magnitude & (magnitude >> 1) & 1u);
  return as_float4(select(halved | (bits & 0x80000000u), bits - (1u << 23), magnitude >= 0x01000000u));
}

inline VI tiny(V x) { return as_int4(as_uint4(x) & 0x7fffffffu) < 0x21800000; }  // |x| < 2^-60

// ---- the eight functions --------------------------------------------------------

// max(x, 0) and min(max(x, 0), 6) on the bits: -0 and negative inputs give +0,
// NaN stays NaN, denormals pass exactly.
inline V relu(V x) {
  const VU bits = as_uint4(x);
  const VI negative = as_int4(bits) < 0 && (bits & 0x7fffffffu) <= 0x7f800000u;
  return as_float4(select(bits, (VU)0u, negative));
}

inline V relu6(V x) {
  const VU bits = as_uint4(relu(x));
  return as_float4(select(bits, (VU)0x40c00000u, bits > 0x40c00000u && bits <= 0x7f800000u));  // 6.0f
}

inline V sigmoid(V x) {
  V y = 1.0f / (1.0f + exp_limited(-x));
  const VI rare = isless(x, (V)-87.0f);
  if (any(rare)) y = select(y, descale(exp_scaled(fmax(x, -110.0f), (V)0.0f)), rare);
  return y;
}

inline V silu(V x) {
  V y = x / (1.0f + exp_limited(-x));
  const VI rare = isless(x, (V)-87.0f);
  if (any(rare)) {
    const V xl = fmax(x, -110.0f);
    y = select(y, descale(xl * exp_scaled(xl, (V)0.0f)), rare);
  }
  return select(y, half_of(x), tiny(x));
}

inline V tanh_(V x) {
  const V s = x * x;
  V p = fma((V)kTanhP[4], s, (V)kTanhP[3]);
  p = fma(p, s, (V)kTanhP[2]);
  p = fma(p, s, (V)kTanhP[1]);
  p = fma(p, s, (V)kTanhP[0]);
  const V small = fma(x * s, p, x);
  const V a = fabs(x);
  const V e = exp_limited(a + a);
  const V large = copysign(1.0f - 2.0f / (e + 1.0f), x);
  const V y = select(large, small, isless(a, (V)0.5625f));
  return select(y, x, isless(a, (V)0x1p-12f));
}

// x / (1 + e^v), v = -x g as a float pair (see activation_math.inl), with x
// limited to [-11.5, 10]: above 10 the result is x, below -11.5 it is below
// 2^-150. Below -10 e^v would overflow: x e^-v, scaled.
inline V gelu_tanh(V x) {
  const float c1_hi = 1.595703125f, c1_lo = 6.59966026e-05f;  // 2 sqrt(2 / pi), c1_hi = 3268 / 2048
  const float c3_hi = 0.0713548139f, c3_lo = 2.39883247e-09f;  // 2 sqrt(2 / pi) 0.044715
  const V xc = limit_below(limit_above(x, 10.0f), -11.5f);
  const V x2 = xc * xc;
  const V x2_err = fms(xc, xc, x2);
  const V g = fma((V)c3_hi, x2, (V)c1_hi);
  const V g_fma_err = fms((V)c3_hi, x2, g - c1_hi);
  const V g_err = fma((V)c3_lo, x2, fma((V)c3_hi, x2_err, g_fma_err)) + c1_lo;
  const V w = -xc;
  const V v = w * g;
  const V v_err = fma(w, g_err, fms(w, g, v));
  V y = x / (1.0f + exp_hi_lo(v, v_err));
  const VI rare = isless(x, (V)-10.0f);
  if (any(rare)) y = select(y, descale(xc * exp_scaled(-v, -v_err)), rare);
  return select(y, half_of(x), tiny(x));
}

// x Phi(x), Phi(-a) = e^(-a^2/2) M(a) (see activation_math.inl). Beyond 13
// the result is x; below -13, scaled, with a limited to 15 (the result is
// below 2^-150 from there).
inline V gelu_erf(V x) {
  const V a = fmin(fabs(x), 15.0f);  // NaN: 15, replaced below
  const V a2 = a * a;
  const V a2_err = fms(a, a, a2);
  const VI interval = min(convert_int4(a * 0.5f), 6);
  const V d = a - fma(convert_float4(interval), (V)2.0f, (V)1.0f);
  V m = lookup7(kMills[kMillsDegree], interval);
  for (int j = kMillsDegree - 1; j >= 0; --j) m = fma(m, d, lookup7(kMills[j], interval));
  const VI rare = isless(x, (V)-13.0f);
  const V gauss = exp_hi_lo(fmax(a2 * -0.5f, (V)-87.0f), a2_err * -0.5f);
  const V tail = gauss * m;  // Phi(-a)
  V y = select(fnma(x, tail, x), x * tail, isless(x, (V)0.0f));
  y = select(y, x, isgreater(x, (V)13.0f));
  if (any(rare)) {
    const V r = 1.0f / (a * a);
    const V series = fma(fma(fma(fma((V)105.0f, r, (V)-15.0f), r, (V)3.0f), r, (V)-1.0f), r, (V)1.0f) *
                     (0.398942280f / a);  // 1 / sqrt(2 pi)
    const V mills = select(m, series, isgreaterequal(a, (V)14.0f));
    const V scaled = -a * (exp_scaled(a2 * -0.5f, a2_err * -0.5f) * mills);
    y = select(y, descale(scaled), rare);
  }
  return select(y, half_of(x), tiny(x));
}

inline V hard_swish(V x) {
  const V y = x * (x + 3.0f) / 6.0f;
  const V clipped = select(select(y, x, isgreaterequal(x, (V)3.0f)), (V)0.0f, islessequal(x, (V)-3.0f));
  return select(clipped, half_of(x), tiny(x));
}

// NaN in, NaN out (the formulas' tails would not keep it).
#define OPRIG_KEEP_NAN(f) \
  inline V f##_nan(V x) { return select(f(x), x, isnan(x)); }
OPRIG_KEEP_NAN(sigmoid)
OPRIG_KEEP_NAN(tanh_)
OPRIG_KEEP_NAN(gelu_erf)
OPRIG_KEEP_NAN(gelu_tanh)
OPRIG_KEEP_NAN(silu)
OPRIG_KEEP_NAN(hard_swish)

// ---- kernels ------------------------------------------------------------------------

// FLOAT_32 and FLOAT_16: 4 elements per work-item and step.
#define OPRIG_ACTIVATION_FLOAT_KERNELS(name, f)                                                         \
  kernel void activation_f32_##name(global const float* restrict x, global float* restrict y,           \
                                    const ulong n) {                                                    \
    const ulong vectors = n / 4, stride = get_global_size(0);                                           \
    for (ulong v = get_global_id(0); v < vectors; v += stride) vstore4(f(vload4(v, x)), v, y);          \
    const ulong i = vectors * 4 + get_global_id(0);                                                     \
    if (i < n) y[i] = f((V)x[i]).s0;                                                                    \
  }                                                                                                     \
  kernel void activation_f16_##name(global const half* restrict x, global half* restrict y,             \
                                    const ulong n) {                                                    \
    const ulong vectors = n / 4, stride = get_global_size(0);                                           \
    for (ulong v = get_global_id(0); v < vectors; v += stride)                                          \
      vstore_half4_rte(f(vload_half4(v, x)), v, y);                                                     \
    const ulong i = vectors * 4 + get_global_id(0);                                                     \
    if (i < n) vstore_half_rte(f((V)vload_half(i, x)).s0, i, y);                                        \
  }                                                                                                     \
  kernel void activation_u8_##name(global const uchar* restrict x, global uchar* restrict y,             \
                                   const ulong n, const int in_zero_point, const float in_scale,        \
                                   const int out_zero_point, const float out_inverse_scale,             \
                                   local uchar* table) {                                                \
    const size_t lid = get_local_id(0), lsize = get_local_size(0);                                      \
    for (size_t c = 4 * lid; c < 256; c += 4 * lsize) {                                                 \
      const V real = convert_float4((int4)((int)c, (int)c + 1, (int)c + 2, (int)c + 3) - in_zero_point) * in_scale;        \
      vstore4(requantize(f(real), out_zero_point, out_inverse_scale), 0, table + c);                    \
    }                                                                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                       \
    const ulong vectors = n / 4, stride = get_global_size(0);                                           \
    for (ulong v = get_global_id(0); v < vectors; v += stride) {                                        \
      const uchar4 codes = vload4(v, x);                                                                \
      vstore4((uchar4)(table[codes.s0], table[codes.s1], table[codes.s2], table[codes.s3]), v, y);      \
    }                                                                                                   \
    const ulong i = vectors * 4 + get_global_id(0);                                                     \
    if (i < n) y[i] = table[x[i]];                                                                      \
  }

// The code of a real result: round half away from zero (the harness's rule)
// of y / scale, plus the zero point, saturated to [0, 255].
inline uchar4 requantize(V y, int zero_point, float inverse_scale) {
  const V code = round(y * inverse_scale) + (float)zero_point;
  return convert_uchar4_sat(clamp(code, 0.0f, 255.0f));
}

OPRIG_ACTIVATION_FLOAT_KERNELS(relu, relu)
OPRIG_ACTIVATION_FLOAT_KERNELS(relu6, relu6)
OPRIG_ACTIVATION_FLOAT_KERNELS(sigmoid, sigmoid_nan)
OPRIG_ACTIVATION_FLOAT_KERNELS(tanh, tanh__nan)
OPRIG_ACTIVATION_FLOAT_KERNELS(gelu_erf, gelu_erf_nan)
OPRIG_ACTIVATION_FLOAT_KERNELS(gelu_tanh, gelu_tanh_nan)
OPRIG_ACTIVATION_FLOAT_KERNELS(silu, silu_nan)
OPRIG_ACTIVATION_FLOAT_KERNELS(hard_swish, hard_swish_nan)
