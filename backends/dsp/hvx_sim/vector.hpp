// The register file of the simulated HVX-like vector unit: 128-byte vectors
// (HVX 128B mode), vector pairs and per-byte predicates. Registers are values
// here: a kernel holds them in C++ variables and the Core computes on them.
// Each value also carries a Stamp, the simulator's scoreboard entry: when its
// producer's result is ready and which packet produced it. Stamps never change
// the bits, only the cycle count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace oprig::hvx {

inline constexpr size_t kVectorBytes = 128;

// Scoreboard entry of a register value. packet 0 means "not produced by an
// instruction" (a constant built by the host), ready 0 means "ready at once".
struct Stamp {
  uint64_t ready = 0;
  uint64_t packet = 0;
};

// One 128-byte vector register. Lanes are little-endian views of the bytes:
// 128 x uint8/int8, 64 x int16/uint16, 32 x int32.
struct Vec {
  alignas(kVectorBytes) std::array<uint8_t, kVectorBytes> bytes{};
  Stamp stamp;

  template <typename Lane>
  static constexpr size_t lanes() {
    return kVectorBytes / sizeof(Lane);
  }
  template <typename Lane>
  Lane lane(size_t i) const {
    Lane v;
    std::memcpy(&v, bytes.data() + i * sizeof(Lane), sizeof(Lane));
    return v;
  }
  template <typename Lane>
  void set_lane(size_t i, Lane v) {
    std::memcpy(bytes.data() + i * sizeof(Lane), &v, sizeof(Lane));
  }
};

// A register pair (Vdd): results of widening operations. The simulator's lane
// order is linear, not HVX's even/odd interleave: for a widening op on source
// lanes 0..N-1, lo holds the results of lanes 0..N/2-1 and hi of N/2..N-1.
struct VecPair {
  Vec lo;
  Vec hi;
};

// A predicate register (Q): one bit per vector byte. Compares on wider lanes
// set or clear all the bytes of a lane together, as on HVX.
struct Pred {
  std::array<bool, kVectorBytes> bits{};
  Stamp stamp;
};

}  // namespace oprig::hvx
