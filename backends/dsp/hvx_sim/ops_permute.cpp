// The permute network: alignment and rotation, shuffles and deals (byte and
// halfword interleave/deinterleave, the in-place 2x2 transposes of
// vshuff/vdeal with a control word), the Benes networks vdelta/vrdelta, sign
// and zero extension, unpacking, and the table lookups vlut32 and vlut16.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "hvx_sim/host_simd.hpp"
#include "hvx_sim/lanes.hpp"
#include "hvx_sim/lanewise.hpp"

namespace oprig::hvx {
namespace {

constexpr size_t N = kVectorBytes;

// valign: byte i of the result is byte i + shift of the 256-byte Vu:Vv (Vv
// low), shift in [0, 128]: one copy out of the two laid side by side (the
// gathers of DIV/POW tables run two byte rotations per element).
void align(Operands& o, size_t shift) {
  uint8_t both[2 * N];
  std::memcpy(both, o.b.bytes, N);
  std::memcpy(both + N, o.a.bytes, N);
  std::memcpy(o.d.bytes, both + shift, N);
}

}  // namespace

OPRIG_HVX_OP(Q6_V_valign_VVR) { align(o, static_cast<uint32_t>(o.r) & (N - 1)); }
OPRIG_HVX_OP(Q6_V_valign_VVI) { align(o, static_cast<uint32_t>(o.r) & 7); }
OPRIG_HVX_OP(Q6_V_vlalign_VVR) { align(o, N - (static_cast<uint32_t>(o.r) & (N - 1))); }
OPRIG_HVX_OP(Q6_V_vlalign_VVI) { align(o, N - (static_cast<uint32_t>(o.r) & 7)); }
// vror: byte k of the result is byte (k + Rt) mod 128 of Vu.
// Copied out of Vu laid twice side by side: fixed-size copies, which
// compilers inline (two of variable size went to memcpy).
OPRIG_HVX_OP(Q6_V_vror_VR) {
  uint8_t twice[2 * N];
  std::memcpy(twice, o.a.bytes, N);
  std::memcpy(twice + N, o.a.bytes, N);
  std::memcpy(o.d.bytes, twice + (static_cast<uint32_t>(o.r) & (N - 1)), N);
}

// vshuff/vdeal(Vu, Vv, Rt): from Vv (low) and Vu (high), for each bit of Rt
// (ascending for shuff, descending for deal) swap the high vector's byte k
// with the low vector's byte k + bit, for every k without that bit.
// The network depends on the 7 low bits of Rt only, so it is run once per
// control value on the byte positions (at first use), and an instruction
// then moves bytes by that permutation. The controls kernels use (-1, -2,
// -4, ...: element interleaves) move whole runs of 2^k bytes; the widest run
// every piece of a permutation keeps is found once too, so those copy
// chunks instead of bytes. Same results, a fraction of the host time (TopK's
// key widening spent half its time in the byte-wise network).
namespace {

struct PairPermutation {
  uint8_t from[2 * N];  // byte i of the result is byte from[i] of Vv:Vu
  size_t run = 1;       // every aligned run of this many result bytes comes from consecutive bytes
  size_t interleave = 0;  // e where the result is Vv's and Vu's e-byte elements interleaved (Vv's first), else 0
};
// Whether p interleaves the elements of e bytes of Vv and Vu in order: pair
// j of the result is Vv's element j, then Vu's.
bool interleaves(const PairPermutation& p, size_t e) {
  for (size_t i = 0; i < 2 * N; ++i) {
    const size_t j = i / (2 * e), within = i % (2 * e);
    const size_t from = within < e ? j * e + within : N + j * e + within - e;
    if (p.from[i] != from) return false;
  }
  return true;
}
using PairPermutations = PairPermutation[N];

void build_pair_permutations(PairPermutations& table, bool deal) {
  for (uint32_t control = 0; control < N; ++control) {
    PairPermutation& p = table[control];
    for (size_t i = 0; i < 2 * N; ++i) p.from[i] = static_cast<uint8_t>(i);
    for (size_t step = 0; step < 7; ++step) {
      const size_t offset = deal ? (N >> 1) >> step : size_t{1} << step;
      if ((control & offset) == 0) continue;
      for (size_t k = 0; k < N; ++k)
        if ((k & offset) == 0) std::swap(p.from[N + k], p.from[k + offset]);
    }
    for (size_t run = 2 * N; run > 1; run >>= 1) {
      bool whole = true;
      for (size_t i = 0; i < 2 * N && whole; ++i)
        whole = p.from[i] % run == i % run && size_t{p.from[i]} - i % run == size_t{p.from[i - i % run]};
      if (whole) {
        p.run = run;
        break;
      }
    }
    for (size_t e = 1; e <= 8 && p.interleave == 0; e *= 2)
      if (interleaves(p, e)) p.interleave = e;
  }
}

const PairPermutations& shuff_permutations() {
  static PairPermutations table;
  static const bool built = (build_pair_permutations(table, false), true);
  (void)built;
  return table;
}
const PairPermutations& deal_permutations() {
  static PairPermutations table;
  static const bool built = (build_pair_permutations(table, true), true);
  (void)built;
  return table;
}

template <size_t Run>
void move_runs(uint8_t* d, const uint8_t* src, const uint8_t* from) {
  for (size_t i = 0; i < 2 * N; i += Run) std::memcpy(d + i, src + from[i], Run);
}

#if defined(__x86_64__)
// An interleave of e-byte elements (vshuff with Rt = -e, the ADD/SUB
// program's word forming) is SSE2's unpack: chunk k of Vv and Vu gives
// chunks 2k and 2k + 1 of the result. The sources are all loaded first (the
// result may be one of them).
void interleave_sse2(Operands& o, size_t e) {
  __m128i v[N / 16], u[N / 16];
  for (size_t k = 0; k < N / 16; ++k) {
    v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(o.b.bytes) + k);
    u[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(o.a.bytes) + k);
  }
  auto* d = reinterpret_cast<__m128i*>(o.d.bytes);
  for (size_t k = 0; k < N / 16; ++k) {
    switch (e) {
      case 1: _mm_storeu_si128(d + 2 * k, _mm_unpacklo_epi8(v[k], u[k])), _mm_storeu_si128(d + 2 * k + 1, _mm_unpackhi_epi8(v[k], u[k])); break;
      case 2: _mm_storeu_si128(d + 2 * k, _mm_unpacklo_epi16(v[k], u[k])), _mm_storeu_si128(d + 2 * k + 1, _mm_unpackhi_epi16(v[k], u[k])); break;
      case 4: _mm_storeu_si128(d + 2 * k, _mm_unpacklo_epi32(v[k], u[k])), _mm_storeu_si128(d + 2 * k + 1, _mm_unpackhi_epi32(v[k], u[k])); break;
      default: _mm_storeu_si128(d + 2 * k, _mm_unpacklo_epi64(v[k], u[k])), _mm_storeu_si128(d + 2 * k + 1, _mm_unpackhi_epi64(v[k], u[k])); break;
    }
  }
}
#endif

void permute_pair(Operands& o, const PairPermutation& p) {
#if defined(__x86_64__)
  if (kHostSimd && p.interleave != 0) return interleave_sse2(o, p.interleave);
#endif
  uint8_t src[2 * N];
  std::memcpy(src, o.b.bytes, N);
  std::memcpy(src + N, o.a.bytes, N);
  switch (p.run) {
    case 1: move_runs<1>(o.d.bytes, src, p.from); break;
    case 2: move_runs<2>(o.d.bytes, src, p.from); break;
    case 4: move_runs<4>(o.d.bytes, src, p.from); break;
    case 8: move_runs<8>(o.d.bytes, src, p.from); break;
    case 16: move_runs<16>(o.d.bytes, src, p.from); break;
    case 32: move_runs<32>(o.d.bytes, src, p.from); break;
    case 64: move_runs<64>(o.d.bytes, src, p.from); break;
    case 128: move_runs<128>(o.d.bytes, src, p.from); break;
    default: move_runs<256>(o.d.bytes, src, p.from); break;
  }
}

}  // namespace

