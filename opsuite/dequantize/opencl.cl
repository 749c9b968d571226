// Dequantize for the opencl backend: y = fp32(code - zero_point) * scale,
// the cpu kernel's formula. code - zero_point is exact in int and its
// conversion to float exact (|zero point| <= 2^24 - 256, checked by the
// host), so the one product is the only rounding: correctly rounded.
//
// Denormals: with a normal scale every non-zero product is at least the
// scale, so normal (or +-Inf); nothing depends on the device keeping fp32
// denormals. A subnormal scale m 2^-149 (m < 2^23, the host passes m as
// `mantissa`) is applied in integers and powers of two instead: p =
// RN(d m) is computed in fp32 (normal, one rounding), and d m 2^-149 rounded
// once to fp32 is p 2^-149 when p >= 2^23 (a normal result: the same 24
// bits) and p itself as the denormal's integer mantissa when p < 2^23 (then
// p = d m exactly).
//
// Each work-item converts 4 codes per step (one 4-byte load, one 16-byte
// store) in a grid-stride loop; the last n % 4 codes go to the first
// work-items.

inline float4 dequantize4(const int4 codes, const int zero_point, const float scale, const int subnormal,
                          const float mantissa) {
  const float4 d = convert_float4(codes - zero_point);
  if (!subnormal) return d * scale;
  const float4 p = d * mantissa;
  const uint4 bits = as_uint4(p);
  const uint4 magnitude = bits & 0x7fffffffu;
  const uint4 normal = bits - (149u << 23);
  const uint4 denormal = convert_uint4(fabs(p)) | (bits & 0x80000000u);
  return as_float4(select(normal, denormal, magnitude < 0x4b000000u));  // |p| < 2^23
}

#define OPRIG_DEQUANTIZE_KERNEL(name, code_type, convert4)                                                       \
  kernel void name(global const code_type* restrict x, global float* restrict y, const int zero_point,          \
                   const float scale, const int subnormal, const float mantissa, const ulong n) {                \
    const ulong vectors = n / 4;                                                                                 \
    const ulong stride = get_global_size(0);                                                                     \
    for (ulong v = get_global_id(0); v < vectors; v += stride)                                                   \
      vstore4(dequantize4(convert4(vload4(v, x)), zero_point, scale, subnormal, mantissa), v, y);                \
    const ulong i = vectors * 4 + get_global_id(0);                                                              \
    if (i < n) y[i] = dequantize4((int4)((int)x[i]), zero_point, scale, subnormal, mantissa).s0;                \
  }

OPRIG_DEQUANTIZE_KERNEL(dequantize_u8, uchar, convert_int4)
OPRIG_DEQUANTIZE_KERNEL(dequantize_i8, char, convert_int4)
