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

#define SATURATED (1 << 30)

// rint(fp32(x / s)) for finite x and finite s > 0 (x as bits, 4 lanes),
// limited to +-2^30. Straight-line vector code (selects, a loop of fixed
// length): a branch per lane would keep PoCL from vectorising across
// work-items, and this runs only where a lane needs it.
inline int4 exact_quotient_rint(const uint4 x_bits, const uint s_bits) {
  const uint4 x_magnitude = x_bits & 0x7fffffffu;
  // value = mantissa 2^exponent with 24-bit integer mantissas (denormals: exponent field 1, no hidden bit).
  const uint4 x_field = x_magnitude >> 23;
  const uint s_field = s_bits >> 23;
  uint4 xm = select((x_magnitude & 0x7fffffu) | 0x800000u, x_magnitude, x_field == 0u);
  uint sm = s_field == 0u ? s_bits : (s_bits & 0x7fffffu) | 0x800000u;
  // Both mantissas to [2^23, 2^24), then xm / sm to [1, 2) (a zero x gives garbage, replaced below).
  const int4 x_shift = as_int4(clz(xm)) - 8;
  const int s_shift = (int)clz(sm) - 8;
  xm <<= as_uint4(x_shift);
  sm <<= s_shift;
  int4 e = (as_int4(max(x_field, 1u)) - 150 - x_shift) - ((int)max(s_field, 1u) - 150 - s_shift);
  const int4 below = xm < sm;  // -1 where true
  xm = select(xm, xm << 1, below);
  e += below;
  // 26 quotient bits: q = floor(xm 2^25 / sm) in [2^25, 2^26), r the remainder.
  uint4 q = 1u, r = xm - sm;
  for (int bit = 0; bit < 25; ++bit) {
    r <<= 1;
    const int4 fits = r >= sm;
    r -= select((uint4)0u, (uint4)sm, fits);
    q = (q << 1) | (as_uint4(fits) & 1u);
  }
  // Q = m 2^(e - 23), m the quotient rounded to 24 bits, to nearest even.
  uint4 m = q >> 2;
  const int4 round_up = ((q & 2u) != 0u) & (((q & 1u) != 0u) | (r != 0u) | ((m & 1u) != 0u));
  m -= as_uint4(round_up);  // + 1 where set
  const int4 carry = m == 0x1000000u;
  m = select(m, (uint4)0x800000u, carry);
  e -= carry;
  // rint(Q): shifted left for e >= 23 (e <= 30: below 2^31), else the
  // fraction rounded half to even (shift 1 .. 24; OpenCL shifts wrap, so
  // the lanes that do not use a shift stay defined).
  const uint4 shift = as_uint4(23 - e);
  const uint4 low = m >> shift;
  const uint4 rest = m & (((uint4)1u << shift) - 1u), half_way = (uint4)1u << (shift - 1u);
  const int4 up = (rest > half_way) | ((rest == half_way) & ((low & 1u) != 0u));
  uint4 n = select(low - as_uint4(up), m << as_uint4(e - 23), e >= 23);
  n = min(n, (uint4)SATURATED);
  n = select(n, (uint4)SATURATED, e >= 30);
  n = select(n, (uint4)0u, (e <= -2) | (x_magnitude == 0u));  // |x / s| < 1/2: rint(Q) = 0
  return select(as_int4(n), -as_int4(n), as_int4(x_bits) < 0);
}

inline int4 quantize4(const float4 x, const float reciprocal, const uint scale_bits, const int fast,
                      const int zero_point, const int lowest, const int highest) {
  const float4 q = x * reciprocal;
  const float4 a = fabs(q);
  const float4 fraction = a - floor(a);
  const int4 near_tie = islessequal(fabs(fraction - 0.5f), a * 0x1p-21f) | (int4)(fast == 0 ? -1 : 0);
  const int4 big = isgreaterequal(a, (float4)0x1p22f);  // +-Inf too
  int4 n = convert_int4(rint(select(q, (float4)0.0f, big)));
  if (any(near_tie | big)) {
    const uint4 bits = as_uint4(x);
    // +-Inf (and NaN, replaced below), or beyond 2^26 on the fast path: saturated.
    const int4 far = ((bits & 0x7fffffffu) >= 0x7f800000u) | (big & (int4)(fast != 0 ? -1 : 0) & isgreaterequal(a, (float4)0x1p26f));
    const int4 exact = exact_quotient_rint(bits, scale_bits);
    n = select(n, exact, near_tie | big);
    n = select(n, select((int4)SATURATED, (int4)-SATURATED, as_int4(bits) < 0), far);
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
