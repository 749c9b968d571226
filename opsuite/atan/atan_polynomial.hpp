// The fp32 atan approximation shared by the cpu kernel's scalar and AVX2 paths.
// Range reduction to |r| <= tan(pi/8):
//   |t| > tan(3pi/8):  atan|t| = pi/2 + atan(-1/|t|)
//   |t| > tan(pi/8):   atan|t| = pi/4 + atan((|t|-1)/(|t|+1))
// then an odd degree-9 polynomial (Cephes atanf coefficients, relative error
// about 1e-7 on the reduced range). The pi/2 and pi/4 offsets are added as a
// float pair (hi + lo) so the constant's own rounding does not eat the budget:
// the measured bound over fp32 is below 3 ulp (see tests/opsuite/).
// One division per element: the numerator and denominator are selected first.
#pragma once

namespace oprig::opsuite::atan_poly {

inline constexpr float kTan3PiOver8 = 2.414213562373095f;
inline constexpr float kTanPiOver8 = 0.4142135623730950f;
inline constexpr float kPiOver2Hi = 1.57079637050628662109375f;
inline constexpr float kPiOver2Lo = -4.37113900018624283e-8f;
inline constexpr float kPiOver4Hi = 0.785398185253143310546875f;
inline constexpr float kPiOver4Lo = -2.18556950009312142e-8f;
inline constexpr float kC3 = 8.05374449538e-2f;
inline constexpr float kC2 = -1.38776856032e-1f;
inline constexpr float kC1 = 1.99777106478e-1f;
inline constexpr float kC0 = -3.33329491539e-1f;

}  // namespace oprig::opsuite::atan_poly
