// Shifts (by a scalar, or per lane by a signed amount that reverses the
// direction when negative), narrowing shifts with rounding and saturation,
// rounding, saturating packs, and the bit counts of the shift unit.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "hvx_sim/host_simd.hpp"
#include "hvx_sim/lanes.hpp"
#include "hvx_sim/lanewise.hpp"

namespace oprig::hvx {
namespace {

using lanes::sat;
using lanes::wrap;

// Shifts that move bits out entirely: arithmetic right by up to 63, left
// by up to 63, both on a 64-bit value; the caller wraps to the lane.
int64_t asr(int64_t v, unsigned n) { return v >> (n > 63 ? 63 : n); }
int64_t shl(int64_t v, unsigned n) { return n > 63 ? 0 : static_cast<int64_t>(static_cast<uint64_t>(v) << n); }

// The signed per-lane amount: the low log2(bits)+1 bits of the lane, sign-extended.
template <typename Lane>
int amount(Lane v) {
  constexpr int bits = sizeof(Lane) == 4 ? 6 : 5;
  const int raw = static_cast<int>(static_cast<uint32_t>(v) & ((1u << bits) - 1));
  return raw >= (1 << (bits - 1)) ? raw - (1 << bits) : raw;
}

// Narrowing shift vasr(Vu, Vv, Rt): lane i of the result's wide lanes takes
// Vv's lane i in its low narrow half and Vu's in its high half, each shifted
// right by Rt & (narrow bits - 1), optionally rounded and saturated.
template <typename Wide, typename Narrow, bool Round, bool Saturate>
void narrowing(Operands& o) {
  const unsigned n = static_cast<uint32_t>(o.r) & (8 * sizeof(Narrow) - 1);
  for (size_t i = 0; i < kLanes<Wide>; ++i) {
    for (size_t h = 0; h < 2; ++h) {
      int64_t v = h == 0 ? int64_t{o.b.get<Wide>(i)} : int64_t{o.a.get<Wide>(i)};
      if (Round && n > 0) v += int64_t{1} << (n - 1);
      v >>= n;
      o.d.set<Narrow>(2 * i + h, Saturate ? sat<Narrow>(v) : wrap<Narrow>(v));
    }
  }
}

#if defined(__SSE2__)
// The signed saturating narrowings with SSE2 (the quantised ADD/SUB
// program's last steps): x >> n rounded is (x >> n) + bit n-1 of x, which
// cannot overflow as x + 2^(n-1) can; packs/packus saturate exactly as
// sat<Narrow> does, and unpacking interleaves Vv's lanes (even) with Vu's
// (odd). Wide: int32_t (to int16) or int16_t (to int8 or uint8).
template <typename Wide, typename Narrow, bool Round>
void narrowing_sse2(Operands& o) {
  const unsigned n = static_cast<uint32_t>(o.r) & (8 * sizeof(Narrow) - 1);
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(n));
  const __m128i round_count = _mm_cvtsi32_si128(n > 0 ? static_cast<int>(n - 1) : 0);
  const auto shifted = [&](const uint8_t* p, size_t k) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p) + k);
    if constexpr (sizeof(Wide) == 4) {
      const __m128i q = _mm_sra_epi32(x, count);
      if (!Round || n == 0) return q;
      return _mm_add_epi32(q, _mm_and_si128(_mm_srl_epi32(x, round_count), _mm_set1_epi32(1)));
    } else {
      const __m128i q = _mm_sra_epi16(x, count);
      if (!Round || n == 0) return q;
      return _mm_add_epi16(q, _mm_and_si128(_mm_srl_epi16(x, round_count), _mm_set1_epi16(1)));
    }
  };
  const auto pack = [](__m128i lo, __m128i hi) {
    if constexpr (sizeof(Wide) == 4)
      return _mm_packs_epi32(lo, hi);
    else if constexpr (std::is_signed_v<Narrow>)
      return _mm_packs_epi16(lo, hi);
    else
      return _mm_packus_epi16(lo, hi);
  };
  for (size_t k = 0; k < kVectorBytes / 16; k += 2) {
    const __m128i v = pack(shifted(o.b.bytes, k), shifted(o.b.bytes, k + 1));
    const __m128i u = pack(shifted(o.a.bytes, k), shifted(o.a.bytes, k + 1));
    __m128i lo, hi;
    if constexpr (sizeof(Wide) == 4) {
      lo = _mm_unpacklo_epi16(v, u);
      hi = _mm_unpackhi_epi16(v, u);
    } else {
      lo = _mm_unpacklo_epi8(v, u);
      hi = _mm_unpackhi_epi8(v, u);
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o.d.bytes) + k, lo);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o.d.bytes) + k + 1, hi);
  }
}
#endif
// The saturating narrowings from signed lanes, on the host's SIMD where it applies.
template <typename Wide, typename Narrow, bool Round>
void narrowing_sat(Operands& o) {
#if defined(__SSE2__)
  if (kHostSimd) return narrowing_sse2<Wide, Narrow, Round>(o);
#endif
  narrowing<Wide, Narrow, Round, true>(o);
}

