// An fp16 element's value from its 16 bits as loaded, exactly (subnormals,
// Inf and NaN included), without a pointer: for kernels that keep staged
// fp16 elements in registers as the bits loaded and widen them later
// (gemm.cl; ScaledDotProductAttention's opencl.cl). vload_half takes a
// pointer, and a pointer into a private array can keep the whole array out
// of registers. With cl_khr_fp16 (NVIDIA) one conversion instruction; core
// OpenCL (PoCL) has no half value, so there it is integer and exact fp32
// arithmetic, fp16_bits.glsl's widening.
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
inline float oprig_half_bits_to_float(const uint h) { return (float)as_half((ushort)h); }
#else
inline float oprig_half_bits_to_float(const uint h) {
  const uint sign = (h & 0x8000u) << 16;
  const uint magnitude = h & 0x7fffu;
  const uint exponent = magnitude >> 10;
  // Normal: the exponent rebased by 127 - 15; Inf and NaN (exponent 31) to 255, mantissa kept.
  const uint normal = (magnitude << 13) + (exponent == 31u ? (224u << 23) : (112u << 23));
  // Zero or subnormal: mantissa * 2^-24, exact in fp32 and a normal number.
  const uint small = as_uint((float)magnitude * 5.9604644775390625e-8f);
  return as_float(sign | (exponent == 0u ? small : normal));
}
#endif
