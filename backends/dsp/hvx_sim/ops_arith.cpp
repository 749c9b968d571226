// Add, subtract (wrapping, saturating, widening, conditional, with carry),
// average, absolute value and difference, min and max: the vector ALU.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "hvx_sim/lanes.hpp"
#include "hvx_sim/lanewise.hpp"

namespace oprig::hvx {
namespace {

using lanes::sat;
using lanes::wrap;

// The operations as function objects (inlined into the lane loops), in
// arithmetic wide enough for two lanes.
struct AddWrap {
  template <typename T>
  T operator()(T x, T y) const {
    return wrap<T>(Wide<T>{x} + Wide<T>{y});
  }
};
struct SubWrap {
  template <typename T>
  T operator()(T x, T y) const {
    return wrap<T>(Wide<T>{x} - Wide<T>{y});
  }
};
// Signed 32-bit saturation from the overflow bit, in 32-bit arithmetic
// (vectorises without 64-bit compares, which baseline x86-64 lacks).
inline int32_t saturate_overflow(int32_t x, uint32_t wrapped, bool overflow) {
  return overflow ? (x < 0 ? INT32_MIN : INT32_MAX) : static_cast<int32_t>(wrapped);
}
struct AddSat {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, int32_t>) {
      const uint32_t r = static_cast<uint32_t>(x) + static_cast<uint32_t>(y);
      return saturate_overflow(x, r, static_cast<int32_t>((static_cast<uint32_t>(x) ^ r) & (static_cast<uint32_t>(y) ^ r)) < 0);
    } else if constexpr (std::is_same_v<T, uint32_t>) {
      const uint32_t r = x + y;
      return r < x ? UINT32_MAX : r;
    } else {
      return sat<T>(Wide<T>{x} + Wide<T>{y});
    }
  }
};
struct SubSat {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, int32_t>) {
      const uint32_t r = static_cast<uint32_t>(x) - static_cast<uint32_t>(y);
      return saturate_overflow(x, r, static_cast<int32_t>((static_cast<uint32_t>(x) ^ static_cast<uint32_t>(y)) & (static_cast<uint32_t>(x) ^ r)) < 0);
    } else if constexpr (std::is_same_v<T, uint32_t>) {
      return x > y ? x - y : 0;
    } else {
      return sat<T>(Wide<T>{x} - Wide<T>{y});
    }
  }
};
// if (Q) Vx += Vu / -= Vu: Q selects byte by byte, also inside wider lanes.
template <typename T>
void conditional(Operands& o, bool negate_q, bool subtract) {
  constexpr size_t n = kLanes<T>;
  T x[n], u[n], sum[n];
  uint8_t q[kVectorBytes], x_bytes[kVectorBytes], sum_bytes[kVectorBytes];
  std::memcpy(x, o.b.bytes, kVectorBytes);
  std::memcpy(u, o.c.bytes, kVectorBytes);
  std::memcpy(q, o.a.bytes, kVectorBytes);
  // Wrapping in the lane's unsigned type (AddWrap's 64-bit sum of words
  // does not vectorise on baseline x86-64; the sign-fixed ADD/SUB program
  // runs condnac on words).
  using U = std::make_unsigned_t<T>;
  for (size_t i = 0; i < n; ++i)
    sum[i] = static_cast<T>(static_cast<U>(subtract ? static_cast<U>(x[i]) - static_cast<U>(u[i])
                                                    : static_cast<U>(x[i]) + static_cast<U>(u[i])));
  std::memcpy(x_bytes, x, kVectorBytes);
  std::memcpy(sum_bytes, sum, kVectorBytes);
  const uint8_t flip = negate_q ? 0xFF : 0x00;
  for (size_t i = 0; i < kVectorBytes; ++i) {
    const auto take = static_cast<uint8_t>((q[i] != 0 ? 0xFF : 0x00) ^ flip);  // 0xFF: the sum's byte
    sum_bytes[i] = static_cast<uint8_t>((sum_bytes[i] & take) | (x_bytes[i] & ~take));
  }
  std::memcpy(o.d.bytes, sum_bytes, kVectorBytes);
}