OPRIG_HVX_OP(Q6_W_vshuff_VVR) { permute_pair(o, shuff_permutations()[static_cast<uint32_t>(o.r) & (N - 1)]); }
OPRIG_HVX_OP(Q6_W_vdeal_VVR) { permute_pair(o, deal_permutations()[static_cast<uint32_t>(o.r) & (N - 1)]); }
// Deal: even elements to the first half, odd ones to the second.
OPRIG_HVX_OP(Q6_Vb_vdeal_Vb) {
  for (size_t i = 0; i < N / 2; ++i) {
    o.d.bytes[i] = o.a.bytes[2 * i];
    o.d.bytes[i + N / 2] = o.a.bytes[2 * i + 1];
  }
}
OPRIG_HVX_OP(Q6_Vh_vdeal_Vh) {
  for (size_t i = 0; i < N / 4; ++i) {
    o.d.set<uint16_t>(i, o.a.get<uint16_t>(2 * i));
    o.d.set<uint16_t>(i + N / 4, o.a.get<uint16_t>(2 * i + 1));
  }
}
// vdeale(Vu, Vv): bytes 0 and 2 of each word, Vv's then Vu's.
OPRIG_HVX_OP(Q6_Vb_vdeale_VbVb) {
  for (size_t i = 0; i < N / 4; ++i) {
    o.d.bytes[i] = o.b.bytes[4 * i];
    o.d.bytes[N / 4 + i] = o.b.bytes[4 * i + 2];
    o.d.bytes[N / 2 + i] = o.a.bytes[4 * i];
    o.d.bytes[3 * N / 4 + i] = o.a.bytes[4 * i + 2];
  }
}
// Shuffle: the inverse of deal, interleaving the two halves.
OPRIG_HVX_OP(Q6_Vb_vshuff_Vb) {
  for (size_t i = 0; i < N / 2; ++i) {
    o.d.bytes[2 * i] = o.a.bytes[i];
    o.d.bytes[2 * i + 1] = o.a.bytes[i + N / 2];
  }
}
OPRIG_HVX_OP(Q6_Vh_vshuff_Vh) {
  for (size_t i = 0; i < N / 4; ++i) {
    o.d.set<uint16_t>(2 * i, o.a.get<uint16_t>(i));
    o.d.set<uint16_t>(2 * i + 1, o.a.get<uint16_t>(i + N / 4));
  }
}
// vshuffe/vshuffo(Vu, Vv): the even (odd) elements of Vv and Vu, interleaved.
template <typename Lane>
void shuffle_eo(Operands& o, size_t odd, size_t dst_half = 0) {
  for (size_t i = 0; i < kLanes<Lane> / 2; ++i) {
    o.d.set<Lane>(dst_half, 2 * i, o.b.get<Lane>(2 * i + odd));
    o.d.set<Lane>(dst_half, 2 * i + 1, o.a.get<Lane>(2 * i + odd));
  }
}
OPRIG_HVX_OP(Q6_Vb_vshuffe_VbVb) { shuffle_eo<uint8_t>(o, 0); }
OPRIG_HVX_OP(Q6_Vb_vshuffo_VbVb) { shuffle_eo<uint8_t>(o, 1); }
OPRIG_HVX_OP(Q6_Vh_vshuffe_VhVh) { shuffle_eo<uint16_t>(o, 0); }
OPRIG_HVX_OP(Q6_Vh_vshuffo_VhVh) { shuffle_eo<uint16_t>(o, 1); }
#if defined(__x86_64__)
// Both of vshuffoe and vsxt/vzxt in SSE2 (the quantised ADD/SUB program
// widens its codes with them): each pair of lanes of the source is one lane
// of twice the width, whose low and high halves go to the result's low and
// high vector. Chunk k of the sources is read before chunk k of the result
// is written, so a result that is also a source stays correct.
namespace sse2 {
inline __m128i load(const uint8_t* p, size_t k) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p) + k); }
inline void store(uint8_t* p, size_t k, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p) + k, v); }
// vshuffoe on Lane: low vector (b.even, a.even), high vector (b.odd, a.odd).
template <typename Lane>
void shuffoe(Operands& o) {
  for (size_t k = 0; k < N / 16; ++k) {
    const __m128i a = load(o.a.bytes, k), b = load(o.b.bytes, k);
    __m128i lo, hi;
    if constexpr (sizeof(Lane) == 1) {
      lo = _mm_or_si128(_mm_and_si128(b, _mm_set1_epi16(0x00FF)), _mm_slli_epi16(a, 8));
      hi = _mm_or_si128(_mm_srli_epi16(b, 8), _mm_andnot_si128(_mm_set1_epi16(0x00FF), a));
    } else {
      lo = _mm_or_si128(_mm_and_si128(b, _mm_set1_epi32(0xFFFF)), _mm_slli_epi32(a, 16));
      hi = _mm_or_si128(_mm_srli_epi32(b, 16), _mm_andnot_si128(_mm_set1_epi32(0xFFFF), a));
    }
    store(o.d.bytes, k, lo);
    store(o.d.bytes + N, k, hi);
  }
}
// vsxt/vzxt from Narrow lanes: the even ones to the low vector, the odd ones to the high.
template <typename Narrow>
void extend(Operands& o) {
  for (size_t k = 0; k < N / 16; ++k) {
    const __m128i a = load(o.a.bytes, k);
    __m128i lo, hi;
    if constexpr (std::is_same_v<Narrow, int8_t>) {
      lo = _mm_srai_epi16(_mm_slli_epi16(a, 8), 8), hi = _mm_srai_epi16(a, 8);
    } else if constexpr (std::is_same_v<Narrow, uint8_t>) {
      lo = _mm_and_si128(a, _mm_set1_epi16(0x00FF)), hi = _mm_srli_epi16(a, 8);
    } else if constexpr (std::is_same_v<Narrow, int16_t>) {
      lo = _mm_srai_epi32(_mm_slli_epi32(a, 16), 16), hi = _mm_srai_epi32(a, 16);
    } else {
      lo = _mm_and_si128(a, _mm_set1_epi32(0xFFFF)), hi = _mm_srli_epi32(a, 16);
    }
    store(o.d.bytes, k, lo);
    store(o.d.bytes + N, k, hi);
  }
}
}  // namespace sse2
#endif
template <typename Lane>
void shuffle_oe(Operands& o) {
#if defined(__x86_64__)
  if (kHostSimd) return sse2::shuffoe<Lane>(o);
#endif
  shuffle_eo<Lane>(o, 0, 0);
  shuffle_eo<Lane>(o, 1, 1);
}
OPRIG_HVX_OP(Q6_Wb_vshuffoe_VbVb) { shuffle_oe<uint8_t>(o); }
OPRIG_HVX_OP(Q6_Wh_vshuffoe_VhVh) { shuffle_oe<uint16_t>(o); }

