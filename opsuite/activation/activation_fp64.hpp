// Activation in fp64, as the reference (reference.cpp) computes it and the dsp
// kernel (dsp.cpp) builds its UINT_8 table at prepare: each function straight from its definition,
// in double, with the limits at +-infinity the spec states written out
// (x * sigmoid(x) is NaN at -infinity in IEEE arithmetic; the limit is 0).
// Two formulas are rearranged, exactly, so that double does not cancel where
// fp32 results are still far from zero:
//   GELU_ERF:  0.5 x (1 + erf(x / sqrt 2)) = 0.5 x erfc(-x / sqrt 2)
//   GELU_TANH: 0.5 x (1 + tanh(u))         = x / (1 + exp(-2u))
// (1 + erf and 1 + tanh lose every digit near -1, e.g. for x < -6.)
// GELU_TANH is evaluated in long double (see there).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <string_view>

namespace oprig::opsuite {

inline double sigmoid_fp64(double x) { return 1.0 / (1.0 + std::exp(-x)); }

inline double activation_fp64(std::string_view mode, double x) {
  if (std::isnan(x)) return x;
  const bool negative_infinity = x == -std::numeric_limits<double>::infinity();
  if (mode == "RELU") return x > 0 ? x : 0.0;
  if (mode == "RELU6") return x > 0 ? std::min(x, 6.0) : 0.0;
  if (mode == "SIGMOID") return sigmoid_fp64(x);
  if (mode == "TANH") return std::tanh(x);
  if (mode == "GELU_ERF") return negative_infinity ? 0.0 : 0.5 * x * std::erfc(-x / std::sqrt(2.0));
  if (mode == "GELU_TANH") {
    // In long double: exp(-2u) magnifies the rounding error of u by |2u|
    // (up to about 90 before the fp32 result vanishes); 64 bits keep the
    // result within an fp64 ulp.
    if (negative_infinity) return 0.0;
    const long double xl = x;
    const long double u = std::sqrt(2.0L / std::numbers::pi_v<long double>) * (xl + 0.044715L * xl * xl * xl);
    return static_cast<double>(xl / (1.0L + std::exp(-2.0L * u)));
  }
  if (mode == "SILU") return negative_infinity ? 0.0 : x * sigmoid_fp64(x);
  if (mode == "HARD_SWISH") return x <= -3 ? 0.0 : x * std::min(x + 3.0, 6.0) / 6.0;
  throw std::invalid_argument("unknown Activation mode '" + std::string(mode) + "'");
}

}  // namespace oprig::opsuite