// Widening add/sub: even lanes of both operands into the low vector, odd
// lanes into the high one.
template <typename Wide, typename Narrow, typename F>
void widen2(Operands& o, F f) {
  for (size_t i = 0; i < kLanes<Wide>; ++i)
    for (size_t half = 0; half < 2; ++half)
      o.d.set<Wide>(half, i, static_cast<Wide>(f(o.a.get<Narrow>(2 * i + half), o.b.get<Narrow>(2 * i + half))));
}
// Vxx += widened Vu op Vv (operands: a = Vxx, b = Vu, c = Vv).
template <typename Wide, typename Narrow, typename F>
void widen2_acc(Operands& o, F f) {
  for (size_t i = 0; i < kLanes<Wide>; ++i)
    for (size_t half = 0; half < 2; ++half)
      o.d.set<Wide>(half, i,
                    wrap<Wide>(int64_t{o.a.get<Wide>(half, i)} +
                               f(o.b.get<Narrow>(2 * i + half), o.c.get<Narrow>(2 * i + half))));
}

template <typename T>
int64_t absolute(T v) {
  return v < 0 ? -int64_t{v} : int64_t{v};
}

}  // namespace

OPRIG_HVX_OP(Q6_Vb_condacc_QVbVb) { conditional<int8_t>(o, false, false); }
OPRIG_HVX_OP(Q6_Vh_condacc_QVhVh) { conditional<int16_t>(o, false, false); }
OPRIG_HVX_OP(Q6_Vw_condacc_QVwVw) { conditional<int32_t>(o, false, false); }
OPRIG_HVX_OP(Q6_Vb_condacc_QnVbVb) { conditional<int8_t>(o, true, false); }
OPRIG_HVX_OP(Q6_Vh_condacc_QnVhVh) { conditional<int16_t>(o, true, false); }
OPRIG_HVX_OP(Q6_Vw_condacc_QnVwVw) { conditional<int32_t>(o, true, false); }
OPRIG_HVX_OP(Q6_Vb_condnac_QVbVb) { conditional<int8_t>(o, false, true); }
OPRIG_HVX_OP(Q6_Vh_condnac_QVhVh) { conditional<int16_t>(o, false, true); }
OPRIG_HVX_OP(Q6_Vw_condnac_QVwVw) { conditional<int32_t>(o, false, true); }
OPRIG_HVX_OP(Q6_Vb_condnac_QnVbVb) { conditional<int8_t>(o, true, true); }
OPRIG_HVX_OP(Q6_Vh_condnac_QnVhVh) { conditional<int16_t>(o, true, true); }
OPRIG_HVX_OP(Q6_Vw_condnac_QnVwVw) { conditional<int32_t>(o, true, true); }

// vabs wraps the most negative value onto itself; :sat clamps it.
OPRIG_HVX_OP(Q6_Vb_vabs_Vb) { map1<int8_t, int8_t>(o, [](int8_t x) { return wrap<int8_t>(absolute(x)); }); }
OPRIG_HVX_OP(Q6_Vb_vabs_Vb_sat) { map1<int8_t, int8_t>(o, [](int8_t x) { return sat<int8_t>(absolute(x)); }); }
OPRIG_HVX_OP(Q6_Vh_vabs_Vh) { map1<int16_t, int16_t>(o, [](int16_t x) { return wrap<int16_t>(absolute(x)); }); }
OPRIG_HVX_OP(Q6_Vh_vabs_Vh_sat) { map1<int16_t, int16_t>(o, [](int16_t x) { return sat<int16_t>(absolute(x)); }); }
OPRIG_HVX_OP(Q6_Vw_vabs_Vw) { map1<int32_t, int32_t>(o, [](int32_t x) { return wrap<int32_t>(absolute(x)); }); }
OPRIG_HVX_OP(Q6_Vw_vabs_Vw_sat) { map1<int32_t, int32_t>(o, [](int32_t x) { return sat<int32_t>(absolute(x)); }); }

