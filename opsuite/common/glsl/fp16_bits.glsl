// FLOAT_16 in 32-bit words, for devices without 16-bit storage (the oprig
// vulkan backend enables no optional feature): element i of an fp16 tensor
// is half (i & 1) of word (i >> 1), low half first.
//
// Conversions in integer (and exact fp32) arithmetic: exact widening, and
// rounding to nearest even as the host's float_to_half (runtime/core/half.hpp)
// does, subnormals, overflow to Inf and NaN included. unpackHalf2x16 / packHalf2x16 leave the
// rounding to the driver and may flush fp16 subnormals.
#ifndef OPRIG_FP16_BITS_GLSL
#define OPRIG_FP16_BITS_GLSL

// Both straight-line (selects, no branches): they sit in the inner loops of
// the fp16 kernels (every staged load of MatMul, attention, convolution),
// where a branchy conversion costs a GPU several times the arithmetic it
// feeds and keeps the compiler from moving it off the load's critical path.
// They were checked bit for bit against the earlier branchy forms over every
// half and every fp32 pattern, with and without fp32 denormals flushed.

uint half_to_float_bits(uint h) {
  uint sign = (h & 0x8000u) << 16;
  uint magnitude = h & 0x7fffu;
  uint exponent = magnitude >> 10;
  // Normal: the exponent rebased by 127 - 15; Inf and NaN (exponent 31) to 255, mantissa kept.
  uint normal = (magnitude << 13) + (exponent == 31u ? (224u << 23) : (112u << 23));
  // Zero or subnormal: mantissa * 2^-24, exact in fp32 and a normal number (no driver flushes it).
  uint small = floatBitsToUint(float(magnitude) * 5.9604644775390625e-8);
  return sign | (exponent == 0u ? small : normal);
}

uint float_bits_to_half(uint bits) {
  uint sign = (bits >> 16) & 0x8000u;
  uint magnitude = bits & 0x7fffffffu;
  // Normal (magnitude >= 2^-14): 13 mantissa bits dropped, rounded to nearest even.
  uint rebased = magnitude - (112u << 23);
  uint normal = (rebased + 0xfffu + ((rebased >> 13) & 1u)) >> 13;
  // Below: magnitude * 2^24 (exact, < 1024) rounded to the nearest even
  // integer is the subnormal's mantissa (1024: the least normal). An fp32
  // denormal gives 0 whether or not the driver flushes it.
  uint small = uint(roundEven(uintBitsToFloat(magnitude) * 16777216.0));
  uint h = magnitude >= 0x38800000u ? normal : small;
  h = magnitude >= 0x477ff000u ? 0x7c00u : h;                                 // >= 65520: Inf
  h = magnitude > 0x7f800000u ? (0x7e00u | ((magnitude >> 13) & 0x3ffu)) : h;  // NaN, quiet
  return sign | h;
}

float half_to_float(uint h) { return uintBitsToFloat(half_to_float_bits(h)); }
uint float_to_half(float f) { return float_bits_to_half(floatBitsToUint(f)); }

// Element i of an fp16 tensor bound as uint words, as fp32 (exactly).
#define OPRIG_LOAD_F16(words, i) half_to_float((words[(i) >> 1] >> (16u * ((i) & 1u))) & 0xffffu)
// Element i of a tensor bound as words, fp32 or fp16 as `half` says, as fp32.
#define OPRIG_LOAD_F(words, i, half) \
  ((half) ? OPRIG_LOAD_F16(words, i) : uintBitsToFloat(words[i]))

#endif
