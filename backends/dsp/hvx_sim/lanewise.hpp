// Loops the element-wise instructions share: d = f(a) or d = f(a, b) lane by
// lane over a vector, or over both vectors of a pair.
#pragma once

#include <cstddef>

#include "hvx_sim/instruction.hpp"

namespace oprig::hvx {

// d.Dst[i] = f(a.Src[i]) for the lanes of `vectors` vectors (1, or 2 for a pair).
template <typename Dst, typename Src, typename F>
void map1(Operands& o, F f, size_t vectors = 1) {
  static_assert(sizeof(Dst) == sizeof(Src));
  for (size_t i = 0; i < vectors * kLanes<Src>; ++i) o.d.set<Dst>(i, static_cast<Dst>(f(o.a.get<Src>(i))));
}

// d.Dst[i] = f(a.Src[i], b.Src2[i]).
template <typename Dst, typename Src, typename Src2 = Src, typename F>
void map2(Operands& o, F f, size_t vectors = 1) {
  static_assert(sizeof(Dst) == sizeof(Src) && sizeof(Src) == sizeof(Src2));
  for (size_t i = 0; i < vectors * kLanes<Src>; ++i)
    o.d.set<Dst>(i, static_cast<Dst>(f(o.a.get<Src>(i), o.b.get<Src2>(i))));
}

}  // namespace oprig::hvx