// vround(Vu, Vv): as narrowing with a fixed shift of the narrow width, rounded, saturated.
template <typename Wide, typename Narrow>
void round_narrow(Operands& o) {
  constexpr unsigned n = 8 * sizeof(Wide) / 2;
  for (size_t i = 0; i < kLanes<Wide>; ++i)
    for (size_t h = 0; h < 2; ++h) {
      const int64_t v = h == 0 ? int64_t{o.b.get<Wide>(i)} : int64_t{o.a.get<Wide>(i)};
      o.d.set<Narrow>(2 * i + h, sat<Narrow>((v + (int64_t{1} << (n - 1))) >> n));
    }
}
// vsat(Vu, Vv): interleaved saturation, Vv in the low half.
template <typename Wide, typename Narrow>
void saturate_interleaved(Operands& o) {
  for (size_t i = 0; i < kLanes<Wide>; ++i) {
    o.d.set<Narrow>(2 * i, sat<Narrow>(o.b.get<Wide>(i)));
    o.d.set<Narrow>(2 * i + 1, sat<Narrow>(o.a.get<Wide>(i)));
  }
}
// vpack(Vu, Vv): Vv's lanes fill the first half of the result, Vu's the second.
// On local copies, so the loops vectorise (lanewise.hpp).
template <typename Wide, typename Narrow, typename F>
void pack(Operands& o, F f) {
  constexpr size_t n = kLanes<Wide>;
  Wide u[n], v[n];
  Narrow d[2 * n];
  std::memcpy(u, o.a.bytes, kVectorBytes);
  std::memcpy(v, o.b.bytes, kVectorBytes);
  for (size_t i = 0; i < n; ++i) d[i] = f(v[i]);
  for (size_t i = 0; i < n; ++i) d[n + i] = f(u[i]);
  std::memcpy(o.d.bytes, d, kVectorBytes);
}

// Leading bits equal to the sign bit, over the lane's width.
template <typename Lane>
int leading_sign_bits(Lane v) {
  const auto u = static_cast<uint32_t>(static_cast<std::make_unsigned_t<Lane>>(v));
  constexpr int bits = 8 * sizeof(Lane);
  return std::max(lanes::leading_ones(~u, bits), lanes::leading_ones(u, bits));
}

}  // namespace