OPRIG_HVX_OP(Q6_Vuh_vabsdiff_VhVh) {
  map2<uint16_t, int16_t>(o, [](int16_t x, int16_t y) { return wrap<uint16_t>(std::llabs(int64_t{x} - y)); });
}
OPRIG_HVX_OP(Q6_Vub_vabsdiff_VubVub) {
  map2<uint8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return wrap<uint8_t>(std::llabs(int64_t{x} - y)); });
}
OPRIG_HVX_OP(Q6_Vuh_vabsdiff_VuhVuh) {
  map2<uint16_t, uint16_t>(o, [](uint16_t x, uint16_t y) { return wrap<uint16_t>(std::llabs(int64_t{x} - y)); });
}
OPRIG_HVX_OP(Q6_Vuw_vabsdiff_VwVw) {
  map2<uint32_t, int32_t>(o, [](int32_t x, int32_t y) { return wrap<uint32_t>(std::llabs(int64_t{x} - y)); });
}

OPRIG_HVX_OP(Q6_Vb_vadd_VbVb) { map2<int8_t, int8_t>(o, AddWrap{}); }
OPRIG_HVX_OP(Q6_Vb_vadd_VbVb_sat) { map2<int8_t, int8_t>(o, AddSat{}); }
OPRIG_HVX_OP(Q6_Vh_vadd_VhVh) { map2<int16_t, int16_t>(o, AddWrap{}); }
OPRIG_HVX_OP(Q6_Vh_vadd_VhVh_sat) { map2<int16_t, int16_t>(o, AddSat{}); }
OPRIG_HVX_OP(Q6_Vw_vadd_VwVw) { map2<int32_t, int32_t>(o, AddWrap{}); }
OPRIG_HVX_OP(Q6_Vw_vadd_VwVw_sat) { map2<int32_t, int32_t>(o, AddSat{}); }
OPRIG_HVX_OP(Q6_Vub_vadd_VubVub_sat) { map2<uint8_t, uint8_t>(o, AddSat{}); }
OPRIG_HVX_OP(Q6_Vuh_vadd_VuhVuh_sat) { map2<uint16_t, uint16_t>(o, AddSat{}); }
OPRIG_HVX_OP(Q6_Vuw_vadd_VuwVuw_sat) { map2<uint32_t, uint32_t>(o, AddSat{}); }
OPRIG_HVX_OP(Q6_Vub_vadd_VubVb_sat) {
  map2<uint8_t, uint8_t, int8_t>(o, [](uint8_t x, int8_t y) { return sat<uint8_t>(int64_t{x} + y); });
}
OPRIG_HVX_OP(Q6_Wb_vadd_WbWb) { map2<int8_t, int8_t>(o, AddWrap{}, 2); }
OPRIG_HVX_OP(Q6_Wb_vadd_WbWb_sat) { map2<int8_t, int8_t>(o, AddSat{}, 2); }
OPRIG_HVX_OP(Q6_Wh_vadd_WhWh) { map2<int16_t, int16_t>(o, AddWrap{}, 2); }
OPRIG_HVX_OP(Q6_Wh_vadd_WhWh_sat) { map2<int16_t, int16_t>(o, AddSat{}, 2); }
OPRIG_HVX_OP(Q6_Ww_vadd_WwWw) { map2<int32_t, int32_t>(o, AddWrap{}, 2); }
OPRIG_HVX_OP(Q6_Ww_vadd_WwWw_sat) { map2<int32_t, int32_t>(o, AddSat{}, 2); }
OPRIG_HVX_OP(Q6_Wub_vadd_WubWub_sat) { map2<uint8_t, uint8_t>(o, AddSat{}, 2); }
OPRIG_HVX_OP(Q6_Wuh_vadd_WuhWuh_sat) { map2<uint16_t, uint16_t>(o, AddSat{}, 2); }
OPRIG_HVX_OP(Q6_Wuw_vadd_WuwWuw_sat) { map2<uint32_t, uint32_t>(o, AddSat{}, 2); }
OPRIG_HVX_OP(Q6_Ww_vadd_VhVh) { widen2<int32_t, int16_t>(o, [](int16_t x, int16_t y) { return int64_t{x} + y; }); }
OPRIG_HVX_OP(Q6_Wh_vadd_VubVub) { widen2<int16_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return int64_t{x} + y; }); }
OPRIG_HVX_OP(Q6_Ww_vadd_VuhVuh) { widen2<int32_t, uint16_t>(o, [](uint16_t x, uint16_t y) { return int64_t{x} + y; }); }
OPRIG_HVX_OP(Q6_Wh_vaddacc_WhVubVub) {
  widen2_acc<int16_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return int64_t{x} + y; });
}
OPRIG_HVX_OP(Q6_Ww_vaddacc_WwVhVh) {
  widen2_acc<int32_t, int16_t>(o, [](int16_t x, int16_t y) { return int64_t{x} + y; });
}
OPRIG_HVX_OP(Q6_Ww_vaddacc_WwVuhVuh) {
  widen2_acc<int32_t, uint16_t>(o, [](uint16_t x, uint16_t y) { return int64_t{x} + y; });
}

