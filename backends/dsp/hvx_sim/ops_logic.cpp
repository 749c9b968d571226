// Bitwise logic, predicate logic, vector <-> predicate conversion, compares
// and selects. A predicate has one bit per vector byte; a compare on wider
// lanes sets or clears every byte of the lane.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hvx_sim/lanes.hpp"
#include "hvx_sim/lanewise.hpp"

namespace oprig::hvx {
namespace {

template <typename F>
void bits2(Operands& o, F f) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.set_bit(i, f(o.a.bit(i), o.b.bit(i)));
}

enum class Accumulate { kNone, kAnd, kOr, kXor };

// Qd = vcmp(Vu, Vv), or Qx &=, |=, ^= it (operands then: a = Qx, b = Vu, c = Vv).
template <typename Lane, typename Cmp>
void compare(Operands& o, Accumulate acc, Cmp cmp) {
  constexpr size_t n = kLanes<Lane>;
  Lane u[n], v[n];
  uint8_t x[kVectorBytes], d[kVectorBytes];
  std::memcpy(u, (acc == Accumulate::kNone ? o.a : o.b).bytes, kVectorBytes);
  std::memcpy(v, (acc == Accumulate::kNone ? o.b : o.c).bytes, kVectorBytes);
  // All ones or zero in the lane's own width, so the loop vectorises.
  using Mask = std::make_unsigned_t<Lane>;
  Mask m[n];
  for (size_t i = 0; i < n; ++i) m[i] = cmp(u[i], v[i]) ? static_cast<Mask>(~Mask{0}) : Mask{0};
  std::memcpy(d, m, kVectorBytes);
  if (acc != Accumulate::kNone) {
    std::memcpy(x, o.a.bytes, kVectorBytes);
    for (size_t i = 0; i < kVectorBytes; ++i) {
      const uint8_t xi = x[i] != 0 ? 0xFF : 0x00;
      d[i] = acc == Accumulate::kAnd ? (xi & d[i]) : acc == Accumulate::kOr ? (xi | d[i]) : (xi ^ d[i]);
    }
  }
  std::memcpy(o.d.bytes, d, kVectorBytes);
}

constexpr auto kGreater = [](auto x, auto y) { return x > y; };
constexpr auto kEqual = [](auto x, auto y) { return x == y; };

}  // namespace

OPRIG_HVX_OP(Q6_V_vand_VV) { map2<uint8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return x & y; }); }
OPRIG_HVX_OP(Q6_V_vor_VV) { map2<uint8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return x | y; }); }
OPRIG_HVX_OP(Q6_V_vxor_VV) { map2<uint8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return x ^ y; }); }
OPRIG_HVX_OP(Q6_V_vnot_V) { map1<uint8_t, uint8_t>(o, [](uint8_t x) { return static_cast<uint8_t>(~x); }); }

OPRIG_HVX_OP(Q6_Q_and_QQ) { bits2(o, [](bool s, bool t) { return s && t; }); }
OPRIG_HVX_OP(Q6_Q_and_QQn) { bits2(o, [](bool s, bool t) { return s && !t; }); }
OPRIG_HVX_OP(Q6_Q_or_QQ) { bits2(o, [](bool s, bool t) { return s || t; }); }
OPRIG_HVX_OP(Q6_Q_or_QQn) { bits2(o, [](bool s, bool t) { return s || !t; }); }
OPRIG_HVX_OP(Q6_Q_xor_QQ) { bits2(o, [](bool s, bool t) { return s != t; }); }
OPRIG_HVX_OP(Q6_Q_not_Q) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.set_bit(i, !o.a.bit(i));
}
// Predicate shuffles: odd bits from Qs (one lane down), even bits from Qt.
OPRIG_HVX_OP(Q6_Qb_vshuffe_QhQh) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.set_bit(i, (i & 1) != 0 ? o.a.bit(i - 1) : o.b.bit(i));
}
OPRIG_HVX_OP(Q6_Qh_vshuffe_QwQw) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.set_bit(i, (i & 2) != 0 ? o.a.bit(i - 2) : o.b.bit(i));
}

// Running count of set bits, per byte, halfword (two bits) or word (four).
template <typename Lane>
void prefix_sum(Operands& o) {
  Lane acc = 0;
  for (size_t i = 0; i < kLanes<Lane>; ++i) {
    for (size_t k = 0; k < sizeof(Lane); ++k) acc = static_cast<Lane>(acc + (o.a.bit(i * sizeof(Lane) + k) ? 1 : 0));
    o.d.set<Lane>(i, acc);
  }
}
OPRIG_HVX_OP(Q6_Vb_prefixsum_Q) { prefix_sum<uint8_t>(o); }
OPRIG_HVX_OP(Q6_Vh_prefixsum_Q) { prefix_sum<uint16_t>(o); }
OPRIG_HVX_OP(Q6_Vw_prefixsum_Q) { prefix_sum<uint32_t>(o); }

