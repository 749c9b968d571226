// IEEE binary16 conversions, exact and portable (round to nearest even),
// so the harness does not depend on the host having F16C.
#pragma once

#include <bit>
#include <cstdint>

namespace oprig {

inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    // zero or subnormal: value = mantissa * 2^-24, exact in float
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

inline uint16_t float_to_half(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t abs = bits & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));  // NaN, quiet
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow to Inf (>= 65520)
  if (abs < 0x38800000u) {
    // result is subnormal or zero: round abs * 2^24 to nearest even integer
    const float scaled = std::bit_cast<float>(abs) * 0x1p24f;  // exact: power-of-two scale
    const float rounded = scaled + 0x1p23f - 0x1p23f;           // RNE in the current (default) mode
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(rounded));
  }
  // normal: drop 13 mantissa bits with round to nearest even
  const uint32_t rebased = abs - (112u << 23);
  const uint32_t round_bit = 1u << 12;
  const uint32_t lsb = (rebased >> 13) & 1u;
  const uint32_t rounded = (rebased + round_bit - 1u + lsb) >> 13;
  return static_cast<uint16_t>(sign | rounded);
}

}  // namespace oprig
