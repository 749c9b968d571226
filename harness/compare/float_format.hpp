// The binary floating-point formats kernels write (fp16, fp32, fp64), and the
// two operations the comparator needs on them: rounding an exact (fp64)
// reference value into the format, and the size of one ulp there.
#pragma once

#include <cmath>
#include <optional>

#include "oprig/oprig_package.h"

namespace oprig::compare {

struct FloatFormat {
  int mantissa_bits;  // p: stored fraction bits (23 for fp32)
  int min_exponent;   // emin: exponent of the smallest normal (-126 for fp32)
  int max_exponent;   // emax: exponent of the largest finite (127 for fp32)

  // Largest finite value, (2 - 2^-p) * 2^emax.
  double max_finite() const {
    return std::ldexp(2.0 - std::ldexp(1.0, -mantissa_bits), max_exponent);
  }
  // The value the comparator stands in for +Inf when a reference lies beyond
  // max_finite(): 2^(emax+1), i.e. one ulp above max_finite().
  double infinity_stand_in() const { return std::ldexp(1.0, max_exponent + 1); }
};

inline constexpr FloatFormat kFloat16{10, -14, 15};
inline constexpr FloatFormat kFloat32{23, -126, 127};
inline constexpr FloatFormat kFloat64{52, -1022, 1023};

inline std::optional<FloatFormat> float_format_of(oprig_dtype dtype) {
  switch (dtype) {
    case OPRIG_DTYPE_FLOAT_16: return kFloat16;
    case OPRIG_DTYPE_FLOAT_32: return kFloat32;
    case OPRIG_DTYPE_FLOAT_64: return kFloat64;
    default: return std::nullopt;
  }
}

// floor(log2|x|) for finite x != 0, exact (frexp gives x = m * 2^k, m in [0.5, 1)).
inline int binary_exponent(double x) {
  int k = 0;
  std::frexp(x, &k);
  return k - 1;
}

// The ulp of the format at the (exact) value x:
//   ulp(x) = 2^(max(e, emin) - p),  e = floor(log2|x|),
// so every subnormal and zero share the smallest step 2^(emin - p) (2^-149 for
// fp32), and a value beyond max_finite() keeps the top binade's step
// 2^(emax - p). Infinite or NaN x has no ulp (returns NaN).
inline double ulp_at(double x, const FloatFormat& format) {
  if (!std::isfinite(x)) return NAN;
  int e = x == 0.0 ? format.min_exponent : binary_exponent(x);
  if (e < format.min_exponent) e = format.min_exponent;
  if (e > format.max_exponent) e = format.max_exponent;
  return std::ldexp(1.0, e - format.mantissa_bits);
}

// x rounded to the format, to nearest with ties to even, in one step (no
// double rounding through fp32 for fp16). Overflows to ±Inf exactly when
// IEEE 754 would: when the rounded magnitude exceeds max_finite().
// The result is returned as a double (every value of the format is one).
inline double round_to_format(double x, const FloatFormat& format) {
  if (!std::isfinite(x) || x == 0.0) return x;
  const double step = ulp_at(std::fabs(x) > format.max_finite() ? format.max_finite() : x, format);
  // x / step is exact (a power-of-two scaling that stays normal in double for
  // the formats above); nearbyint rounds to even in the default mode.
  double rounded = std::nearbyint(x / step) * step;
  if (std::fabs(rounded) > format.max_finite()) rounded = std::copysign(INFINITY, x);
  return rounded;
}

}  // namespace oprig::compare
