// The arithmetic of com.example.fibonacci's Fibonacci op, shared by the
// registration's validate hook and the cpu kernel: how n is read from its
// FLOAT_32 or EXAMPLE_INT64 input, the sequence F(1..n), and the UINT_64
// quantisation.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <span>

namespace oprig::fibonacci {

// F(93) = 12200160415121876738 is the last Fibonacci number below 2^64.
inline constexpr uint64_t kMaxN = 93;

// n is the input truncated toward zero. Valid inputs: 0 <= x < 94 (so -0.0 and
// 93.9 are valid, giving 0 and 93). NaN, x < 0 (even -0.5) and x >= 94 are
// invalid: they have no sequence that fits in uint64.
inline std::optional<uint64_t> length_from_input(float x) {
  if (!(x >= 0.0f) || !(x < static_cast<float>(kMaxN + 1))) return std::nullopt;
  return static_cast<uint64_t>(std::trunc(x));
}

// n from an EXAMPLE_INT64 input: 0 <= n <= 93, anything else is invalid.
inline std::optional<uint64_t> length_from_integer(int64_t n) {
  if (n < 0 || n > static_cast<int64_t>(kMaxN)) return std::nullopt;
  return static_cast<uint64_t>(n);
}

// Writes F(1), ..., F(dst.size()) with F(1) = F(2) = 1. dst.size() <= kMaxN.
inline void write_sequence(std::span<uint64_t> dst) {
  uint64_t previous = 0, current = 1;  // F(0), F(1)
  for (uint64_t& value : dst) {
    value = current;
    const uint64_t next = previous + current;
    previous = current;
    current = next;  // wraps only after F(93) is written, and is never read then
  }
}

// q = round(f / scale) + zero_point, rounded to nearest with ties away from
// zero, saturated to [0, 2^64 - 1]. Exact: scale is decomposed into
// odd_mantissa * 2^exponent and the quotient is formed in 128-bit integers, so
// no rounding happens before the final one (a double would lose bits above
// 2^53, and F(93) needs 64). scale must be finite and > 0.
inline uint64_t quantise(uint64_t f, float scale, int32_t zero_point) {
  __extension__ typedef unsigned __int128 u128;  // __extension__: GCC/Clang built-in, quiet under -Wpedantic
  __extension__ typedef __int128 i128;
  int exponent = 0;
  const float fraction = std::frexp(scale, &exponent);  // scale = fraction * 2^exponent, fraction in [0.5, 1)
  auto mantissa = static_cast<uint64_t>(std::ldexp(fraction, 24));
  exponent -= 24;
  while ((mantissa & 1u) == 0) {
    mantissa >>= 1;
    ++exponent;
  }
  // quotient = f / (mantissa * 2^exponent) = numerator / denominator.
  u128 numerator = f, denominator = mantissa;
  if (exponent >= 0) {
    if (exponent >= 100) return zero_point > 0 ? static_cast<uint64_t>(zero_point) : 0;  // quotient < 2^-36
    denominator <<= exponent;
  } else {
    // f < 2^64 and mantissa < 2^24: a shift over 64 leaves a quotient over
    // 2^40 * f, which saturates unless f == 0.
    if (-exponent > 64) return f == 0 ? (zero_point > 0 ? static_cast<uint64_t>(zero_point) : 0) : UINT64_MAX;
    numerator <<= -exponent;  // < 2^128
  }
  const u128 rounded = numerator / denominator + ((numerator % denominator) * 2 >= denominator ? 1 : 0);
  if (rounded > UINT64_MAX) return UINT64_MAX;
  const i128 q = static_cast<i128>(rounded) + zero_point;
  if (q < 0) return 0;
  if (q > static_cast<i128>(UINT64_MAX)) return UINT64_MAX;
  return static_cast<uint64_t>(q);
}

}  // namespace oprig::fibonacci
