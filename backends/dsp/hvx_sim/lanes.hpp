// Scalar helpers the instruction semantics share: saturation, the bytes and
// halves of a scalar register, and the counting the HVX bit instructions do.
// Arithmetic that may wrap is done in unsigned types (defined behaviour).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace oprig::hvx::lanes {

// v clamped to T's range, compared in v's own type (which holds T's range):
// 32-bit arithmetic for narrow lanes keeps the loops vectorised.
template <typename T, typename V>
T sat(V v) {
  static_assert(std::in_range<V>(std::numeric_limits<T>::min()) && std::in_range<V>(std::numeric_limits<T>::max()));
  constexpr V lo = static_cast<V>(std::numeric_limits<T>::min());
  constexpr V hi = static_cast<V>(std::numeric_limits<T>::max());
  return static_cast<T>(std::clamp(v, lo, hi));
}

// Byte k (0 = least significant) of a scalar, signed or unsigned.
inline int8_t byte(int32_t rt, unsigned k) { return static_cast<int8_t>(static_cast<uint32_t>(rt) >> (8 * (k & 3))); }
inline uint8_t ubyte(int32_t rt, unsigned k) { return static_cast<uint8_t>(static_cast<uint32_t>(rt) >> (8 * (k & 3))); }
// Half k of a scalar.
inline int16_t half(int32_t rt, unsigned k) { return static_cast<int16_t>(static_cast<uint32_t>(rt) >> (16 * (k & 1))); }
inline uint16_t uhalf(int32_t rt, unsigned k) {
  return static_cast<uint16_t>(static_cast<uint32_t>(rt) >> (16 * (k & 1)));
}
// Half k (0..3) of a 64-bit scalar given as its low and high words.
inline int16_t half64(int32_t lo, int32_t hi, unsigned k) { return half(k < 2 ? lo : hi, k & 1); }
inline uint16_t uhalf64(int32_t lo, int32_t hi, unsigned k) { return uhalf(k < 2 ? lo : hi, k & 1); }

// Wrap-around to a lane type (two's complement truncation).
template <typename T>
T wrap(int64_t v) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<uint64_t>(v)));
}

// Leading bits equal to the top bit, counted over `bits` bits (HVX's cl1 of
// the value or of its complement).
inline int leading_ones(uint32_t v, int bits) {
  int n = 0;
  for (int i = bits - 1; i >= 0 && ((v >> i) & 1u) != 0; --i) ++n;
  return n;
}

}  // namespace oprig::hvx::lanes