// vsxt/vzxt: even lanes widened into the low vector, odd ones into the high.
template <typename Wide, typename Narrow>
void extend_even_odd(Operands& o) {
#if defined(__x86_64__)
  if (kHostSimd) return sse2::extend<Narrow>(o);
#endif
  for (size_t i = 0; i < kLanes<Wide>; ++i)
    for (size_t h = 0; h < 2; ++h) o.d.set<Wide>(h, i, static_cast<Wide>(o.a.get<Narrow>(2 * i + h)));
}
OPRIG_HVX_OP(Q6_Wh_vsxt_Vb) { extend_even_odd<int16_t, int8_t>(o); }
OPRIG_HVX_OP(Q6_Ww_vsxt_Vh) { extend_even_odd<int32_t, int16_t>(o); }
OPRIG_HVX_OP(Q6_Wuh_vzxt_Vub) { extend_even_odd<uint16_t, uint8_t>(o); }
OPRIG_HVX_OP(Q6_Wuw_vzxt_Vuh) { extend_even_odd<uint32_t, uint16_t>(o); }
// vunpack: in order, lane i of the source to lane i of the whole pair.
template <typename Wide, typename Narrow>
void unpack(Operands& o) {
  Narrow a[kLanes<Narrow>];
  Wide d[kLanes<Narrow>];
  std::memcpy(a, o.a.bytes, kVectorBytes);
  for (size_t i = 0; i < kLanes<Narrow>; ++i) d[i] = static_cast<Wide>(a[i]);
  std::memcpy(o.d.bytes, d, 2 * kVectorBytes);
}
OPRIG_HVX_OP(Q6_Wh_vunpack_Vb) { unpack<int16_t, int8_t>(o); }
OPRIG_HVX_OP(Q6_Ww_vunpack_Vh) { unpack<int32_t, int16_t>(o); }
OPRIG_HVX_OP(Q6_Wuh_vunpack_Vub) { unpack<uint16_t, uint8_t>(o); }
OPRIG_HVX_OP(Q6_Wuw_vunpack_Vuh) { unpack<uint32_t, uint16_t>(o); }
// Vxx |= vunpacko(Vu): lane i of Vu into the upper half of the pair's lane i.
OPRIG_HVX_OP(Q6_Wh_vunpackoor_WhVb) {
  for (size_t i = 0; i < kLanes<uint8_t>; ++i)
    o.d.set<uint16_t>(i, static_cast<uint16_t>(o.a.get<uint16_t>(i) | (uint32_t{o.b.get<uint8_t>(i)} << 8)));
}
OPRIG_HVX_OP(Q6_Ww_vunpackoor_WwVh) {
  for (size_t i = 0; i < kLanes<uint16_t>; ++i)
    o.d.set<uint32_t>(i, o.a.get<uint32_t>(i) | (uint32_t{o.b.get<uint16_t>(i)} << 16));
}

