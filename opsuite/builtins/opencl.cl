// org.oprig.builtins for the opencl backend: Compare, Logical, LogicalNot,
// Cast and QuantizedArithmetic, one work-item per output element, with the
// semantics of builtins.hpp and quant.hpp (the graph runtime's host kernels). FLOAT_32 comparisons and the test for
// zero use the bits, so a device that flushes denormals still compares them
// as IEEE does. Two-input ops broadcast through the merged iteration space of
// common/broadcast.hpp.

#pragma OPENCL FP_CONTRACT OFF

#define OPRIG_BROADCAST_ARGS const ulong n, const int merged, const long8 dims, const long8 a_strides, \
                             const long8 b_strides

inline void offsets(ulong i, const int merged, const long8 dims, const long8 a_strides, const long8 b_strides,
                    ulong* a_off, ulong* b_off) {
  const long d[8] = {dims.s0, dims.s1, dims.s2, dims.s3, dims.s4, dims.s5, dims.s6, dims.s7};
  const long sa[8] = {a_strides.s0, a_strides.s1, a_strides.s2, a_strides.s3,
                      a_strides.s4, a_strides.s5, a_strides.s6, a_strides.s7};
  const long sb[8] = {b_strides.s0, b_strides.s1, b_strides.s2, b_strides.s3,
                      b_strides.s4, b_strides.s5, b_strides.s6, b_strides.s7};
  ulong a = 0, b = 0;
  for (int k = merged - 1; k >= 0; --k) {
    const ulong c = i % (ulong)d[k];
    i /= (ulong)d[k];
    a += c * (ulong)sa[k];
    b += c * (ulong)sb[k];
  }
  *a_off = a;
  *b_off = b;
}

// LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL on ordered keys.
inline uchar compare_keys(const int op, const long x, const long y) {
  switch (op) {
    case 0: return x < y;
    case 1: return x <= y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x == y;
    default: return x != y;
  }
}

// The order of fp32 bits as a signed key: -0 and +0 meet at 0.
inline long float_key(const uint bits) {
  return (bits & 0x80000000u) ? -(long)(bits & 0x7fffffffu) : (long)bits;
}

kernel void compare_i32(global const int* a, global const int* b, global uchar* y, const int op,
                        OPRIG_BROADCAST_ARGS) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  y[i] = compare_keys(op, a[ao], b[bo]);
}

kernel void compare_f32(global const uint* a, global const uint* b, global uchar* y, const int op,
                        OPRIG_BROADCAST_ARGS) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  const uint x = a[ao], z = b[bo];
  const bool nan = (x & 0x7fffffffu) > 0x7f800000u || (z & 0x7fffffffu) > 0x7f800000u;
  y[i] = nan ? (uchar)(op == 5) : compare_keys(op, float_key(x), float_key(z));
}

// FLOAT_16 by its bits: the same order and NaN rule as FLOAT_32 (widening
// to float is exact and keeps the order).
kernel void compare_f16(global const ushort* a, global const ushort* b, global uchar* y, const int op,
                        OPRIG_BROADCAST_ARGS) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  const uint x = a[ao], z = b[bo];
  const bool nan = (x & 0x7fffu) > 0x7c00u || (z & 0x7fffu) > 0x7c00u;
  const long kx = (x & 0x8000u) ? -(long)(x & 0x7fffu) : (long)x;
  const long kz = (z & 0x8000u) ? -(long)(z & 0x7fffu) : (long)z;
  y[i] = nan ? (uchar)(op == 5) : compare_keys(op, kx, kz);
}

// Quantised codes (UINT_8, or INT_8 when is_signed) compared by real value,
// float(q - zero_point) * scale as the host computes it: one IEEE fp32
// multiply (the host refuses devices that flush fp32 denormals), then the
// order of the bits; no NaN can arise.
kernel void compare_q8(global const uchar* a, global const uchar* b, global uchar* y, const int op,
                       OPRIG_BROADCAST_ARGS, const int is_signed, const int a_zero, const float a_scale,
                       const int b_zero, const float b_scale) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  const int qa = is_signed ? (int)((global const char*)a)[ao] : (int)a[ao];
  const int qb = is_signed ? (int)((global const char*)b)[bo] : (int)b[bo];
  const float ra = (float)(qa - a_zero) * a_scale, rb = (float)(qb - b_zero) * b_scale;
  y[i] = compare_keys(op, float_key(as_uint(ra)), float_key(as_uint(rb)));
}

