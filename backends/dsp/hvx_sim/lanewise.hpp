// Loops the element-wise instructions share: d = f(a) or d = f(a, b) lane by
// lane over a vector, or over both vectors of a pair. The operands are copied
// into local arrays first: the compiler then knows they do not overlap the
// result and vectorises the loop (these are the simulator's hot path).
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "hvx_sim/instruction.hpp"

namespace oprig::hvx {

// Arithmetic wide enough for two lanes of T: int for 8- and 16-bit lanes
// (so loops vectorise in 32-bit lanes), 64 bits for words.
template <typename T>
using Wide = std::conditional_t<(sizeof(T) < 4), int32_t, int64_t>;

// d.Dst[i] = f(a.Src[i]) for the lanes of `vectors` vectors (1, or 2 for a pair).
template <typename Dst, typename Src, typename F>
void map1(Operands& o, F f, size_t vectors = 1) {
  static_assert(sizeof(Dst) == sizeof(Src));
  constexpr size_t n = kLanes<Src>;
  for (size_t v = 0; v < vectors; ++v) {
    Src a[n];
    Dst d[n];
    std::memcpy(a, o.a.bytes + v * kVectorBytes, kVectorBytes);
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<Dst>(f(a[i]));
    std::memcpy(o.d.bytes + v * kVectorBytes, d, kVectorBytes);
  }
}

// d.Dst[i] = f(a.Src[i], b.Src2[i]).
template <typename Dst, typename Src, typename Src2 = Src, typename F>
void map2(Operands& o, F f, size_t vectors = 1) {
  static_assert(sizeof(Dst) == sizeof(Src) && sizeof(Src) == sizeof(Src2));
  constexpr size_t n = kLanes<Src>;
  for (size_t v = 0; v < vectors; ++v) {
    Src a[n];
    Src2 b[n];
    Dst d[n];
    std::memcpy(a, o.a.bytes + v * kVectorBytes, kVectorBytes);
    std::memcpy(b, o.b.bytes + v * kVectorBytes, kVectorBytes);
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<Dst>(f(a[i], b[i]));
    std::memcpy(o.d.bytes + v * kVectorBytes, d, kVectorBytes);
  }
}

}  // namespace oprig::hvx