OPRIG_HVX_OP(Q6_Vh_vasl_VhR) {
  map1<int16_t, int16_t>(o, [&](int16_t x) { return wrap<int16_t>(shl(x, static_cast<uint32_t>(o.r) & 15)); });
}
// Word shifts by an amount below 32 in 32-bit arithmetic (the 64-bit helpers
// give the same lanes but do not vectorise on baseline x86-64).
OPRIG_HVX_OP(Q6_Vw_vasl_VwR) {
  const uint32_t n = static_cast<uint32_t>(o.r) & 31;
  map1<int32_t, int32_t>(o, [n](int32_t x) { return static_cast<int32_t>(static_cast<uint32_t>(x) << n); });
}
OPRIG_HVX_OP(Q6_Vh_vasr_VhR) {
  map1<int16_t, int16_t>(o, [&](int16_t x) { return wrap<int16_t>(asr(x, static_cast<uint32_t>(o.r) & 15)); });
}
OPRIG_HVX_OP(Q6_Vw_vasr_VwR) {
  const uint32_t n = static_cast<uint32_t>(o.r) & 31;
  map1<int32_t, int32_t>(o, [n](int32_t x) { return x >> n; });
}
OPRIG_HVX_OP(Q6_Vub_vlsr_VubR) {
  map1<uint8_t, uint8_t>(o, [&](uint8_t x) { return static_cast<uint8_t>(x >> (static_cast<uint32_t>(o.r) & 7)); });
}
OPRIG_HVX_OP(Q6_Vuh_vlsr_VuhR) {
  map1<uint16_t, uint16_t>(o, [&](uint16_t x) { return static_cast<uint16_t>(x >> (static_cast<uint32_t>(o.r) & 15)); });
}
OPRIG_HVX_OP(Q6_Vuw_vlsr_VuwR) {
  map1<uint32_t, uint32_t>(o, [&](uint32_t x) { return x >> (static_cast<uint32_t>(o.r) & 31); });
}
// Vx += vasl / vasr (operands: a = Vx, b = Vu).
OPRIG_HVX_OP(Q6_Vh_vaslacc_VhVhR) {
  for (size_t i = 0; i < kLanes<int16_t>; ++i)
    o.d.set<int16_t>(i, wrap<int16_t>(o.a.get<int16_t>(i) + shl(o.b.get<int16_t>(i), static_cast<uint32_t>(o.r) & 15)));
}
OPRIG_HVX_OP(Q6_Vw_vaslacc_VwVwR) {
  for (size_t i = 0; i < kLanes<int32_t>; ++i)
    o.d.set<int32_t>(i, wrap<int32_t>(o.a.get<int32_t>(i) + shl(o.b.get<int32_t>(i), static_cast<uint32_t>(o.r) & 31)));
}
// In the lane's own width (the amount is below it), wrapping through the
// unsigned type, so the loops vectorise (map2's copies).
OPRIG_HVX_OP(Q6_Vh_vasracc_VhVhR) {
  const uint32_t n = static_cast<uint32_t>(o.r) & 15;
  map2<int16_t, int16_t>(o, [n](int16_t x, int16_t u) {
    return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint16_t>(x) + static_cast<uint16_t>(u >> n)));
  });
}
OPRIG_HVX_OP(Q6_Vw_vasracc_VwVwR) {
  const uint32_t n = static_cast<uint32_t>(o.r) & 31;
  map2<int32_t, int32_t>(o, [n](int32_t x, int32_t u) {
    return static_cast<int32_t>(static_cast<uint32_t>(x) + static_cast<uint32_t>(u >> n));
  });
}

// Per-lane shifts; a negative amount shifts the other way.
OPRIG_HVX_OP(Q6_Vh_vasl_VhVh) {
  map2<int16_t, int16_t>(o, [](int16_t x, int16_t v) {
    const int n = amount(v);
    return wrap<int16_t>(n >= 0 ? shl(x, static_cast<unsigned>(n)) : asr(x, static_cast<unsigned>(-n)));
  });
}
OPRIG_HVX_OP(Q6_Vw_vasl_VwVw) {
  map2<int32_t, int32_t>(o, [](int32_t x, int32_t v) {
    const int n = amount(v);
    return wrap<int32_t>(n >= 0 ? shl(x, static_cast<unsigned>(n)) : asr(x, static_cast<unsigned>(-n)));
  });
}
OPRIG_HVX_OP(Q6_Vh_vasr_VhVh) {
  map2<int16_t, int16_t>(o, [](int16_t x, int16_t v) {
    const int n = amount(v);
    return wrap<int16_t>(n >= 0 ? asr(x, static_cast<unsigned>(n)) : shl(x, static_cast<unsigned>(-n)));
  });
}
OPRIG_HVX_OP(Q6_Vw_vasr_VwVw) {
  map2<int32_t, int32_t>(o, [](int32_t x, int32_t v) {
    const int n = amount(v);
    return wrap<int32_t>(n >= 0 ? asr(x, static_cast<unsigned>(n)) : shl(x, static_cast<unsigned>(-n)));
  });
}
OPRIG_HVX_OP(Q6_Vh_vlsr_VhVh) {
  map2<uint16_t, uint16_t, int16_t>(o, [](uint16_t x, int16_t v) {
    const int n = amount(v);
    return wrap<uint16_t>(n >= 0 ? asr(x, static_cast<unsigned>(n)) : shl(x, static_cast<unsigned>(-n)));
  });
}
OPRIG_HVX_OP(Q6_Vw_vlsr_VwVw) {
  map2<uint32_t, uint32_t, int32_t>(o, [](uint32_t x, int32_t v) {
    const int n = amount(v);
    return wrap<uint32_t>(n >= 0 ? asr(x, static_cast<unsigned>(n)) : shl(x, static_cast<unsigned>(-n)));
  });
}
OPRIG_HVX_OP(Q6_Vuw_vrotr_VuwVuw) {
  map2<uint32_t, uint32_t>(o, [](uint32_t x, uint32_t v) { return std::rotr(x, static_cast<int>(v & 31)); });
}

