// Division of 32-bit numerators by a divisor the host knows, as a
// multiply-high, an add and two shifts (Granlund and Montgomery, "Division by
// invariant integers using multiplication", PLDI 1994, figure 4.1: the
// round-up multiplier with one more bit, kept as 32 bits plus the add):
// exact for every numerator and every divisor >= 1. Device kernels find a
// work-item's row and column with it instead of a division, which CPU drivers
// (PoCL, lavapipe) cannot vectorise and GPUs run as a long instruction
// sequence. opencl/fast_divide.cl and glsl/fast_divide.glsl are the device
// halves (oprig_divide); used by the block copy (device_copy.hpp).
#pragma once

#include <cstdint>

namespace oprig::opsuite {

struct FastDivisor {  // the layout of oprig_divisor on both APIs
  uint32_t divisor = 1, magic = 1, shift1 = 0, shift2 = 0;
};

inline FastDivisor fast_divisor(uint32_t d) {
  uint32_t l = 0;  // ceil(log2(d))
  while (l < 32 && (uint64_t{1} << l) < d) ++l;
  FastDivisor f;
  f.divisor = d;
  // floor(2^32 * (2^l - d) / d) + 1: below 2^32, since 2^l - d < d
  f.magic = static_cast<uint32_t>((((uint64_t{1} << l) - d) << 32) / d + 1);
  f.shift1 = l == 0 ? 0 : 1;
  f.shift2 = l == 0 ? 0 : l - 1;
  return f;
}

// What oprig_divide computes on the device.
inline uint32_t fast_divide(uint32_t n, const FastDivisor& f) {
  const auto t = static_cast<uint32_t>((uint64_t{n} * f.magic) >> 32);
  return (t + ((n - t) >> f.shift1)) >> f.shift2;
}

}  // namespace oprig::opsuite