OPRIG_HVX_OP(Q6_Vb_vsub_VbVb) { map2<int8_t, int8_t>(o, SubWrap{}); }
OPRIG_HVX_OP(Q6_Vb_vsub_VbVb_sat) { map2<int8_t, int8_t>(o, SubSat{}); }
OPRIG_HVX_OP(Q6_Vh_vsub_VhVh) { map2<int16_t, int16_t>(o, SubWrap{}); }
OPRIG_HVX_OP(Q6_Vh_vsub_VhVh_sat) { map2<int16_t, int16_t>(o, SubSat{}); }
OPRIG_HVX_OP(Q6_Vw_vsub_VwVw) { map2<int32_t, int32_t>(o, SubWrap{}); }
OPRIG_HVX_OP(Q6_Vw_vsub_VwVw_sat) { map2<int32_t, int32_t>(o, SubSat{}); }
OPRIG_HVX_OP(Q6_Vub_vsub_VubVub_sat) { map2<uint8_t, uint8_t>(o, SubSat{}); }
OPRIG_HVX_OP(Q6_Vuh_vsub_VuhVuh_sat) { map2<uint16_t, uint16_t>(o, SubSat{}); }
OPRIG_HVX_OP(Q6_Vuw_vsub_VuwVuw_sat) { map2<uint32_t, uint32_t>(o, SubSat{}); }
OPRIG_HVX_OP(Q6_Vub_vsub_VubVb_sat) {
  map2<uint8_t, uint8_t, int8_t>(o, [](uint8_t x, int8_t y) { return sat<uint8_t>(int64_t{x} - y); });
}
OPRIG_HVX_OP(Q6_Wb_vsub_WbWb) { map2<int8_t, int8_t>(o, SubWrap{}, 2); }
OPRIG_HVX_OP(Q6_Wb_vsub_WbWb_sat) { map2<int8_t, int8_t>(o, SubSat{}, 2); }
OPRIG_HVX_OP(Q6_Wh_vsub_WhWh) { map2<int16_t, int16_t>(o, SubWrap{}, 2); }
OPRIG_HVX_OP(Q6_Wh_vsub_WhWh_sat) { map2<int16_t, int16_t>(o, SubSat{}, 2); }
OPRIG_HVX_OP(Q6_Ww_vsub_WwWw) { map2<int32_t, int32_t>(o, SubWrap{}, 2); }
OPRIG_HVX_OP(Q6_Ww_vsub_WwWw_sat) { map2<int32_t, int32_t>(o, SubSat{}, 2); }
OPRIG_HVX_OP(Q6_Wub_vsub_WubWub_sat) { map2<uint8_t, uint8_t>(o, SubSat{}, 2); }
OPRIG_HVX_OP(Q6_Wuh_vsub_WuhWuh_sat) { map2<uint16_t, uint16_t>(o, SubSat{}, 2); }
OPRIG_HVX_OP(Q6_Wuw_vsub_WuwWuw_sat) { map2<uint32_t, uint32_t>(o, SubSat{}, 2); }
OPRIG_HVX_OP(Q6_Ww_vsub_VhVh) { widen2<int32_t, int16_t>(o, [](int16_t x, int16_t y) { return int64_t{x} - y; }); }
OPRIG_HVX_OP(Q6_Wh_vsub_VubVub) { widen2<int16_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return int64_t{x} - y; }); }
OPRIG_HVX_OP(Q6_Ww_vsub_VuhVuh) { widen2<int32_t, uint16_t>(o, [](uint16_t x, uint16_t y) { return int64_t{x} - y; }); }