OPRIG_HVX_OP(Q6_Vh_vasr_VwVwR) { narrowing<int32_t, int16_t, false, false>(o); }
OPRIG_HVX_OP(Q6_Vh_vasr_VwVwR_sat) { narrowing_sat<int32_t, int16_t, false>(o); }
OPRIG_HVX_OP(Q6_Vh_vasr_VwVwR_rnd_sat) { narrowing_sat<int32_t, int16_t, true>(o); }
OPRIG_HVX_OP(Q6_Vuh_vasr_VwVwR_sat) { narrowing<int32_t, uint16_t, false, true>(o); }
OPRIG_HVX_OP(Q6_Vuh_vasr_VwVwR_rnd_sat) { narrowing<int32_t, uint16_t, true, true>(o); }
OPRIG_HVX_OP(Q6_Vuh_vasr_VuwVuwR_sat) { narrowing<uint32_t, uint16_t, false, true>(o); }
OPRIG_HVX_OP(Q6_Vuh_vasr_VuwVuwR_rnd_sat) { narrowing<uint32_t, uint16_t, true, true>(o); }
OPRIG_HVX_OP(Q6_Vub_vasr_VhVhR_sat) { narrowing_sat<int16_t, uint8_t, false>(o); }
OPRIG_HVX_OP(Q6_Vub_vasr_VhVhR_rnd_sat) { narrowing_sat<int16_t, uint8_t, true>(o); }
OPRIG_HVX_OP(Q6_Vb_vasr_VhVhR_sat) { narrowing_sat<int16_t, int8_t, false>(o); }
OPRIG_HVX_OP(Q6_Vb_vasr_VhVhR_rnd_sat) { narrowing_sat<int16_t, int8_t, true>(o); }
OPRIG_HVX_OP(Q6_Vub_vasr_VuhVuhR_sat) { narrowing<uint16_t, uint8_t, false, true>(o); }
OPRIG_HVX_OP(Q6_Vub_vasr_VuhVuhR_rnd_sat) { narrowing<uint16_t, uint8_t, true, true>(o); }

OPRIG_HVX_OP(Q6_Vh_vround_VwVw_sat) { round_narrow<int32_t, int16_t>(o); }
OPRIG_HVX_OP(Q6_Vuh_vround_VwVw_sat) { round_narrow<int32_t, uint16_t>(o); }
OPRIG_HVX_OP(Q6_Vuh_vround_VuwVuw_sat) { round_narrow<uint32_t, uint16_t>(o); }
OPRIG_HVX_OP(Q6_Vb_vround_VhVh_sat) { round_narrow<int16_t, int8_t>(o); }
OPRIG_HVX_OP(Q6_Vub_vround_VhVh_sat) { round_narrow<int16_t, uint8_t>(o); }
OPRIG_HVX_OP(Q6_Vub_vround_VuhVuh_sat) { round_narrow<uint16_t, uint8_t>(o); }

OPRIG_HVX_OP(Q6_Vub_vsat_VhVh) { saturate_interleaved<int16_t, uint8_t>(o); }
OPRIG_HVX_OP(Q6_Vh_vsat_VwVw) { saturate_interleaved<int32_t, int16_t>(o); }
OPRIG_HVX_OP(Q6_Vuh_vsat_VuwVuw) { saturate_interleaved<uint32_t, uint16_t>(o); }

