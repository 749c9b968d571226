// Contiguous slices in vector units, for the slice kernels of Softmax,
// LayerNorm and RMSNorm: a work-item handles OPRIG_VEC consecutive elements
// at a time as one OpenCL vector (the program's build option, 4 or 8;
// common/slice_device_opencl.hpp chooses it). Explicit vectors are what CPU
// devices compute fastest (PoCL turns them into SIMD registers, where it
// leaves most work-item loops scalar) and give GPUs 16- or 32-byte loads.
// The units of a slice [first, first + n) are aligned in the tensor: unit u
// holds elements (first / OPRIG_VEC + u) * OPRIG_VEC + 0 .. OPRIG_VEC - 1, so
// a whole unit is one aligned vector load, and only the slice's two end
// units are read and written element by element. Uses float_float.cl.

#ifndef OPRIG_VEC
#define OPRIG_VEC 4
#endif

// OPRIG_UNROLLED before the loops over a work-item's cached units: unrolled
// (OPRIG_UNROLL 1, GPUs), so the cache stays in registers; or kept a loop
// (OPRIG_UNROLL 0, CPU devices: PoCL keeps a work-item's private array in
// memory either way, and the rolled loop ran faster and builds four times
// faster).
#ifndef OPRIG_UNROLL
#define OPRIG_UNROLL 1
#endif
#if OPRIG_UNROLL
#define OPRIG_UNROLLED _Pragma("unroll")
#else
#define OPRIG_UNROLLED _Pragma("unroll 1")
#endif

#if OPRIG_VEC == 16
typedef float16 oprig_floatv;
typedef int16 oprig_intv;
typedef uint16 oprig_uintv;
#define oprig_vload vload16
#define oprig_vstore vstore16
#define oprig_vload_half vload_half16
#define oprig_vstore_half_rte vstore_half16_rte
#define oprig_convert_intv convert_int16
#define oprig_convert_uintv_sat convert_uint16_sat
#define oprig_as_floatv as_float16
#define oprig_as_uintv as_uint16
#define oprig_as_intv as_int16
#define OPRIG_IOTA (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#elif OPRIG_VEC == 8
typedef float8 oprig_floatv;
typedef int8 oprig_intv;
typedef uint8 oprig_uintv;
#define oprig_vload vload8
#define oprig_vstore vstore8
#define oprig_vload_half vload_half8
#define oprig_vstore_half_rte vstore_half8_rte
#define oprig_convert_intv convert_int8
#define oprig_convert_uintv_sat convert_uint8_sat
#define oprig_as_floatv as_float8
#define oprig_as_uintv as_uint8
#define oprig_as_intv as_int8
#define OPRIG_IOTA (int8)(0, 1, 2, 3, 4, 5, 6, 7)
#elif OPRIG_VEC == 4
typedef float4 oprig_floatv;
typedef int4 oprig_intv;
typedef uint4 oprig_uintv;
#define oprig_vload vload4
#define oprig_vstore vstore4
#define oprig_vload_half vload_half4
#define oprig_vstore_half_rte vstore_half4_rte
#define oprig_convert_intv convert_int4
#define oprig_convert_uintv_sat convert_uint4_sat
#define oprig_as_floatv as_float4
#define oprig_as_uintv as_uint4
#define oprig_as_intv as_int4
#define OPRIG_IOTA (int4)(0, 1, 2, 3)
#else
#error "OPRIG_VEC must be 4, 8 or 16"
#endif

// The units a slice of n > 0 elements from `first` touches.
inline uint oprig_slice_units(const ulong first, const uint n) {
  return (uint)((first + n - 1) / OPRIG_VEC - first / OPRIG_VEC + 1);
}

// -1 for the elements of unit u that belong to the slice, 0 for the others.
inline oprig_intv oprig_unit_mask(const ulong first, const uint n, const uint u) {
  const long k0 = (long)((first / OPRIG_VEC + u) * OPRIG_VEC) - (long)first;  // > -OPRIG_VEC
  const oprig_intv k = (int)k0 + OPRIG_IOTA;
  return k >= 0 & k < (int)n;
}

