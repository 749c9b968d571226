// Vector multiplies: widening products (both MULTIPLY units) and the
// gemmlowp-style SaturatingRoundingDoublingHighMul (two dependent halves).
#include "hvx_sim/core.hpp"
#include "hvx_sim/lane_math.hpp"

namespace oprig::hvx {
namespace {

// Product lane i of a widening multiply goes to lo (first half) or hi.
template <typename Wide>
void put_widened(VecPair& out, size_t i, Wide value) {
  constexpr size_t half = Vec::lanes<Wide>();
  if (i < half)
    out.lo.set_lane<Wide>(i, value);
  else
    out.hi.set_lane<Wide>(i - half, value);
}

template <typename Wide>
Wide get_widened(const VecPair& pair, size_t i) {
  constexpr size_t half = Vec::lanes<Wide>();
  return i < half ? pair.lo.lane<Wide>(i) : pair.hi.lane<Wide>(i - half);
}

// Wrap-around add of the accumulator, done in the unsigned type (defined).
template <typename Wide, typename Unsigned>
Wide wrap_add(Wide a, Wide b) {
  return static_cast<Wide>(static_cast<Unsigned>(static_cast<Unsigned>(a) + static_cast<Unsigned>(b)));
}

VecPair products_ub_b(const VecPair* acc, const Vec& a, const Vec& b) {
  VecPair r;
  for (size_t i = 0; i < kVectorBytes; ++i) {
    auto p = static_cast<int16_t>(int32_t{a.lane<uint8_t>(i)} * int32_t{b.lane<int8_t>(i)});
    if (acc != nullptr) p = wrap_add<int16_t, uint16_t>(get_widened<int16_t>(*acc, i), p);
    put_widened<int16_t>(r, i, p);
  }
  return r;
}

VecPair products_h_h(const VecPair* acc, const Vec& a, const Vec& b) {
  VecPair r;
  for (size_t i = 0; i < Vec::lanes<int16_t>(); ++i) {
    auto p = int32_t{a.lane<int16_t>(i)} * int32_t{b.lane<int16_t>(i)};
    if (acc != nullptr) p = wrap_add<int32_t, uint32_t>(get_widened<int32_t>(*acc, i), p);
    put_widened<int32_t>(r, i, p);
  }
  return r;
}

void set_stamp(VecPair& pair, Stamp s) {
  pair.lo.stamp = s;
  pair.hi.stamp = s;
}

}  // namespace

VecPair Core::mpy_ub_b(const Vec& a, const Vec& b) {
  VecPair r = products_ub_b(nullptr, a, b);
  set_stamp(r, issue(Resource::kMultiply, 2, {a.stamp, b.stamp}));
  return r;
}

VecPair Core::mpy_acc_ub_b(const VecPair& acc, const Vec& a, const Vec& b) {
  VecPair r = products_ub_b(&acc, a, b);
  set_stamp(r, issue(Resource::kMultiply, 2, {acc.lo.stamp, acc.hi.stamp, a.stamp, b.stamp}));
  return r;
}

VecPair Core::mpy_h_h(const Vec& a, const Vec& b) {
  VecPair r = products_h_h(nullptr, a, b);
  set_stamp(r, issue(Resource::kMultiply, 2, {a.stamp, b.stamp}));
  return r;
}

VecPair Core::mpy_acc_h_h(const VecPair& acc, const Vec& a, const Vec& b) {
  VecPair r = products_h_h(&acc, a, b);
  set_stamp(r, issue(Resource::kMultiply, 2, {acc.lo.stamp, acc.hi.stamp, a.stamp, b.stamp}));
  return r;
}

Vec Core::srdhm_w(const Vec& a, const Vec& b) {
  Vec r;
  for (size_t i = 0; i < Vec::lanes<int32_t>(); ++i)
    r.set_lane<int32_t>(i, lane::saturating_rounding_doubling_high_mul(a.lane<int32_t>(i),
                                                                        b.lane<int32_t>(i)));
  // vmpye, then vmpyo:<<1:rnd:sat accumulating into its result.
  const Stamp even = issue(Resource::kMultiply, 1, {a.stamp, b.stamp});
  r.stamp = issue(Resource::kMultiply, 1, {even, a.stamp, b.stamp});
  return r;
}

Vec Core::mpyi_w(const Vec& a, const Vec& b) {
  Vec r;
  for (size_t i = 0; i < Vec::lanes<int32_t>(); ++i)
    r.set_lane<int32_t>(i, static_cast<int32_t>(static_cast<uint32_t>(a.lane<int32_t>(i)) *
                                                static_cast<uint32_t>(b.lane<int32_t>(i))));
  // vmpyieo, then vmpyie accumulating into its result.
  const Stamp first = issue(Resource::kMultiply, 1, {a.stamp, b.stamp});
  r.stamp = issue(Resource::kMultiply, 1, {first, a.stamp, b.stamp});
  return r;
}

}  // namespace oprig::hvx