OPRIG_HVX_OP(Q6_Vub_vpack_VhVh_sat) { pack<int16_t, uint8_t>(o, [](int16_t v) { return sat<uint8_t>(v); }); }
OPRIG_HVX_OP(Q6_Vb_vpack_VhVh_sat) { pack<int16_t, int8_t>(o, [](int16_t v) { return sat<int8_t>(v); }); }
OPRIG_HVX_OP(Q6_Vuh_vpack_VwVw_sat) { pack<int32_t, uint16_t>(o, [](int32_t v) { return sat<uint16_t>(v); }); }
OPRIG_HVX_OP(Q6_Vh_vpack_VwVw_sat) { pack<int32_t, int16_t>(o, [](int32_t v) { return sat<int16_t>(v); }); }
OPRIG_HVX_OP(Q6_Vb_vpacke_VhVh) { pack<uint16_t, uint8_t>(o, [](uint16_t v) { return static_cast<uint8_t>(v); }); }
OPRIG_HVX_OP(Q6_Vb_vpacko_VhVh) { pack<uint16_t, uint8_t>(o, [](uint16_t v) { return static_cast<uint8_t>(v >> 8); }); }
OPRIG_HVX_OP(Q6_Vh_vpacke_VwVw) { pack<uint32_t, uint16_t>(o, [](uint32_t v) { return static_cast<uint16_t>(v); }); }
OPRIG_HVX_OP(Q6_Vh_vpacko_VwVw) { pack<uint32_t, uint16_t>(o, [](uint32_t v) { return static_cast<uint16_t>(v >> 16); }); }

OPRIG_HVX_OP(Q6_Vuh_vcl0_Vuh) {
  map1<uint16_t, uint16_t>(o, [](uint16_t x) { return static_cast<uint16_t>(std::countl_zero(x)); });
}
OPRIG_HVX_OP(Q6_Vuw_vcl0_Vuw) {
  map1<uint32_t, uint32_t>(o, [](uint32_t x) { return static_cast<uint32_t>(std::countl_zero(x)); });
}
OPRIG_HVX_OP(Q6_Vh_vnormamt_Vh) { map1<int16_t, int16_t>(o, [](int16_t x) { return leading_sign_bits(x) - 1; }); }
OPRIG_HVX_OP(Q6_Vw_vnormamt_Vw) { map1<int32_t, int32_t>(o, [](int32_t x) { return leading_sign_bits(x) - 1; }); }
OPRIG_HVX_OP(Q6_Vh_vadd_vclb_VhVh) {
  map2<int16_t, int16_t>(o, [](int16_t x, int16_t v) { return wrap<int16_t>(int64_t{leading_sign_bits(x)} + v); });
}
OPRIG_HVX_OP(Q6_Vw_vadd_vclb_VwVw) {
  map2<int32_t, int32_t>(o, [](int32_t x, int32_t v) { return wrap<int32_t>(int64_t{leading_sign_bits(x)} + v); });
}
OPRIG_HVX_OP(Q6_Vh_vpopcount_Vh) {
  map1<uint16_t, uint16_t>(o, [](uint16_t x) { return static_cast<uint16_t>(std::popcount(x)); });
}

// Vxx = vasrinto(Vu, Vv): Vu shifted right (or left, for a negative amount)
// by Vv into the 64-bit lane hi:lo, the bits it vacates keeping Vxx's low word.
OPRIG_HVX_OP(Q6_Ww_vasrinto_WwVwVw) {
  for (size_t i = 0; i < kLanes<int32_t>; ++i) {
    const int32_t v = o.c.get<int32_t>(i);
    const int64_t shift = static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(o.b.get<int32_t>(i))) << 32);
    const int32_t lo = o.a.get<int32_t>(0, i);
    const uint64_t mask = (static_cast<uint64_t>(static_cast<int64_t>(lo)) << 32) | static_cast<uint32_t>(lo);
    const uint64_t lomask = 0xFFFFFFFFull;
    const int count = -(0x40 & v) + (v & 0x3f);
    uint64_t result = 0;
    if (count != -0x40) {
      if (count < 0)
        result = (static_cast<uint64_t>(shift) << -count) | (mask & (lomask << -count));
      else
        result = static_cast<uint64_t>(shift >> count) | (mask & (lomask >> count));
    }
    o.d.set<uint32_t>(1, i, static_cast<uint32_t>(result >> 32));
    o.d.set<uint32_t>(0, i, static_cast<uint32_t>(result));
  }
}

}  // namespace oprig::hvx
