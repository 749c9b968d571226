// Vector ALU instructions: splat, saturating add/sub, min/max, bitwise,
// compares into predicates and the byte-wise select. One ALU unit each.
#include <algorithm>

#include "hvx_sim/core.hpp"
#include "hvx_sim/lane_math.hpp"

namespace oprig::hvx {
namespace {

template <typename Lane, typename Fn>
Vec lanewise(const Vec& a, const Vec& b, Fn fn) {
  Vec r;
  for (size_t i = 0; i < Vec::lanes<Lane>(); ++i)
    r.set_lane<Lane>(i, fn(a.lane<Lane>(i), b.lane<Lane>(i)));
  return r;
}

template <typename Lane>
Vec add_sat(const Vec& a, const Vec& b) {
  return lanewise<Lane>(a, b, [](Lane x, Lane y) { return lane::saturate<Lane>(int64_t{x} + y); });
}

template <typename Lane>
Vec sub_sat(const Vec& a, const Vec& b) {
  return lanewise<Lane>(a, b, [](Lane x, Lane y) { return lane::saturate<Lane>(int64_t{x} - y); });
}

Vec add_wrap_w(const Vec& a, const Vec& b, bool subtract) {
  return lanewise<int32_t>(a, b, [subtract](int32_t x, int32_t y) {
    const auto ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
    return static_cast<int32_t>(subtract ? ux - uy : ux + uy);
  });
}

template <typename Lane>
Vec min_of(const Vec& a, const Vec& b) {
  return lanewise<Lane>(a, b, [](Lane x, Lane y) { return std::min(x, y); });
}

template <typename Lane>
Vec max_of(const Vec& a, const Vec& b) {
  return lanewise<Lane>(a, b, [](Lane x, Lane y) { return std::max(x, y); });
}

// Sets every byte of lane i to the comparison's result, as HVX predicates do.
template <typename Lane, typename Fn>
Pred compare(const Vec& a, const Vec& b, Fn fn) {
  Pred q;
  for (size_t i = 0; i < Vec::lanes<Lane>(); ++i) {
    const bool bit = fn(a.lane<Lane>(i), b.lane<Lane>(i));
    for (size_t k = 0; k < sizeof(Lane); ++k) q.bits[i * sizeof(Lane) + k] = bit;
  }
  return q;
}

}  // namespace

#define OPRIG_HVX_ALU2(name, expr)                          \
  Vec Core::name(const Vec& a, const Vec& b) {              \
    Vec r = expr;                                           \
    r.stamp = issue(Resource::kAlu, 1, {a.stamp, b.stamp}); \
    return r;                                               \
  }

OPRIG_HVX_ALU2(add_sat_ub, add_sat<uint8_t>(a, b))
OPRIG_HVX_ALU2(sub_sat_ub, sub_sat<uint8_t>(a, b))
OPRIG_HVX_ALU2(add_sat_b, add_sat<int8_t>(a, b))
OPRIG_HVX_ALU2(sub_sat_b, sub_sat<int8_t>(a, b))
OPRIG_HVX_ALU2(add_sat_h, add_sat<int16_t>(a, b))
OPRIG_HVX_ALU2(sub_sat_h, sub_sat<int16_t>(a, b))
OPRIG_HVX_ALU2(add_sat_w, add_sat<int32_t>(a, b))
OPRIG_HVX_ALU2(sub_sat_w, sub_sat<int32_t>(a, b))
OPRIG_HVX_ALU2(add_w, add_wrap_w(a, b, false))
OPRIG_HVX_ALU2(sub_w, add_wrap_w(a, b, true))
OPRIG_HVX_ALU2(min_ub, min_of<uint8_t>(a, b))
OPRIG_HVX_ALU2(max_ub, max_of<uint8_t>(a, b))
OPRIG_HVX_ALU2(min_b, min_of<int8_t>(a, b))
OPRIG_HVX_ALU2(max_b, max_of<int8_t>(a, b))
OPRIG_HVX_ALU2(min_h, min_of<int16_t>(a, b))
OPRIG_HVX_ALU2(max_h, max_of<int16_t>(a, b))
OPRIG_HVX_ALU2(min_w, min_of<int32_t>(a, b))
OPRIG_HVX_ALU2(max_w, max_of<int32_t>(a, b))
OPRIG_HVX_ALU2(vor, lanewise<uint8_t>(a, b, [](uint8_t x, uint8_t y) { return uint8_t(x | y); }))
OPRIG_HVX_ALU2(vand, lanewise<uint8_t>(a, b, [](uint8_t x, uint8_t y) { return uint8_t(x & y); }))
#undef OPRIG_HVX_ALU2

#define OPRIG_HVX_CMP(name, Lane, op)                                          \
  Pred Core::name(const Vec& a, const Vec& b) {                                \
    Pred q = compare<Lane>(a, b, [](Lane x, Lane y) { return x op y; });       \
    q.stamp = issue(Resource::kAlu, 1, {a.stamp, b.stamp});                    \
    return q;                                                                  \
  }

OPRIG_HVX_CMP(cmp_gt_ub, uint8_t, >)
OPRIG_HVX_CMP(cmp_gt_b, int8_t, >)
OPRIG_HVX_CMP(cmp_gt_h, int16_t, >)
OPRIG_HVX_CMP(cmp_gt_w, int32_t, >)
OPRIG_HVX_CMP(cmp_eq_b, int8_t, ==)
OPRIG_HVX_CMP(cmp_eq_w, int32_t, ==)
#undef OPRIG_HVX_CMP

Vec Core::mux(const Pred& q, const Vec& a, const Vec& b) {
  Vec r;
  for (size_t i = 0; i < kVectorBytes; ++i) r.bytes[i] = q.bits[i] ? a.bytes[i] : b.bytes[i];
  r.stamp = issue(Resource::kAlu, 1, {q.stamp, a.stamp, b.stamp});
  return r;
}

Vec Core::splat_b(uint8_t value) {
  Vec r;
  r.bytes.fill(value);
  r.stamp = issue(Resource::kAlu, 1, {});
  return r;
}

Vec Core::splat_h(int16_t value) {
  Vec r;
  for (size_t i = 0; i < Vec::lanes<int16_t>(); ++i) r.set_lane<int16_t>(i, value);
  r.stamp = issue(Resource::kAlu, 1, {});
  return r;
}

Vec Core::splat_w(int32_t value) {
  Vec r;
  for (size_t i = 0; i < Vec::lanes<int32_t>(); ++i) r.set_lane<int32_t>(i, value);
  r.stamp = issue(Resource::kAlu, 1, {});
  return r;
}

Pred Core::setq(size_t n) {
  Pred q;
  const size_t count = n % kVectorBytes;
  for (size_t i = 0; i < count; ++i) q.bits[i] = true;
  q.stamp = issue(Resource::kAlu, 1, {});
  return q;
}

}  // namespace oprig::hvx