// Add/sub with carry: the carry in is the predicate's bit of the word's first
// byte; the carry out is written to all four bits of the word.
OPRIG_HVX_OP(Q6_Vw_vadd_VwVwQ_carry) {
  for (size_t i = 0; i < kLanes<int32_t>; ++i) {
    const uint64_t sum = uint64_t{o.a.get<uint32_t>(i)} + o.b.get<uint32_t>(i) + (o.c.bit(4 * i) ? 1 : 0);
    o.d.set<uint32_t>(i, static_cast<uint32_t>(sum));
    for (size_t k = 0; k < 4; ++k) o.c.set_bit(4 * i + k, (sum >> 32) != 0);
  }
}
OPRIG_HVX_OP(Q6_Vw_vsub_VwVwQ_carry) {
  for (size_t i = 0; i < kLanes<int32_t>; ++i) {
    const uint64_t sum = uint64_t{o.a.get<uint32_t>(i)} + uint64_t{~o.b.get<uint32_t>(i)} + (o.c.bit(4 * i) ? 1 : 0);
    o.d.set<uint32_t>(i, static_cast<uint32_t>(sum));
    for (size_t k = 0; k < 4; ++k) o.c.set_bit(4 * i + k, (sum >> 32) != 0);
  }
}
OPRIG_HVX_OP(Q6_Vw_vadd_VwVwQ_carry_sat) {
  for (size_t i = 0; i < kLanes<int32_t>; ++i)
    o.d.set<int32_t>(i, sat<int32_t>(int64_t{o.a.get<int32_t>(i)} + o.b.get<int32_t>(i) + (o.c.bit(4 * i) ? 1 : 0)));
}

