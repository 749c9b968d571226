// What the device kernels of Quantize (opencl.cl, vulkan.comp) need to know
// about the output's scale: its bits (the exact path divides the integer
// mantissas) and, for the fast path, r = RN(1 / scale). The fast path is
// taken only for scales in [2^-100, 2^100]: there r is a normal float, x * r
// cannot lose a code to a flushed denormal (|x / scale| < 2^-26 for a
// denormal x) and the kernels' error bound holds. 1 / scale in double,
// rounded to float, is RN(1 / scale): the double quotient is within 2^-53 of
// 1 / scale, which lies at least about 2^-49 from any midpoint between floats
// (s m = 1 has no solution with s a float and m a midpoint), so the second
// rounding cannot move it.
#pragma once

#include <bit>
#include <cstdint>

namespace oprig::opsuite {

// |zero point| at most 2^24: adding it to a rounded quotient is exact (the cpu kernel's limit too).
inline constexpr int32_t kMaxQuantizeZeroPoint = 1 << 24;

struct QuantizeScale {
  uint32_t bits = 0;
  float reciprocal = 0;
  bool fast = false;
};

inline QuantizeScale quantize_scale(float scale) {
  QuantizeScale s;
  s.bits = std::bit_cast<uint32_t>(scale);
  s.fast = scale >= 0x1p-100f && scale <= 0x1p100f;
  s.reciprocal = s.fast ? static_cast<float>(1.0 / static_cast<double>(scale)) : 0.0f;
  return s;
}

}  // namespace oprig::opsuite
