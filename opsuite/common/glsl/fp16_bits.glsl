// FLOAT_16 in 32-bit words, for devices without 16-bit storage (the oprig
// vulkan backend enables no optional feature): element i of an fp16 tensor
// is half (i & 1) of word (i >> 1), low half first.
//
// Conversions in integer arithmetic: exact widening, and rounding to nearest
// even as the host's float_to_half (runtime/core/half.hpp) does, subnormals,
// overflow to Inf and NaN included. unpackHalf2x16 / packHalf2x16 leave the
// rounding to the driver and may flush fp16 subnormals.
#ifndef OPRIG_FP16_BITS_GLSL
#define OPRIG_FP16_BITS_GLSL

uint half_to_float_bits(uint h) {
  uint sign = (h & 0x8000u) << 16;
  uint exponent = (h >> 10) & 0x1fu;
  uint mantissa = h & 0x3ffu;
  if (exponent == 31u) return sign | 0x7f800000u | (mantissa << 13);
  if (exponent != 0u) return sign | ((exponent + 112u) << 23) | (mantissa << 13);
  if (mantissa == 0u) return sign;
  int top = findMSB(mantissa);  // mantissa * 2^-24 = 1.f * 2^(top - 24)
  return sign | (uint(top + 103) << 23) | ((mantissa << uint(23 - top)) & 0x7fffffu);
}

uint float_bits_to_half(uint bits) {
  uint sign = (bits >> 16) & 0x8000u;
  uint magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu);  // NaN, quiet
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;                                // >= 65520: Inf
  if (magnitude >= 0x38800000u) {                                                    // normal
    uint rebased = magnitude - (112u << 23);
    return sign | ((rebased + 0xfffu + ((rebased >> 13) & 1u)) >> 13);
  }
  // Subnormal or zero: magnitude * 2^24 rounded to the nearest even integer.
  uint exponent = magnitude >> 23;
  if (exponent < 102u) return sign;  // below 2^-25: rounds to 0
  uint significand = (magnitude & 0x7fffffu) | 0x800000u;
  uint shift = 126u - exponent;  // 14 .. 24
  uint q = significand >> shift, rest = significand & ((1u << shift) - 1u), half_way = 1u << (shift - 1u);
  if (rest > half_way || (rest == half_way && (q & 1u) != 0u)) ++q;
  return sign | q;
}

float half_to_float(uint h) { return uintBitsToFloat(half_to_float_bits(h)); }
uint float_to_half(float f) { return float_bits_to_half(floatBitsToUint(f)); }

// Element i of an fp16 tensor bound as uint words, as fp32 (exactly).
#define OPRIG_LOAD_F16(words, i) half_to_float((words[(i) >> 1] >> (16u * ((i) & 1u))) & 0xffffu)
// Element i of a tensor bound as words, fp32 or fp16 as `half` says, as fp32.
#define OPRIG_LOAD_F(words, i, half) \
  ((half) ? OPRIG_LOAD_F16(words, i) : uintBitsToFloat(words[i]))

#endif
