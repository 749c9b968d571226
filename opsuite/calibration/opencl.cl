// org.oprig.calibration on OpenCL. Copy and Triad move 16 floats per
// work-item with vload16/vstore16 (one 512-bit register on an AVX-512 CPU
// device, a wide transaction on a GPU). FmaPeak keeps FMA_CHAINS independent
// accumulators of FMA_VEC lanes per work-item; the host builds it with FMA_VEC
// = the device's native float vector width.

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