// NNAPI's fixed point (quant.hpp): srdhm rounds ties toward +inf, rdbpot to
// nearest with ties away from zero.
inline int srdhm(const int a, const int b) {
  if (a == INT_MIN && b == INT_MIN) return INT_MAX;
  const long ab = (long)a * (long)b;
  return (int)((ab + (ab >= 0 ? (1L << 30) : (1L - (1L << 30)))) / (1L << 31));
}

inline int rdbpot(const int x, const int e) {
  const uint mask = e == 0 ? 0u : 0xffffffffu >> (32 - e);
  const uint remainder = as_uint(x) & mask;
  const uint threshold = (mask >> 1) + (x < 0 ? 1u : 0u);
  return (x >> e) + (remainder > threshold ? 1 : 0);
}

inline int scale_by(const int x, const int m, const int left, const int right) {
  return rdbpot(srdhm(as_int(as_uint(x) << left), m), right);
}

// QuantizedArithmetic: q = (in1_offset, in2_offset, out_offset, m1, left1,
// right1, m2, left2, right2, m_out, left_out, right_out, lo, hi).
kernel void quant_arith(global const uchar* a, global const uchar* b, global uchar* y, const int op,
                        OPRIG_BROADCAST_ARGS, const int is_signed, const int16 q) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  const int x = (is_signed ? (int)((global const char*)a)[ao] : (int)a[ao]) + q.s0;
  const int z = (is_signed ? (int)((global const char*)b)[bo] : (int)b[bo]) + q.s1;
  int raw;
  if (op == 2) {
    raw = scale_by(x * z, q.s9, q.sa, q.sb);
  } else {
    const int sx = scale_by(x * (1 << 20), q.s3, q.s4, q.s5);
    const int sz = scale_by(z * (1 << 20), q.s6, q.s7, q.s8);
    raw = scale_by(sx + sz, q.s9, q.sa, q.sb);
  }
  y[i] = (uchar)clamp(raw + q.s2, q.sc, q.sd);
}

kernel void compare_b8(global const uchar* a, global const uchar* b, global uchar* y, const int op,
                       OPRIG_BROADCAST_ARGS) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  y[i] = compare_keys(op, a[ao], b[bo]);
}

kernel void logical(global const uchar* a, global const uchar* b, global uchar* y, const int op,
                    OPRIG_BROADCAST_ARGS) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  const bool x = a[ao] != 0, z = b[bo] != 0;
  y[i] = op == 0 ? (x && z) : (x || z);
}

kernel void logical_not(global const uchar* a, global uchar* y, const ulong n) {
  const ulong i = get_global_id(0);
  if (i < n) y[i] = a[i] == 0;
}

// Type codes: oprig_dtype (FLOAT_32 2, INT_8 4, INT_32 6, UINT_8 8, BOOL_8 12).
kernel void cast(global const uchar* x, global uchar* y, const int from, const int to, const ulong n) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  if (from == 2) {
    const uint bits = ((global const uint*)x)[i];
    const float v = as_float(bits);
    switch (to) {
      case 2: ((global uint*)y)[i] = bits; break;
      case 6: ((global int*)y)[i] = convert_int_sat_rtz(v); break;  // NaN -> 0
      case 8: y[i] = convert_uchar_sat_rtz(v); break;
      case 4: ((global char*)y)[i] = convert_char_sat_rtz(v); break;
      default: y[i] = (bits & 0x7fffffffu) != 0u; break;
    }
    return;
  }
  int v;
  switch (from) {
    case 6: v = ((global const int*)x)[i]; break;
    case 8: v = x[i]; break;
    case 4: v = ((global const char*)x)[i]; break;
    default: v = x[i] != 0; break;
  }
  switch (to) {
    case 2: ((global float*)y)[i] = convert_float_rte(v); break;
    case 6: ((global int*)y)[i] = v; break;
    case 8: y[i] = (uchar)clamp(v, 0, 255); break;
    case 4: ((global char*)y)[i] = (char)clamp(v, -128, 127); break;
    default: y[i] = v != 0; break;
  }
}