// Predicate -> vector: byte i is byte (i mod 4) of Rt where bit i is set (or clear, for !Q).
OPRIG_HVX_OP(Q6_V_vand_QR) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.bytes[i] = o.a.bit(i) ? lanes::ubyte(o.r, i % 4) : 0;
}
OPRIG_HVX_OP(Q6_V_vand_QnR) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.bytes[i] = !o.a.bit(i) ? lanes::ubyte(o.r, i % 4) : 0;
}
OPRIG_HVX_OP(Q6_V_vandor_VQR) {
  for (size_t i = 0; i < kVectorBytes; ++i)
    o.d.bytes[i] = static_cast<uint8_t>(o.a.bytes[i] | (o.b.bit(i) ? lanes::ubyte(o.r, i % 4) : 0));
}
OPRIG_HVX_OP(Q6_V_vandor_VQnR) {
  for (size_t i = 0; i < kVectorBytes; ++i)
    o.d.bytes[i] = static_cast<uint8_t>(o.a.bytes[i] | (!o.b.bit(i) ? lanes::ubyte(o.r, i % 4) : 0));
}
// Vector -> predicate: bit i is (byte i & byte (i mod 4) of Rt) != 0.
OPRIG_HVX_OP(Q6_Q_vand_VR) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.set_bit(i, (o.a.bytes[i] & lanes::ubyte(o.r, i % 4)) != 0);
}
OPRIG_HVX_OP(Q6_Q_vandor_QVR) {
  for (size_t i = 0; i < kVectorBytes; ++i)
    o.d.set_bit(i, o.a.bit(i) || (o.b.bytes[i] & lanes::ubyte(o.r, i % 4)) != 0);
}
// Bytes where Q is set (vand(Q, V)) or clear (vand(!Q, V)), others 0.
OPRIG_HVX_OP(Q6_V_vand_QV) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.bytes[i] = o.a.bit(i) ? o.b.bytes[i] : 0;
}
OPRIG_HVX_OP(Q6_V_vand_QnV) {
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.bytes[i] = !o.a.bit(i) ? o.b.bytes[i] : 0;
}

// vsetq(Rt): bytes [0, Rt mod 128); vsetq2(Rt): bytes [0, ((Rt - 1) mod 128) + 1).
OPRIG_HVX_OP(Q6_Q_vsetq_R) {
  const uint32_t n = static_cast<uint32_t>(o.r) & 127;
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.set_bit(i, i < n);
}
OPRIG_HVX_OP(Q6_Q_vsetq2_R) {
  const uint32_t last = (static_cast<uint32_t>(o.r) - 1) & 127;
  for (size_t i = 0; i < kVectorBytes; ++i) o.d.set_bit(i, i <= last);
}

OPRIG_HVX_OP(Q6_V_vmux_QVV) {
  // On local copies: the operands are views the compiler must assume
  // overlap, and the byte loop vectorises only on arrays it owns.
  uint8_t q[kVectorBytes], u[kVectorBytes], v[kVectorBytes], d[kVectorBytes];
  std::memcpy(q, o.a.bytes, kVectorBytes);
  std::memcpy(u, o.b.bytes, kVectorBytes);
  std::memcpy(v, o.c.bytes, kVectorBytes);
  for (size_t i = 0; i < kVectorBytes; ++i) d[i] = q[i] != 0 ? u[i] : v[i];
  std::memcpy(o.d.bytes, d, kVectorBytes);
}
// vswap: lo() = Q ? Vu : Vv, hi() the other.
OPRIG_HVX_OP(Q6_W_vswap_QVV) {
  uint8_t q[kVectorBytes], u[kVectorBytes], v[kVectorBytes], d[2 * kVectorBytes];
  std::memcpy(q, o.a.bytes, kVectorBytes);
  std::memcpy(u, o.b.bytes, kVectorBytes);
  std::memcpy(v, o.c.bytes, kVectorBytes);
  for (size_t i = 0; i < kVectorBytes; ++i) {
    d[i] = q[i] != 0 ? u[i] : v[i];
    d[kVectorBytes + i] = q[i] != 0 ? v[i] : u[i];
  }
  std::memcpy(o.d.bytes, d, 2 * kVectorBytes);
}

#define OPRIG_HVX_COMPARES(T, Lane, cmp, Cmp)                                                                \
  OPRIG_HVX_OP(Q6_Q_vcmp_##cmp##_V##T##V##T) { compare<Lane>(o, Accumulate::kNone, Cmp); }                 \
  OPRIG_HVX_OP(Q6_Q_vcmp_##cmp##and_QV##T##V##T) { compare<Lane>(o, Accumulate::kAnd, Cmp); }             \
  OPRIG_HVX_OP(Q6_Q_vcmp_##cmp##or_QV##T##V##T) { compare<Lane>(o, Accumulate::kOr, Cmp); }               \
  OPRIG_HVX_OP(Q6_Q_vcmp_##cmp##xacc_QV##T##V##T) { compare<Lane>(o, Accumulate::kXor, Cmp); }
OPRIG_HVX_COMPARES(b, int8_t, eq, kEqual)
OPRIG_HVX_COMPARES(h, int16_t, eq, kEqual)
OPRIG_HVX_COMPARES(w, int32_t, eq, kEqual)
OPRIG_HVX_COMPARES(b, int8_t, gt, kGreater)
OPRIG_HVX_COMPARES(h, int16_t, gt, kGreater)
OPRIG_HVX_COMPARES(w, int32_t, gt, kGreater)
OPRIG_HVX_COMPARES(ub, uint8_t, gt, kGreater)
OPRIG_HVX_COMPARES(uh, uint16_t, gt, kGreater)
OPRIG_HVX_COMPARES(uw, uint32_t, gt, kGreater)
#undef OPRIG_HVX_COMPARES

}  // namespace oprig::hvx