// Benes networks: at each stage byte k takes byte k ^ offset where Vv's byte k has that bit.
namespace {
template <bool Forward>
void delta(Operands& o) {
  uint8_t tmp[N];
  std::memcpy(tmp, o.a.bytes, N);
  for (size_t step = 0; step < 7; ++step) {
    const size_t offset = Forward ? size_t{1} << step : N >> (step + 1);
    for (size_t k = 0; k < N; ++k) o.d.bytes[k] = (o.b.bytes[k] & offset) != 0 ? tmp[k ^ offset] : tmp[k];
    std::memcpy(tmp, o.d.bytes, N);
  }
}
}  // namespace
OPRIG_HVX_OP(Q6_V_vdelta_VV) { delta<false>(o); }
OPRIG_HVX_OP(Q6_V_vrdelta_VV) { delta<true>(o); }

// ---- table lookups ----
// vlut32(Vu, Vv, Rt): Rt selects one of eight 32-entry segments (bits 2..0);
// an index in that segment reads byte (Rt >> 1) & 1 of halfword index mod 64
// of the table vector Vv, any other index gives 0 (:nomatch: every index
// reads the segment, its low five bits picking the entry).
namespace {

// d[i] |= column[entry(i) & 63] where idx[i] hits the segment: the lookup
// all vlut32 forms share, 128 bytes (vlut32_ssse3 below gives the same
// result where the CPU has SSSE3).
void lookup64_portable(const uint8_t column[64], const uint8_t* idx, uint32_t segment, bool nomatch, uint8_t* d) {
  for (size_t i = 0; i < N; ++i) {
    const uint32_t entry = nomatch ? (idx[i] & 0x1Fu) | (segment << 5) : idx[i];
    const uint8_t hit = nomatch || (idx[i] >> 5) == segment ? 0xFF : 0x00;
    d[i] = static_cast<uint8_t>(d[i] | (column[entry & 63] & hit));
  }
}

#if defined(__x86_64__)
// The whole of vlut32 with SSSE3, straight from the operands' bytes: the
// column from the table vector by packing its halfwords' low or high bytes,
// then pshufb on 16 indices at a time. An index that hits the segment has bit
// 5 equal to the segment's (so does every :nomatch entry), so only the two
// 16-entry quarters of the column at 32 * (segment & 1) can answer.
__attribute__((target("ssse3"))) void vlut32_ssse3(const uint8_t* table, const uint8_t* idx, uint32_t segment,
                                                   uint32_t odd, bool nomatch, const uint8_t* acc, uint8_t* d) {
  const uint8_t* half = table + 64 * (segment & 1);  // halfwords 32 * (segment & 1) onwards
  __m128i quarters[2];
  const __m128i low_bytes = _mm_set1_epi16(0x00FF);
  for (int k = 0; k < 2; ++k) {
    __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(half + 32 * k));
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(half + 32 * k + 16));
    a = odd != 0 ? _mm_srli_epi16(a, 8) : _mm_and_si128(a, low_bytes);
    b = odd != 0 ? _mm_srli_epi16(b, 8) : _mm_and_si128(b, low_bytes);
    quarters[k] = _mm_packus_epi16(a, b);  // column[32 * (segment & 1) + 16k ..] (each word below 256: exact)
  }
  const __m128i low5 = _mm_set1_epi8(0x1F), high3 = _mm_set1_epi8(static_cast<char>(0xE0));
  const __m128i low4 = _mm_set1_epi8(0x0F), bit4 = _mm_set1_epi8(0x10);
  const __m128i seg_bits = _mm_set1_epi8(static_cast<char>(segment << 5));
  for (size_t i = 0; i < N; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(idx + i));
    const __m128i entry = nomatch ? _mm_or_si128(_mm_and_si128(x, low5), seg_bits) : x;
    const __m128i hit = nomatch ? _mm_set1_epi8(-1) : _mm_cmpeq_epi8(_mm_and_si128(x, high3), seg_bits);
    const __m128i lane = _mm_and_si128(entry, low4);
    const __m128i upper = _mm_cmpeq_epi8(_mm_and_si128(entry, bit4), bit4);
    const __m128i r = _mm_or_si128(_mm_andnot_si128(upper, _mm_shuffle_epi8(quarters[0], lane)),
                                   _mm_and_si128(upper, _mm_shuffle_epi8(quarters[1], lane)));
    const __m128i prior =
        acc != nullptr ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i)) : _mm_setzero_si128();
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm_or_si128(prior, _mm_and_si128(r, hit)));
  }
}
// OPRIG_HVX_PORTABLE=1 takes the portable path (the bit-exactness test runs both).
const bool kHaveSsse3 = __builtin_cpu_supports("ssse3") && std::getenv("OPRIG_HVX_PORTABLE") == nullptr;
#endif

