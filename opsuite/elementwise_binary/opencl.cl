// ElementwiseBinary for the opencl backend, two forms of NumPy broadcasting
// through the merged iteration space of common/broadcast.hpp (dims and
// element strides per input, 0 where an input repeats), the operation chosen
// per launch (uniform across work-items):
//   - binary_*_flat, where the plan merged into one dimension (equal shapes,
//     or one operand a single element: the y = x + c of a bias or a scale):
//     each operand steps 1 or 0 per element, so a grid-stride loop of 4
//     elements a step (common/grid_stride.hpp) reads and writes whole
//     vectors through vector pointers, adjacent work-items on adjacent
//     vectors, one coalesced pass; the last n % 4 elements after the loop;
//   - binary_*, any other broadcast: one work-item per output element, its
//     offsets from the merged dims (a division per dimension, in 64 bits).
// The flat form exists for speed: the per-element offsets took 1.14 ms for
// 16M fp32 plus a constant on an H100 (64-bit division is a long sequence
// of instructions there), 7 times the vulkan kernel's time in the same run. Both
// forms compute every element with the same functions, so the same bits.
// Vector pointers are aligned: a tensor is a whole cl_mem (offset 0), and
// buffers start at CL_DEVICE_MEM_BASE_ADDR_ALIGN.
//
// FLOAT_32: ADD, SUB, MUL are IEEE-correctly rounded in OpenCL C; DIV is when
// the program is built with -cl-fp32-correctly-rounded-divide-sqrt (the host
// asks for it, and refuses DIV where the device cannot); POW is computed in
// double and rounded once (needs cl_khr_fp64: the host defines OPRIG_FP64).
// MAX/MIN propagate NaN and otherwise select, as the cpu kernel does.
// FLOAT_16: widened to float by vload_half, computed as FLOAT_32, rounded
// once to nearest even by vstore_half_rte. INT_32: ADD, SUB, MUL wrap (done
// in uint), DIV truncates or floors (by 0 gives 0, INT_MIN / -1 wraps), POW by
// squaring modulo 2^32 (the cpu's repeated product, in log steps), a negative
// exponent giving the truncated quotient. The fused activation (act: 0 NONE,
// 1 RELU, 2 RELU1, 3 RELU6) clamps with selects, not fmin/fmax, which may
// drop the sign of a zero: max(r, lo) is r unless r < lo (NaN stays NaN);
// FLOAT_16 is clamped in fp32 before its one rounding.

#ifdef OPRIG_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define OP_ADD 0
#define OP_SUB 1
#define OP_MUL 2
#define OP_DIV 3
#define OP_MAX 4
#define OP_MIN 5
#define OP_POW 6
#define OP_FLOOR_DIV 7  // DIV with integer_division FLOOR

// Offsets of output element i in a and b.
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

inline float apply_f32(const int op, const float a, const float b) {
  switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV:
    case OP_FLOOR_DIV: return a / b;
    case OP_MAX: return (isnan(a) || isnan(b)) ? a + b : (a > b ? a : b);
    case OP_MIN: return (isnan(a) || isnan(b)) ? a + b : (a < b ? a : b);
#ifdef OPRIG_FP64
    case OP_POW: return (float)pow((double)a, (double)b);
#endif
  }
  return NAN;
}

inline float activate_f32(const int act, const float r) {
  if (act == 0) return r;
  const float lo = act == 2 ? -1.0f : 0.0f;
  const float low = r < lo ? lo : r;
  if (act == 1) return low;
  const float hi = act == 2 ? 1.0f : 6.0f;
  return hi < low ? hi : low;
}

inline int activate_i32(const int act, const int r) {
  if (act == 0) return r;
  const int low = max(r, act == 2 ? -1 : 0);
  return act == 1 ? low : min(low, act == 2 ? 1 : 6);
}

inline int int_pow(const int base, const int exponent) {
  if (exponent < 0) return base == 1 ? 1 : base == -1 ? ((exponent & 1) == 0 ? 1 : -1) : 0;
  uint result = 1u, square = as_uint(base);
  for (uint e = (uint)exponent; e != 0u; e >>= 1) {
    if (e & 1u) result *= square;
    square *= square;
  }
  return as_int(result);
}

inline int apply_i32(const int op, const int a, const int b) {
  const uint ua = as_uint(a), ub = as_uint(b);
  switch (op) {
    case OP_ADD: return as_int(ua + ub);
    case OP_SUB: return as_int(ua - ub);
    case OP_MUL: return as_int(ua * ub);
    case OP_DIV: return b == 0 ? 0 : (b == -1 ? as_int(0u - ua) : a / b);
    case OP_MAX: return max(a, b);
    case OP_MIN: return min(a, b);
    case OP_POW: return int_pow(a, b);
    case OP_FLOOR_DIV: {
      if (b == 0) return 0;
      if (b == -1) return as_int(0u - ua);
      const int q = a / b;
      return q * b != a && ((a < 0) != (b < 0)) ? q - 1 : q;
    }
  }
  return 0;
}

