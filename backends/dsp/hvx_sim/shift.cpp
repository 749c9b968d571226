// Shifts: narrowing arithmetic shifts with rounding and saturation (vasr
// :rnd:sat) and gemmlowp's RoundingDivideByPOT.
#include <stdexcept>

#include "hvx_sim/core.hpp"
#include "hvx_sim/lane_math.hpp"

namespace oprig::hvx {
namespace {

template <typename Wide, typename Narrow>
Vec narrow(const Vec& lo, const Vec& hi, uint32_t shift) {
  if (shift >= 8 * sizeof(Wide)) throw std::invalid_argument("vasr: shift out of range");
  Vec r;
  constexpr size_t n = Vec::lanes<Wide>();
  for (size_t i = 0; i < 2 * n; ++i) {
    const Wide v = i < n ? lo.lane<Wide>(i) : hi.lane<Wide>(i - n);
    r.set_lane<Narrow>(i, lane::saturate<Narrow>(lane::shift_right_round(v, shift)));
  }
  return r;
}

}  // namespace

Vec Core::asr_w_to_h_rnd_sat(const Vec& lo, const Vec& hi, uint32_t shift) {
  Vec r = narrow<int32_t, int16_t>(lo, hi, shift);
  r.stamp = issue(Resource::kShift, 1, {lo.stamp, hi.stamp});
  return r;
}

Vec Core::asr_h_to_ub_rnd_sat(const Vec& lo, const Vec& hi, uint32_t shift) {
  Vec r = narrow<int16_t, uint8_t>(lo, hi, shift);
  r.stamp = issue(Resource::kShift, 1, {lo.stamp, hi.stamp});
  return r;
}

Vec Core::asr_h_to_b_rnd_sat(const Vec& lo, const Vec& hi, uint32_t shift) {
  Vec r = narrow<int16_t, int8_t>(lo, hi, shift);
  r.stamp = issue(Resource::kShift, 1, {lo.stamp, hi.stamp});
  return r;
}

Vec Core::rdbpot_w(const Vec& x, uint32_t exponent) {
  if (exponent > 31) throw std::invalid_argument("rdbpot: exponent out of range");
  Vec r;
  for (size_t i = 0; i < Vec::lanes<int32_t>(); ++i)
    r.set_lane<int32_t>(i, lane::rounding_divide_by_pot(x.lane<int32_t>(i), exponent));
  // vasr and the remainder-vs-threshold compare in parallel, then the add.
  const Stamp shifted = issue(Resource::kShift, 1, {x.stamp});
  const Stamp rounding = issue(Resource::kAlu, 1, {x.stamp});
  r.stamp = issue(Resource::kAlu, 1, {shifted, rounding});
  return r;
}

}  // namespace oprig::hvx
