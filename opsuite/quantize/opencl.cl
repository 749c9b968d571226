// Quantize for the opencl backend:
//   code = clamp(round_half_to_even(fp32(x / scale)) + zero_point, qmin, qmax)
// NaN gives the zero point (saturated). The rounding is the op, so every
// code is exact on any device: no reliance on a correctly rounded division
// (OpenCL's may be 2.5 ulp off), on fp64 or on fp32 denormals.
//
// Fast path: q = x * r with r = RN(1 / scale) from the host (the host takes
// it only for scales in [2^-100, 2^100], so r is normal and a denormal x,
// flushed or not, gives a q that rounds to 0 as x / scale does). q is within
// 2^-22 |q| of the correctly rounded quotient Q = fp32(x / scale) (r and the
// product each round once, Q once: 1.5 2^-23 in all), so when no half-integer
// lies within 2^-21 |q| of q, rint(q) = rint(Q). The other elements (near a
// tie, exact ties included, or 2^22 <= |q| < 2^26, where the zero point could
// still bring a code into range) take the exact path: Q from the operands'
// integer mantissas by long division (26 quotient bits and a sticky bit,
// rounded to 24 bits to nearest even), then rounded to an integer half to
// even, all in 32-bit integer arithmetic. |q| >= 2^26 saturates (|zero point|
// <= 2^24, checked by the host). The host takes the exact path for every
// element when the scale is outside [2^-100, 2^100].
//
// Each work-item turns 4 floats into 4 codes per step (one 16-byte load, one
// 4-byte store) in a grid-stride loop; the last n % 4 go to the first
// work-items.

// rint(fp32(x / s)) for finite x and finite s > 0 (as bits), limited to +-2^30.
inline int exact_quotient_rint(const uint x_bits, const uint s_bits) {
  const uint x_magnitude = x_bits & 0x7fffffffu;
  if (x_magnitude == 0u) return 0;
  // value = mantissa 2^exponent with 24-bit integer mantissas (denormals: exponent field 1, no hidden bit).
  const uint x_field = x_magnitude >> 23, s_field = s_bits >> 23;
  uint xm = x_field == 0u ? x_magnitude : (x_magnitude & 0x7fffffu) | 0x800000u;
  uint sm = s_field == 0u ? s_bits : (s_bits & 0x7fffffu) | 0x800000u;
  int xe = (int)max(x_field, 1u) - 150, se = (int)max(s_field, 1u) - 150;
  // Both mantissas to [2^23, 2^24), then xm / sm to [1, 2).
  const int x_shift = clz(xm) - 8, s_shift = clz(sm) - 8;
  xm <<= x_shift;
  sm <<= s_shift;
  int e = (xe - x_shift) - (se - s_shift);  // x / s = (xm / sm) 2^e
  if (xm < sm) {
    xm <<= 1;
    --e;
  }
  if (e <= -2) return 0;  // |x / s| < 1/2, so Q <= 1/2 and rint(Q) = 0
  const int sign = (int)(x_bits >> 31);
  if (e >= 30) return sign ? -(1 << 30) : (1 << 30);
  // 26 quotient bits: q = floor(xm 2^25 / sm) in [2^25, 2^26), r the remainder.
  uint q = 1u, r = xm - sm;
  for (int bit = 0; bit < 25; ++bit) {
    r <<= 1;
    q <<= 1;
    if (r >= sm) {
      r -= sm;
      q |= 1u;
    }
  }
  // Q = m 2^(e - 23), m the quotient rounded to 24 bits, to nearest even.
  uint m = q >> 2;
  const uint round_bit = (q >> 1) & 1u;
  const uint sticky = (q & 1u) | (r != 0u ? 1u : 0u);
  if (round_bit != 0u && (sticky != 0u || (m & 1u) != 0u)) ++m;
  if (m == 0x1000000u) {
    m = 0x800000u;
    ++e;
  }
  uint n;
  if (e >= 23) {
    n = m << (e - 23);  // e <= 30: below 2^31
  } else {
    const uint shift = (uint)(23 - e);  // 1 .. 24
    n = m >> shift;
    const uint rest = m & ((1u << shift) - 1u), half_way = 1u << (shift - 1u);
    if (rest > half_way || (rest == half_way && (n & 1u) != 0u)) ++n;
  }
  n = min(n, 1u << 30);
  return sign ? -(int)n : (int)n;
}

inline int4 quantize4(const float4 x, const float reciprocal, const uint scale_bits, const int fast,
                      const int zero_point, const int lowest, const int highest) {
  const float4 q = x * reciprocal;
  const float4 a = fabs(q);
  const float4 fraction = a - floor(a);
  const int4 near_tie = islessequal(fabs(fraction - 0.5f), a * 0x1p-21f) | (int4)(fast == 0 ? -1 : 0);
  const int4 big = isgreaterequal(a, (float4)0x1p22f);  // +-Inf too
  const int4 rounded = convert_int4(rint(select(q, (float4)0.0f, big)));
  const uint4 bits = as_uint4(x);
  int4 n = rounded;
  if (any(near_tie | big)) {
    const int nr[4] = {rounded.s0, rounded.s1, rounded.s2, rounded.s3};
    const int ties[4] = {near_tie.s0, near_tie.s1, near_tie.s2, near_tie.s3};
    const int bigs[4] = {big.s0, big.s1, big.s2, big.s3};
    const uint xb[4] = {bits.s0, bits.s1, bits.s2, bits.s3};
    const float qs[4] = {q.s0, q.s1, q.s2, q.s3};
    int out[4];
    for (int lane = 0; lane < 4; ++lane) {
      const uint magnitude = xb[lane] & 0x7fffffffu;
      if (magnitude >= 0x7f800000u || (bigs[lane] && fast != 0 && fabs(qs[lane]) >= 0x1p26f))
        out[lane] = (xb[lane] >> 31) != 0u ? -(1 << 30) : (1 << 30);  // +-Inf (NaN is replaced below), or far out
      else if (ties[lane] || bigs[lane])
        out[lane] = exact_quotient_rint(xb[lane], scale_bits);
      else
        out[lane] = nr[lane];
    }
    n = (int4)(out[0], out[1], out[2], out[3]);
  }
  // NaN: the zero point (saturated, as the cpu kernel does for one outside the code range).
  return clamp(select(n, (int4)0, isnan(x)) + zero_point, lowest, highest);
}

#define OPRIG_QUANTIZE_KERNEL(name, code_type, convert4)                                                        \
  kernel void name(global const float* restrict x, global code_type* restrict y, const float reciprocal,        \
                   const uint scale_bits, const int fast, const int zero_point, const int lowest,               \
                   const int highest, const ulong n) {                                                          \
    const ulong vectors = n / 4;                                                                                \
    const ulong stride = get_global_size(0);                                                                    \
    for (ulong v = get_global_id(0); v < vectors; v += stride)                                                  \
      vstore4(convert4(quantize4(vload4(v, x), reciprocal, scale_bits, fast, zero_point, lowest, highest)), v, \
              y);                                                                                               \
    const ulong i = vectors * 4 + get_global_id(0);                                                             \
    if (i < n)                                                                                                  \
      y[i] = (code_type)quantize4((float4)x[i], reciprocal, scale_bits, fast, zero_point, lowest, highest).s0; \
  }

OPRIG_QUANTIZE_KERNEL(quantize_u8, uchar, convert_uchar4)
OPRIG_QUANTIZE_KERNEL(quantize_i8, char, convert_char4)
