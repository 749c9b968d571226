// Scalar lane semantics shared by the instruction files: saturation and the
// two gemmlowp-style requantisation primitives, written from their
// definitions (see core.hpp) so each instruction is a loop over these.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace oprig::hvx::lane {

template <typename Lane>
Lane saturate(int64_t v) {
  constexpr int64_t lo = std::numeric_limits<Lane>::min();
  constexpr int64_t hi = std::numeric_limits<Lane>::max();
  return static_cast<Lane>(std::clamp(v, lo, hi));
}

// Arithmetic shift right with rounding (adds 2^(shift-1) when shift > 0).
inline int64_t shift_right_round(int64_t v, uint32_t shift) {
  if (shift == 0) return v;
  return (v + (int64_t{1} << (shift - 1))) >> shift;
}

// round(2*a*b / 2^32) with ties towards +inf; the one overflowing case,
// INT32_MIN * INT32_MIN, saturates. 2*a*b fits int64 in every other case.
inline int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  if (a == kMin && b == kMin) return std::numeric_limits<int32_t>::max();
  const int64_t doubled = 2 * (int64_t{a} * int64_t{b});
  return static_cast<int32_t>((doubled + (int64_t{1} << 31)) >> 32);
}

// x / 2^exponent rounded to nearest, ties away from zero.
inline int32_t rounding_divide_by_pot(int32_t x, uint32_t exponent) {
  if (exponent == 0) return x;
  const int64_t quotient = int64_t{x} >> exponent;  // floor
  const int64_t remainder = int64_t{x} - (quotient << exponent);
  const int64_t half = int64_t{1} << (exponent - 1);
  const bool up = remainder > half || (remainder == half && x >= 0);
  return static_cast<int32_t>(quotient + (up ? 1 : 0));
}

}  // namespace oprig::hvx::lane
