// org.oprig.calibration on OpenCL. Copy and Triad have two forms, the host
// picks one by device type:
//   - a CPU device (PoCL): one work-item per 16 floats with vload16/vstore16
//     (one 512-bit register on AVX-512; PoCL vectorises a work-group's items);
//   - a GPU: float4 pointers, so every load and store is one aligned 16-byte
//     access (vload16 from a float pointer may only assume 4-byte alignment:
//     NVIDIA issued 16 scalar loads 64 bytes apart across a warp and copied at
//     632 GB/s on an H100), adjacent work-items on adjacent vectors (a warp
//     reads 512 contiguous bytes), a grid-stride loop over a launch the host
//     sizes from the device's compute units, with 4 vectors per work-item in
//     flight before their stores; indices in 64 bits.
// FmaPeak keeps FMA_CHAINS independent accumulators of FMA_VEC lanes per
// work-item; the host builds it with FMA_VEC = the device's native float
// vector width.

#ifndef FMA_VEC
#define FMA_VEC 16
#endif
#define FMA_CHAINS 8

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if FMA_VEC == 1
#define floatV float
#else
#define floatV CAT(float, FMA_VEC)
#endif

kernel void calibration_copy(global const float* src, global float* dst) {
  const size_t i = get_global_id(0);
  vstore16(vload16(i, src), i, dst);
}

kernel void calibration_triad(global const float* b, global const float* c, global float* a, const float scalar) {
  const size_t i = get_global_id(0);
  vstore16(fma((float16)scalar, vload16(i, c), vload16(i, b)), i, a);
}

// The GPU forms; `vectors` counts float4s. The loop's first part moves 4
// vectors a step, the second the last fewer than 4 strides.
kernel void calibration_copy_strided(global const float4* src, global float4* dst, const ulong vectors) {
  const ulong stride = get_global_size(0);
  ulong i = get_global_id(0);
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    const float4 v0 = src[i], v1 = src[i + stride], v2 = src[i + 2 * stride], v3 = src[i + 3 * stride];
    dst[i] = v0;
    dst[i + stride] = v1;
    dst[i + 2 * stride] = v2;
    dst[i + 3 * stride] = v3;
  }
  for (; i < vectors; i += stride) dst[i] = src[i];
}

kernel void calibration_triad_strided(global const float4* b, global const float4* c, global float4* a,
                                      const float scalar, const ulong vectors) {
  const ulong stride = get_global_size(0);
  const float4 s = (float4)scalar;
  ulong i = get_global_id(0);
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    const float4 b0 = b[i], b1 = b[i + stride], b2 = b[i + 2 * stride], b3 = b[i + 3 * stride];
    const float4 c0 = c[i], c1 = c[i + stride], c2 = c[i + 2 * stride], c3 = c[i + 3 * stride];
    a[i] = fma(s, c0, b0);
    a[i + stride] = fma(s, c1, b1);
    a[i + 2 * stride] = fma(s, c2, b2);
    a[i + 3 * stride] = fma(s, c3, b3);
  }
  for (; i < vectors; i += stride) a[i] = fma(s, c[i], b[i]);
}

kernel void calibration_fma(global const float* ab, global float* out, const uint iterations) {
  const floatV va = (floatV)ab[0];
  const floatV vb = (floatV)ab[1];
  floatV acc0 = (floatV)1.000f, acc1 = (floatV)1.001f, acc2 = (floatV)1.002f, acc3 = (floatV)1.003f;
  floatV acc4 = (floatV)1.004f, acc5 = (floatV)1.005f, acc6 = (floatV)1.006f, acc7 = (floatV)1.007f;
  for (uint it = 0; it < iterations; ++it) {
    acc0 = fma(acc0, va, vb);
    acc1 = fma(acc1, va, vb);
    acc2 = fma(acc2, va, vb);
    acc3 = fma(acc3, va, vb);
    acc4 = fma(acc4, va, vb);
    acc5 = fma(acc5, va, vb);
    acc6 = fma(acc6, va, vb);
    acc7 = fma(acc7, va, vb);
  }
  const floatV sum = ((acc0 + acc1) + (acc2 + acc3)) + ((acc4 + acc5) + (acc6 + acc7));
  float total = 0.0f;
#if FMA_VEC == 1
  total = sum;
#else
  for (int k = 0; k < FMA_VEC; ++k) total += ((const float*)&sum)[k];
#endif
  out[get_global_id(0)] = total;
}
