// Random and edge-filled vectors for the simulator tests.
#pragma once

#include <cstdint>
#include <limits>
#include <random>

#include "hvx_sim/vector.hpp"

namespace oprig::hvx::testing {

inline Vec random_vec(std::mt19937& rng) {
  Vec v;
  for (auto& b : v.bytes) b = static_cast<uint8_t>(rng());
  return v;
}

// Lanes of type Lane cycle through min, max, min+1, max-1, 0, -1/1 and then
// random values, so saturation edges meet each other in every op.
template <typename Lane>
Vec edge_vec(std::mt19937& rng, size_t rotate) {
  using L = std::numeric_limits<Lane>;
  const Lane edges[] = {L::min(), L::max(), static_cast<Lane>(L::min() + 1),
                        static_cast<Lane>(L::max() - 1), Lane{0}, static_cast<Lane>(-1),
                        Lane{1}};
  constexpr size_t kEdges = sizeof(edges) / sizeof(edges[0]);
  Vec v = random_vec(rng);
  for (size_t i = 0; i < Vec::lanes<Lane>(); ++i)
    if ((i + rotate) % 2 == 0) v.set_lane<Lane>(i, edges[(i / 2 + rotate) % kEdges]);
  return v;
}

}  // namespace oprig::hvx::testing