// Averages: (x + y) >> 1, :rnd adds 1 first; vnavg is (x - y) >> 1.
OPRIG_HVX_OP(Q6_Vb_vavg_VbVb) { map2<int8_t, int8_t>(o, [](int8_t x, int8_t y) { return (int64_t{x} + y) >> 1; }); }
OPRIG_HVX_OP(Q6_Vb_vavg_VbVb_rnd) {
  map2<int8_t, int8_t>(o, [](int8_t x, int8_t y) { return (int64_t{x} + y + 1) >> 1; });
}
OPRIG_HVX_OP(Q6_Vh_vavg_VhVh) { map2<int16_t, int16_t>(o, [](int16_t x, int16_t y) { return (int64_t{x} + y) >> 1; }); }
OPRIG_HVX_OP(Q6_Vh_vavg_VhVh_rnd) {
  map2<int16_t, int16_t>(o, [](int16_t x, int16_t y) { return (int64_t{x} + y + 1) >> 1; });
}
// Word averages without the 33rd bit: floor((x + y) / 2) = (x & y) + ((x ^ y) >> 1),
// and rounded up = (x | y) - ((x ^ y) >> 1).
OPRIG_HVX_OP(Q6_Vw_vavg_VwVw) { map2<int32_t, int32_t>(o, [](int32_t x, int32_t y) { return (x & y) + ((x ^ y) >> 1); }); }
OPRIG_HVX_OP(Q6_Vw_vavg_VwVw_rnd) {
  map2<int32_t, int32_t>(o, [](int32_t x, int32_t y) { return (x | y) - ((x ^ y) >> 1); });
}
OPRIG_HVX_OP(Q6_Vub_vavg_VubVub) {
  map2<uint8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return (int64_t{x} + y) >> 1; });
}
OPRIG_HVX_OP(Q6_Vub_vavg_VubVub_rnd) {
  map2<uint8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return (int64_t{x} + y + 1) >> 1; });
}
OPRIG_HVX_OP(Q6_Vuh_vavg_VuhVuh) {
  map2<uint16_t, uint16_t>(o, [](uint16_t x, uint16_t y) { return (int64_t{x} + y) >> 1; });
}
OPRIG_HVX_OP(Q6_Vuh_vavg_VuhVuh_rnd) {
  map2<uint16_t, uint16_t>(o, [](uint16_t x, uint16_t y) { return (int64_t{x} + y + 1) >> 1; });
}
OPRIG_HVX_OP(Q6_Vuw_vavg_VuwVuw) {
  map2<uint32_t, uint32_t>(o, [](uint32_t x, uint32_t y) { return (int64_t{x} + y) >> 1; });
}
OPRIG_HVX_OP(Q6_Vuw_vavg_VuwVuw_rnd) {
  map2<uint32_t, uint32_t>(o, [](uint32_t x, uint32_t y) { return (int64_t{x} + y + 1) >> 1; });
}
OPRIG_HVX_OP(Q6_Vb_vnavg_VbVb) {
  map2<int8_t, int8_t>(o, [](int8_t x, int8_t y) { return wrap<int8_t>((int64_t{x} - y) >> 1); });
}
OPRIG_HVX_OP(Q6_Vh_vnavg_VhVh) {
  map2<int16_t, int16_t>(o, [](int16_t x, int16_t y) { return wrap<int16_t>((int64_t{x} - y) >> 1); });
}
OPRIG_HVX_OP(Q6_Vw_vnavg_VwVw) {
  map2<int32_t, int32_t>(o, [](int32_t x, int32_t y) { return wrap<int32_t>((int64_t{x} - y) >> 1); });
}
OPRIG_HVX_OP(Q6_Vb_vnavg_VubVub) {
  map2<int8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return wrap<int8_t>((int64_t{x} - y) >> 1); });
}

OPRIG_HVX_OP(Q6_Vb_vmax_VbVb) { map2<int8_t, int8_t>(o, [](int8_t x, int8_t y) { return x > y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vh_vmax_VhVh) { map2<int16_t, int16_t>(o, [](int16_t x, int16_t y) { return x > y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vw_vmax_VwVw) { map2<int32_t, int32_t>(o, [](int32_t x, int32_t y) { return x > y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vub_vmax_VubVub) { map2<uint8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return x > y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vuh_vmax_VuhVuh) { map2<uint16_t, uint16_t>(o, [](uint16_t x, uint16_t y) { return x > y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vb_vmin_VbVb) { map2<int8_t, int8_t>(o, [](int8_t x, int8_t y) { return x < y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vh_vmin_VhVh) { map2<int16_t, int16_t>(o, [](int16_t x, int16_t y) { return x < y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vw_vmin_VwVw) { map2<int32_t, int32_t>(o, [](int32_t x, int32_t y) { return x < y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vub_vmin_VubVub) { map2<uint8_t, uint8_t>(o, [](uint8_t x, uint8_t y) { return x < y ? x : y; }); }
OPRIG_HVX_OP(Q6_Vuh_vmin_VuhVuh) { map2<uint16_t, uint16_t>(o, [](uint16_t x, uint16_t y) { return x < y ? x : y; }); }

// The 64-bit value Vu:Vv (high:low word) saturated to 32 bits.
OPRIG_HVX_OP(Q6_Vw_vsatdw_VwVw) {
  map2<int32_t, int32_t>(o, [](int32_t hi, int32_t lo) {
    return sat<int32_t>(static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) |
                                             static_cast<uint32_t>(lo)));
  });
}

}  // namespace oprig::hvx
