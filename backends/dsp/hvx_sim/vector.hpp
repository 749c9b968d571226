// The register file of the simulated HVX unit in its 128-byte mode, as the
// instruction semantics see it: a register holds a vector (128 bytes), a
// vector pair (256 bytes: lo() then hi(), HVX's v[0] and v[1]) or a
// predicate (128 bytes, one per lane bit: 0 clear, any other value set; the
// simulator writes 0xFF for set, as C code for Hexagon sees a predicate).
// Lanes are little-endian views of the bytes. Registers are the kernel's C
// values (HVX_Vector, ...): the simulator only views them (Reg).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace oprig::hvx {

inline constexpr size_t kVectorBytes = 128;

// A view of one operand or the result of an instruction: the caller's bytes
// (oprig_dsp.h's exec() passes pointers), read and written in place, never
// copied. Bytes are read and written through memcpy, so any object may be
// viewed.
struct Reg {
  uint8_t* bytes = nullptr;

  // Lane i of the whole register (a pair continues into its second vector).
  template <typename Lane>
  Lane get(size_t i) const {
    Lane v;
    std::memcpy(&v, bytes + i * sizeof(Lane), sizeof(Lane));
    return v;
  }
  template <typename Lane>
  void set(size_t i, Lane v) const {
    std::memcpy(bytes + i * sizeof(Lane), &v, sizeof(Lane));
  }
  // Lane i of vector `half` (0: lo, 1: hi) of a pair.
  template <typename Lane>
  Lane get(size_t half, size_t i) const {
    return get<Lane>(half * (kVectorBytes / sizeof(Lane)) + i);
  }
  template <typename Lane>
  void set(size_t half, size_t i, Lane v) const {
    set<Lane>(half * (kVectorBytes / sizeof(Lane)) + i, v);
  }
  bool bit(size_t i) const { return bytes[i] != 0; }  // predicate bit i
  void set_bit(size_t i, bool v) const { bytes[i] = v ? 0xFF : 0x00; }
};

template <typename Lane>
inline constexpr size_t kLanes = kVectorBytes / sizeof(Lane);

}  // namespace oprig::hvx
