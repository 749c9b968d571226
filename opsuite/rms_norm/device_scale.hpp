// The largest power-of-two scale-up the device kernels (opencl.cl,
// vulkan.glsl) may give a row of tiny values before squaring it: k with
// epsilon 4^k <= 2^100, so that epsilon s^2 (added to the scaled mean
// square) stays a finite float; 126 when epsilon is 0.
#pragma once

#include <algorithm>
#include <cmath>

namespace oprig::opsuite {

inline int rms_norm_max_up(float epsilon) {
  if (!(epsilon > 0)) return 126;
  int exponent = 0;
  std::frexp(epsilon, &exponent);  // epsilon < 2^exponent
  return std::clamp((100 - exponent) / 2, 0, 126);
}

}  // namespace oprig::opsuite