void vlut32(Operands& o, const Reg& index, const Reg& table, uint32_t control, bool nomatch, const Reg* acc) {
  const uint32_t segment = control & 7, odd = (control >> 1) & 1;
#if defined(__x86_64__)
  if (kHaveSsse3)
    return vlut32_ssse3(table.bytes, index.bytes, segment, odd, nomatch, acc != nullptr ? acc->bytes : nullptr,
                        o.d.bytes);
#endif
  uint8_t column[64], idx[N], d[N];  // column: the byte each of the 64 halfwords offers
  for (size_t j = 0; j < 64; ++j) column[j] = table.bytes[2 * j + odd];
  std::memcpy(idx, index.bytes, N);
  if (acc != nullptr)
    std::memcpy(d, acc->bytes, N);
  else
    std::memset(d, 0, N);
  lookup64_portable(column, idx, segment, nomatch, d);
  std::memcpy(o.d.bytes, d, N);
}
// vlut16: even index bytes to the low vector's halfwords, odd ones to the high vector's.
void vlut16(Operands& o, const Reg& index, const Reg& table, uint32_t control, bool nomatch, const Reg* acc) {
  const uint32_t segment = control & 15, odd = (control >> 1) & 1;
  uint16_t column[32], d[2 * kLanes<uint16_t>];
  for (size_t j = 0; j < 32; ++j) column[j] = table.get<uint16_t>(2 * j + odd);
  if (acc != nullptr)
    std::memcpy(d, acc->bytes, 2 * N);
  else
    std::memset(d, 0, 2 * N);
  for (size_t i = 0; i < kLanes<int16_t>; ++i)
    for (size_t h = 0; h < 2; ++h) {
      const uint8_t x = index.bytes[2 * i + h];
      const uint32_t entry = nomatch ? (x & 0x0Fu) | (segment << 4) : x;
      const uint16_t hit = nomatch || (x >> 4) == segment ? 0xFFFF : 0x0000;
      uint16_t& out = d[h * kLanes<uint16_t> + i];
      out = static_cast<uint16_t>(out | (column[entry & 31] & hit));
    }
  std::memcpy(o.d.bytes, d, 2 * N);
}
}  // namespace
OPRIG_HVX_OP(Q6_Vb_vlut32_VbVbR) { vlut32(o, o.a, o.b, static_cast<uint32_t>(o.r), false, nullptr); }
OPRIG_HVX_OP(Q6_Vb_vlut32_VbVbI) { vlut32(o, o.a, o.b, static_cast<uint32_t>(o.r) & 7, false, nullptr); }
OPRIG_HVX_OP(Q6_Vb_vlut32_VbVbR_nomatch) { vlut32(o, o.a, o.b, static_cast<uint32_t>(o.r), true, nullptr); }
OPRIG_HVX_OP(Q6_Vb_vlut32or_VbVbVbR) { vlut32(o, o.b, o.c, static_cast<uint32_t>(o.r), false, &o.a); }
OPRIG_HVX_OP(Q6_Vb_vlut32or_VbVbVbI) { vlut32(o, o.b, o.c, static_cast<uint32_t>(o.r) & 7, false, &o.a); }
OPRIG_HVX_OP(Q6_Wh_vlut16_VbVhR) { vlut16(o, o.a, o.b, static_cast<uint32_t>(o.r), false, nullptr); }
OPRIG_HVX_OP(Q6_Wh_vlut16_VbVhI) { vlut16(o, o.a, o.b, static_cast<uint32_t>(o.r) & 7, false, nullptr); }
OPRIG_HVX_OP(Q6_Wh_vlut16_VbVhR_nomatch) { vlut16(o, o.a, o.b, static_cast<uint32_t>(o.r), true, nullptr); }
OPRIG_HVX_OP(Q6_Wh_vlut16or_WhVbVhR) { vlut16(o, o.b, o.c, static_cast<uint32_t>(o.r), false, &o.a); }
OPRIG_HVX_OP(Q6_Wh_vlut16or_WhVbVhI) { vlut16(o, o.b, o.c, static_cast<uint32_t>(o.r) & 7, false, &o.a); }

}  // namespace oprig::hvx