// Unit u of the slice as floats (FLOAT_16 widened exactly); elements
// outside the slice read `fill`.
inline oprig_floatv oprig_load_unit(global const void* x, const ulong first, const uint n, const uint u,
                                    const float fill, const bool half_type) {
  const ulong start = (first / OPRIG_VEC + u) * OPRIG_VEC;
  if (start >= first && start + OPRIG_VEC <= first + n)
    return half_type ? oprig_vload_half(start / OPRIG_VEC, (global const half*)x)
                     : oprig_vload(start / OPRIG_VEC, (global const float*)x);
  float part[OPRIG_VEC];
  for (uint c = 0; c < OPRIG_VEC; ++c) {
    const ulong e = start + c;
    part[c] = e < first || e >= first + n ? fill
              : half_type                 ? vload_half(e, (global const half*)x)
                                          : ((global const float*)x)[e];
  }
  return oprig_vload(0, part);
}

// The elements of a per-position parameter (LayerNorm's gamma and beta,
// RMSNorm's weight: n elements, one per slice position) that line up with
// unit u of the slice from `first`: positions (first / OPRIG_VEC + u) *
// OPRIG_VEC - first + 0 .. OPRIG_VEC - 1, `fill` outside [0, n). A whole
// unit is one vector load (aligned to the element only: vloadn allows it).
inline oprig_floatv oprig_load_position_unit(global const void* p, const ulong first, const uint n, const uint u,
                                             const float fill, const bool half_type) {
  const long k0 = (long)((first / OPRIG_VEC + u) * OPRIG_VEC) - (long)first;
  if (k0 >= 0 && k0 + OPRIG_VEC <= (long)n)
    return half_type ? oprig_vload_half(0, (global const half*)p + k0) : oprig_vload(0, (global const float*)p + k0);
  float part[OPRIG_VEC];
  for (uint c = 0; c < OPRIG_VEC; ++c) {
    const long k = k0 + c;
    part[c] = k < 0 || k >= (long)n ? fill
              : half_type           ? vload_half(k, (global const half*)p)
                                    : ((global const float*)p)[k];
  }
  return oprig_vload(0, part);
}

// Stores unit u's elements that belong to the slice (FLOAT_16 rounded to
// nearest even once).
inline void oprig_store_unit(global void* y, const ulong first, const uint n, const uint u, const oprig_floatv v,
                             const bool half_type) {
  const ulong start = (first / OPRIG_VEC + u) * OPRIG_VEC;
  if (start >= first && start + OPRIG_VEC <= first + n) {
    if (half_type) oprig_vstore_half_rte(v, start / OPRIG_VEC, (global half*)y);
    else oprig_vstore(v, start / OPRIG_VEC, (global float*)y);
    return;
  }
  float part[OPRIG_VEC];
  oprig_vstore(v, 0, part);
  for (uint c = 0; c < OPRIG_VEC; ++c) {
    const ulong e = start + c;
    if (e < first || e >= first + n) continue;
    if (half_type) vstore_half_rte(part[c], e, (global half*)y);
    else ((global float*)y)[e] = part[c];
  }
}

// The largest of a vector's ints.
inline int oprig_max_of(const oprig_intv v) {
  int part[OPRIG_VEC];
  oprig_vstore(v, 0, part);
  int m = part[0];
  for (uint c = 1; c < OPRIG_VEC; ++c) m = max(m, part[c]);
  return m;
}

// The float-float sum of a vector of accumulators (hi, lo: Sum2 pairs per
// element), in element order.
inline float2 oprig_ff_sum_of(const oprig_floatv hi, const oprig_floatv lo) {
  float h[OPRIG_VEC], l[OPRIG_VEC];
  oprig_vstore(hi, 0, h);
  oprig_vstore(lo, 0, l);
  float2 sum = (float2)(h[0], l[0]);
  for (uint c = 1; c < OPRIG_VEC; ++c) sum = oprig_ff_add(sum, (float2)(h[c], l[c]));
  return sum;
}