#define OPRIG_BINARY_ARGS                                                                         \
  const int op, const ulong n, const int merged, const long8 dims, const long8 a_strides, \
      const long8 b_strides, const int act

kernel void binary_f32(global const float* a, global const float* b, global float* y, OPRIG_BINARY_ARGS) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  y[i] = activate_f32(act, apply_f32(op, a[ao], b[bo]));
}

kernel void binary_f16(global const half* a, global const half* b, global half* y, OPRIG_BINARY_ARGS) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  vstore_half_rte(activate_f32(act, apply_f32(op, vload_half(ao, a), vload_half(bo, b))), i, y);
}

kernel void binary_i32(global const int* a, global const int* b, global int* y, OPRIG_BINARY_ARGS) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  ulong ao, bo;
  offsets(i, merged, dims, a_strides, b_strides, &ao, &bo);
  y[i] = activate_i32(act, apply_i32(op, a[ao], b[bo]));
}

// The flat form. a_step, b_step: 1 where the operand has n elements, 0 where
// it is one element repeated.
#define OPRIG_FLAT_ARGS const int op, const ulong n, const int a_step, const int b_step, const int act

inline float4 apply4_f32(const int op, const int act, const float4 a, const float4 b) {
  return (float4)(activate_f32(act, apply_f32(op, a.s0, b.s0)), activate_f32(act, apply_f32(op, a.s1, b.s1)),
                  activate_f32(act, apply_f32(op, a.s2, b.s2)), activate_f32(act, apply_f32(op, a.s3, b.s3)));
}

inline int4 apply4_i32(const int op, const int act, const int4 a, const int4 b) {
  return (int4)(activate_i32(act, apply_i32(op, a.s0, b.s0)), activate_i32(act, apply_i32(op, a.s1, b.s1)),
                activate_i32(act, apply_i32(op, a.s2, b.s2)), activate_i32(act, apply_i32(op, a.s3, b.s3)));
}

kernel void binary_f32_flat(global const float* a, global const float* b, global float* y, OPRIG_FLAT_ARGS) {
  global const float4* a4 = (global const float4*)a;
  global const float4* b4 = (global const float4*)b;
  global float4* y4 = (global float4*)y;
  const float4 a_repeated = (float4)a[0], b_repeated = (float4)b[0];
  const ulong vectors = n / 4, stride = get_global_size(0);
  for (ulong v = get_global_id(0); v < vectors; v += stride)
    y4[v] = apply4_f32(op, act, a_step ? a4[v] : a_repeated, b_step ? b4[v] : b_repeated);
  for (ulong i = vectors * 4 + get_global_id(0); i < n; i += stride)
    y[i] = activate_f32(act, apply_f32(op, a[a_step ? i : 0], b[b_step ? i : 0]));
}

kernel void binary_f16_flat(global const half* a, global const half* b, global half* y, OPRIG_FLAT_ARGS) {
  const float4 a_repeated = (float4)vload_half(0, a), b_repeated = (float4)vload_half(0, b);
  const ulong vectors = n / 4, stride = get_global_size(0);
  for (ulong v = get_global_id(0); v < vectors; v += stride)
    vstore_half4_rte(apply4_f32(op, act, a_step ? vload_half4(v, a) : a_repeated, b_step ? vload_half4(v, b) : b_repeated),
                     v, y);
  for (ulong i = vectors * 4 + get_global_id(0); i < n; i += stride)
    vstore_half_rte(activate_f32(act, apply_f32(op, vload_half(a_step ? i : 0, a), vload_half(b_step ? i : 0, b))), i, y);
}

kernel void binary_i32_flat(global const int* a, global const int* b, global int* y, OPRIG_FLAT_ARGS) {
  global const int4* a4 = (global const int4*)a;
  global const int4* b4 = (global const int4*)b;
  global int4* y4 = (global int4*)y;
  const int4 a_repeated = (int4)a[0], b_repeated = (int4)b[0];
  const ulong vectors = n / 4, stride = get_global_size(0);
  for (ulong v = get_global_id(0); v < vectors; v += stride)
    y4[v] = apply4_i32(op, act, a_step ? a4[v] : a_repeated, b_step ? b4[v] : b_repeated);
  for (ulong i = vectors * 4 + get_global_id(0); i < n; i += stride)
    y[i] = activate_i32(act, apply_i32(op, a[a_step ? i : 0], b[b_step ? i : 0]));
}