// Slice: one work-item per output element, copied as `bytes` bytes from the
// box's place in the input (begin and the output dims come from the host's
// resolve_shapes; strides are the input's, in elements).
kernel void slice_copy(global const uchar* x, global uchar* y, const ulong count, const int rank, const int bytes,
                       const long8 out_dims, const long8 in_strides, const long8 begin) {
  const ulong i = get_global_id(0);
  if (i >= count) return;
  const long od[8] = {out_dims.s0, out_dims.s1, out_dims.s2, out_dims.s3,
                      out_dims.s4, out_dims.s5, out_dims.s6, out_dims.s7};
  const long st[8] = {in_strides.s0, in_strides.s1, in_strides.s2, in_strides.s3,
                      in_strides.s4, in_strides.s5, in_strides.s6, in_strides.s7};
  const long bg[8] = {begin.s0, begin.s1, begin.s2, begin.s3, begin.s4, begin.s5, begin.s6, begin.s7};
  ulong rest = i, from = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const ulong c = rest % (ulong)od[d];
    rest /= (ulong)od[d];
    from += (c + (ulong)bg[d]) * (ulong)st[d];
  }
  for (int k = 0; k < bytes; ++k) y[i * (ulong)bytes + k] = x[from * (ulong)bytes + k];
}

// FullyConnected, one work-item per output element (n, u). Floats: products
// and sums rounded one by one in fp32, in input order, as the host does (no
// contraction into fma: FP_CONTRACT is off for the whole program), then the
// bias, then the activation; FLOAT_16 read exactly and rounded once at the
// end.

inline float fc_activate(const int act, const float r) {
  if (act == 0) return r;
  const float lo = act == 2 ? -1.0f : 0.0f;
  const float low = r < lo ? lo : r;
  if (act == 1) return low;
  const float hi = act == 2 ? 1.0f : 6.0f;
  return hi < low ? hi : low;
}

kernel void fc_f32(global const float* x, global const float* w, global const float* b, global float* y,
                   const ulong count, const long units, const long depth, const int act) {
  const ulong i = get_global_id(0);
  if (i >= count) return;
  const long n = (long)i / units, u = (long)i % units;
  float acc = 0.0f;
  for (long d = 0; d < depth; ++d) {
    const float p = x[n * depth + d] * w[u * depth + d];
    acc = acc + p;
  }
  y[i] = fc_activate(act, acc + b[u]);
}

kernel void fc_f16(global const half* x, global const half* w, global const half* b, global half* y,
                   const ulong count, const long units, const long depth, const int act) {
  const ulong i = get_global_id(0);
  if (i >= count) return;
  const long n = (long)i / units, u = (long)i % units;
  float acc = 0.0f;
  for (long d = 0; d < depth; ++d) {
    const float p = vload_half(n * depth + d, x) * vload_half(u * depth + d, w);
    acc = acc + p;
  }
  vstore_half_rte(fc_activate(act, acc + vload_half(u, b)), i, y);
}

// Quantised: the int32 sum (wrapping) of offset products plus the bias,
// requantised (quant.hpp); q = (x_offset, w_offset, out_offset, m, left,
// right, lo, hi).
kernel void fc_q8(global const uchar* x, global const uchar* w, global const int* b, global uchar* y,
                  const ulong count, const long units, const long depth, const int is_signed, const int8 q) {
  const ulong i = get_global_id(0);
  if (i >= count) return;
  const long n = (long)i / units, u = (long)i % units;
  uint acc = 0u;
  for (long d = 0; d < depth; ++d) {
    const int xv = is_signed ? (int)((global const char*)x)[n * depth + d] : (int)x[n * depth + d];
    const int wv = is_signed ? (int)((global const char*)w)[u * depth + d] : (int)w[u * depth + d];
    acc += as_uint((xv + q.s0) * (wv + q.s1));
  }
  acc += as_uint(b[u]);
  y[i] = (uchar)clamp(scale_by(as_int(acc), q.s3, q.s4, q.s5) + q.s2, q.s6, q.s7);
}
