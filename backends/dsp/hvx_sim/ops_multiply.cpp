// Multiplies: widening products (even lanes to the low vector, odd lanes to
// the high one), low-half (vmpyi) and high-half/fractional (vmpye, vmpyo)
// products, dot products and reductions (vdmpy, vrmpy, vtmpy, vmpa, vdsad,
// vrsad) and the piecewise-linear helpers (vlut4, vmpa/vmps with Rtt). Sums
// are formed exactly in 64 bits, then wrapped or saturated to the lane as the
// instruction says.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "hvx_sim/host_simd.hpp"
#include "hvx_sim/lanes.hpp"
#include "hvx_sim/lanewise.hpp"

namespace oprig::hvx {
namespace {

using lanes::byte;
using lanes::half;
using lanes::sat;
using lanes::ubyte;
using lanes::uhalf;
using lanes::wrap;

// Dst[half][i] = acc + f(half, i) for both vectors of a pair of Dst lanes;
// acc is the accumulator (a) when `accumulate`, else 0.
template <typename Dst, typename F>
void pair_result(Operands& o, bool accumulate, F f) {
  for (size_t i = 0; i < kLanes<Dst>; ++i)
    for (size_t h = 0; h < 2; ++h)
      o.d.set<Dst>(h, i, wrap<Dst>((accumulate ? int64_t{o.a.get<Dst>(h, i)} : 0) + f(h, i)));
}
// Dst[i] = acc + f(i) over one vector.
template <typename Dst, typename F>
void vector_result(Operands& o, bool accumulate, F f) {
  for (size_t i = 0; i < kLanes<Dst>; ++i)
    o.d.set<Dst>(i, wrap<Dst>((accumulate ? int64_t{o.a.get<Dst>(i)} : 0) + f(i)));
}
// Dst[i] = sat(acc + f(i)).
template <typename Dst, typename F>
void vector_result_sat(Operands& o, bool accumulate, F f) {
  for (size_t i = 0; i < kLanes<Dst>; ++i)
    o.d.set<Dst>(i, sat<Dst>((accumulate ? int64_t{o.a.get<Dst>(i)} : 0) + f(i)));
}
// The source operands: right after the accumulator when there is one.
inline const Reg& src1(const Operands& o, bool accumulate) { return accumulate ? o.b : o.a; }
inline const Reg& src2(const Operands& o, bool accumulate) { return accumulate ? o.c : o.b; }

// ---- widening multiplies: lane 2i + h of the sources -> vector h, lane i ----
template <typename Wide, typename U, typename V>
void widening_vv(Operands& o, bool acc) {
  const Reg &u = src1(o, acc), &v = src2(o, acc);
  pair_result<Wide>(o, acc, [&](size_t h, size_t i) {
    return int64_t{u.get<U>(2 * i + h)} * int64_t{v.get<V>(2 * i + h)};
  });
}
// Vu times a scalar: lane 2i + h meets element (2i + h) mod N of Rt.
template <typename Wide, typename U, typename R>
void widening_vr(Operands& o, bool acc) {
  const Reg& u = src1(o, acc);
  pair_result<Wide>(o, acc, [&](size_t h, size_t i) {
    const size_t lane = 2 * i + h;
    const int64_t r = sizeof(R) == 1 ? (std::is_signed_v<R> ? int64_t{byte(o.r, lane % 4)} : int64_t{ubyte(o.r, lane % 4)})
                                     : (std::is_signed_v<R> ? int64_t{half(o.r, lane % 2)} : int64_t{uhalf(o.r, lane % 2)});
    return int64_t{u.get<U>(lane)} * r;
  });
}

// ---- 4-way reductions: word i = sum of bytes 4i..4i+3 times Rt's bytes or Vv's ----
template <typename U, typename V>
void rmpy_vv(Operands& o, bool acc) {
  const Reg &u = src1(o, acc), &v = src2(o, acc);
  vector_result<int32_t>(o, acc, [&](size_t i) {
    int64_t sum = 0;
    for (size_t k = 0; k < 4; ++k) sum += int64_t{u.get<U>(4 * i + k)} * int64_t{v.get<V>(4 * i + k)};
    return sum;
  });
}
template <typename U, bool SignedRt>
void rmpy_vr(Operands& o, bool acc) {
  const Reg& u = src1(o, acc);
  vector_result<int32_t>(o, acc, [&](size_t i) {
    int64_t sum = 0;
    for (unsigned k = 0; k < 4; ++k)
      sum += int64_t{u.get<U>(4 * i + k)} * (SignedRt ? int64_t{byte(o.r, k)} : int64_t{ubyte(o.r, k)});
    return sum;
  });
}
// Sliding-window form on a pair, #u1 selecting the window (vrmpy(Vuu, Rt, #u1)):
// term(h, i, k) pairs a source byte with a coefficient byte as HVX defines it.
template <bool SignedRt, typename Term>
void rmpy_window(Operands& o, bool acc, Term term) {
  const Reg& uu = src1(o, acc);
  const unsigned imm = static_cast<unsigned>(o.s) & 1;
  const auto coeff = [&](unsigned k) {
    return SignedRt ? int64_t{byte(o.r, k & 3)} : int64_t{ubyte(o.r, k & 3)};
  };
  pair_result<int32_t>(o, acc, [&](size_t h, size_t i) {
    // (source vector, byte, coefficient index) of the four terms, per HVX's vrmpy(Vuu,Rt,#u1).
    const size_t sel = imm != 0 ? 1 : 0;
    struct T { size_t vec, byte; unsigned coeff; };
    const T lo[4] = {{sel, 0, 0u - imm}, {0, 1, 1u - imm}, {0, 2, 2u - imm}, {0, 3, 3u - imm}};
    const T hi[4] = {{1, 0, 2u - imm}, {1, 1, 3u - imm}, {sel, 2, 0u - imm}, {0, 3, 1u - imm}};
    const T* terms = h == 0 ? lo : hi;
    int64_t sum = 0;
    for (size_t k = 0; k < 4; ++k)
      sum += term(uu.get<uint8_t>(terms[k].vec, 4 * i + terms[k].byte), coeff(terms[k].coeff));
    return sum;
  });
}

}  // namespace

// ---- widening products ----
OPRIG_HVX_OP(Q6_Wh_vmpy_VbVb) { widening_vv<int16_t, int8_t, int8_t>(o, false); }
OPRIG_HVX_OP(Q6_Wh_vmpyacc_WhVbVb) { widening_vv<int16_t, int8_t, int8_t>(o, true); }
OPRIG_HVX_OP(Q6_Wh_vmpy_VubVb) { widening_vv<int16_t, uint8_t, int8_t>(o, false); }
OPRIG_HVX_OP(Q6_Wh_vmpyacc_WhVubVb) { widening_vv<int16_t, uint8_t, int8_t>(o, true); }
OPRIG_HVX_OP(Q6_Wuh_vmpy_VubVub) { widening_vv<uint16_t, uint8_t, uint8_t>(o, false); }
OPRIG_HVX_OP(Q6_Wuh_vmpyacc_WuhVubVub) { widening_vv<uint16_t, uint8_t, uint8_t>(o, true); }
OPRIG_HVX_OP(Q6_Ww_vmpy_VhVh) { widening_vv<int32_t, int16_t, int16_t>(o, false); }
OPRIG_HVX_OP(Q6_Ww_vmpyacc_WwVhVh) { widening_vv<int32_t, int16_t, int16_t>(o, true); }
OPRIG_HVX_OP(Q6_Ww_vmpy_VhVuh) { widening_vv<int32_t, int16_t, uint16_t>(o, false); }
OPRIG_HVX_OP(Q6_Ww_vmpyacc_WwVhVuh) { widening_vv<int32_t, int16_t, uint16_t>(o, true); }
OPRIG_HVX_OP(Q6_Wuw_vmpy_VuhVuh) { widening_vv<uint32_t, uint16_t, uint16_t>(o, false); }
OPRIG_HVX_OP(Q6_Wuw_vmpyacc_WuwVuhVuh) { widening_vv<uint32_t, uint16_t, uint16_t>(o, true); }
OPRIG_HVX_OP(Q6_Wh_vmpy_VubRb) { widening_vr<int16_t, uint8_t, int8_t>(o, false); }
OPRIG_HVX_OP(Q6_Wh_vmpyacc_WhVubRb) { widening_vr<int16_t, uint8_t, int8_t>(o, true); }
OPRIG_HVX_OP(Q6_Wuh_vmpy_VubRub) { widening_vr<uint16_t, uint8_t, uint8_t>(o, false); }
OPRIG_HVX_OP(Q6_Wuh_vmpyacc_WuhVubRub) { widening_vr<uint16_t, uint8_t, uint8_t>(o, true); }
OPRIG_HVX_OP(Q6_Ww_vmpy_VhRh) { widening_vr<int32_t, int16_t, int16_t>(o, false); }
OPRIG_HVX_OP(Q6_Ww_vmpyacc_WwVhRh) { widening_vr<int32_t, int16_t, int16_t>(o, true); }
OPRIG_HVX_OP(Q6_Wuw_vmpy_VuhRuh) { widening_vr<uint32_t, uint16_t, uint16_t>(o, false); }
OPRIG_HVX_OP(Q6_Wuw_vmpyacc_WuwVuhRuh) { widening_vr<uint32_t, uint16_t, uint16_t>(o, true); }
OPRIG_HVX_OP(Q6_Ww_vmpyacc_WwVhRh_sat) {
  for (size_t i = 0; i < kLanes<int32_t>; ++i)
    for (size_t h = 0; h < 2; ++h)
      o.d.set<int32_t>(h, i, sat<int32_t>(int64_t{o.a.get<int32_t>(h, i)} +
                                          int64_t{o.b.get<int16_t>(2 * i + h)} * half(o.r, h)));
}

// ---- halfword products with <<1 and rounding: the high half of sat32(2*x*y (+0x8000)) ----
namespace {
int16_t fractional16(int64_t product, bool round) { return static_cast<int16_t>(sat<int32_t>(2 * product + (round ? 0x8000 : 0)) >> 16); }
}  // namespace
OPRIG_HVX_OP(Q6_Vh_vmpy_VhVh_s1_rnd_sat) {
  map2<int16_t, int16_t>(o, [](int16_t x, int16_t y) { return fractional16(int64_t{x} * y, true); });
}
OPRIG_HVX_OP(Q6_Vh_vmpy_VhRh_s1_rnd_sat) {
  for (size_t i = 0; i < kLanes<int16_t>; ++i)
    o.d.set<int16_t>(i, fractional16(int64_t{o.a.get<int16_t>(i)} * half(o.r, i % 2), true));
}
OPRIG_HVX_OP(Q6_Vh_vmpy_VhRh_s1_sat) {
  for (size_t i = 0; i < kLanes<int16_t>; ++i)
    o.d.set<int16_t>(i, fractional16(int64_t{o.a.get<int16_t>(i)} * half(o.r, i % 2), false));
}

// ---- 32 x 16 products: even (vmpye/vmpyie, unsigned low half) and odd (vmpyo/vmpyio, signed high half) ----
namespace {
// The 32 products of Vu's words with a half of each word of Vv (64-bit, exact),
// computed on local copies (the requantisation's hot path).
enum class HalfOf { kEvenUnsigned, kEvenSigned, kOddSigned };
void products32x16(const Reg& u, const Reg& v, HalfOf half, int64_t out[32]) {
  int32_t w[32];
  uint16_t h[64];
  std::memcpy(w, u.bytes, kVectorBytes);
  std::memcpy(h, v.bytes, kVectorBytes);
  for (size_t i = 0; i < 32; ++i) {
    const uint16_t raw = half == HalfOf::kOddSigned ? h[2 * i + 1] : h[2 * i];
    const int64_t m = half == HalfOf::kEvenUnsigned ? int64_t{raw} : int64_t{static_cast<int16_t>(raw)};
    out[i] = int64_t{w[i]} * m;
  }
}
void store_words(const Reg& d, const int32_t words[32]) { std::memcpy(d.bytes, words, kVectorBytes); }
}  // namespace
// The hot ones (every requantisation runs vmpye and vmpyo) in 32-bit
// arithmetic, which vectorises on baseline x86-64 where the 64-bit products
// above do not: a word w is hi * 2^16 + lo with hi = w >> 16 (signed) and
// lo = w & 0xFFFF, so w * h = hi * h * 2^16 + lo * h, each product within 32
// bits.
namespace {
// Both operands are read as words and the halves taken by shifts inside the
// loops: loads at the offsets the copies stored at (halfword loads at odd
// offsets would miss the CPU's store forwarding, costing more than the
// arithmetic).
struct Words {
  int32_t u[32], v[32];
  Words(const Reg& uu, const Reg& vv) {
    std::memcpy(u, uu.bytes, kVectorBytes);
    std::memcpy(v, vv.bytes, kVectorBytes);
  }
};
#if !defined(__SSE2__)  // the portable vmpye and vmpyo below
inline int32_t high_half(int32_t w) { return w >> 16; }
inline int32_t low_half(int32_t w) { return w & 0xFFFF; }
#endif
// The multiplying half of a word of Vv, widened.
inline int32_t multiplier(int32_t v, HalfOf half) {
  return half == HalfOf::kOddSigned      ? v >> 16
         : half == HalfOf::kEvenUnsigned ? v & 0xFFFF
                                         : static_cast<int32_t>(static_cast<uint32_t>(v) << 16) >> 16;
}
}  // namespace
// (w * uh) >> 16 = hi * uh + (lo * uh >> 16): |hi * uh| < 2^31, and the sum
// is the result, which fits (|w * uh| < 2^47).
#if defined(__SSE2__)
// The same arithmetic with SSE2 (every x86-64 CPU has it), four words at a
// time: compilers vectorise the 32-bit multiplies above only with SSE4.1's
// pmulld, so baseline builds multiplied lane by lane. Here every product is
// of 16-bit halves, which pmaddwd forms exactly: a word lane holds (low half,
// high half) as two int16, and pmaddwd(x, y) = x.lo * y.lo + x.hi * y.hi.
// A half read unsigned is its int16 value plus 65536 when its top bit is set:
// the products correct for that by adding the other factor shifted left 16.
namespace sse2 {
inline __m128i load(const uint8_t* p, size_t k) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p) + k); }
inline void store(uint8_t* p, size_t k, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p) + k, v); }
inline __m128i high_halves(__m128i w) { return _mm_and_si128(w, _mm_set1_epi32(static_cast<int32_t>(0xFFFF0000u))); }
inline __m128i low_halves(__m128i w) { return _mm_and_si128(w, _mm_set1_epi32(0xFFFF)); }
// All ones where bit 15 of the word is set (its low half, read unsigned, is >= 2^15).
inline __m128i low_half_top_bit(__m128i w) { return _mm_srai_epi32(_mm_slli_epi32(w, 16), 31); }
}  // namespace sse2

// vmpye: hi(u) * uh + (lo(u) * uh >> 16), uh = the low half of v, unsigned.
OPRIG_HVX_OP(Q6_Vw_vmpye_VwVuh) {
  for (size_t k = 0; k < kVectorBytes / 16; ++k) {
    const __m128i u = sse2::load(o.a.bytes, k), v = sse2::load(o.b.bytes, k);
    const __m128i hi_u = sse2::high_halves(u);  // (0, hi(u))
    // hi(u) * int16(uh), plus hi(u) * 65536 where uh's top bit is set.
    __m128i r = _mm_madd_epi16(hi_u, _mm_slli_epi32(v, 16));
    r = _mm_add_epi32(r, _mm_and_si128(hi_u, sse2::low_half_top_bit(v)));
    // lo(u) * uh >> 16: the high half of the unsigned 16 x 16 product.
    r = _mm_add_epi32(r, sse2::low_halves(_mm_mulhi_epu16(u, v)));
    sse2::store(o.d.bytes, k, r);
  }
}
#else
OPRIG_HVX_OP(Q6_Vw_vmpye_VwVuh) {
  const Words in(o.a, o.b);
  int32_t r[32];
  for (size_t i = 0; i < 32; ++i) {
    const int32_t h = multiplier(in.v[i], HalfOf::kEvenUnsigned);
    const auto low = static_cast<uint32_t>(low_half(in.u[i])) * static_cast<uint32_t>(h);  // < 2^32
    r[i] = static_cast<int32_t>(static_cast<uint32_t>(high_half(in.u[i]) * h) + (low >> 16));
  }
  store_words(o.d, r);
}
#endif
OPRIG_HVX_OP(Q6_W_vmpye_VwVuh) {
  int64_t p[32];
  products32x16(o.a, o.b, HalfOf::kEvenUnsigned, p);
  for (size_t i = 0; i < kLanes<int32_t>; ++i) {
    o.d.set<int32_t>(1, i, wrap<int32_t>(p[i] >> 16));
    o.d.set<int32_t>(0, i, wrap<int32_t>(static_cast<int64_t>(static_cast<uint64_t>(p[i]) << 16)));
  }
}
// Vxx += vmpyo(Vu.w, Vv.h): the 64-bit accumulation that completes vmpye.
OPRIG_HVX_OP(Q6_W_vmpyoacc_WVwVh) {
  int64_t p[32];
  products32x16(o.b, o.c, HalfOf::kOddSigned, p);
  for (size_t i = 0; i < kLanes<int32_t>; ++i) {
    const int64_t sum = p[i] + int64_t{o.a.get<int32_t>(1, i)};
    const uint32_t lo = static_cast<uint32_t>(o.a.get<int32_t>(0, i));
    o.d.set<int32_t>(1, i, wrap<int32_t>(sum >> 16));
    o.d.set<uint32_t>(0, i, ((lo >> 16) & 0xFFFFu) | ((static_cast<uint32_t>(sum) & 0xFFFFu) << 16));
  }
}
namespace {
// Word i = wrap(acc_i + u_i * v.half_i) with acc from `acc` (or 0): only the
// low 32 bits of the product count, so a 32-bit multiply gives them.
void accumulate_words(const Reg& d, const Reg* acc, const Reg& u, const Reg& v, HalfOf half) {
  const Words in(u, v);
  uint32_t x[32] = {}, r[32];
  if (acc != nullptr) std::memcpy(x, acc->bytes, kVectorBytes);
  for (size_t i = 0; i < 32; ++i)
    r[i] = x[i] + static_cast<uint32_t>(in.u[i]) * static_cast<uint32_t>(multiplier(in.v[i], half));
  std::memcpy(d.bytes, r, kVectorBytes);
}
}  // namespace
OPRIG_HVX_OP(Q6_Vw_vmpyie_VwVuh) { accumulate_words(o.d, nullptr, o.a, o.b, HalfOf::kEvenUnsigned); }
OPRIG_HVX_OP(Q6_Vw_vmpyieacc_VwVwVuh) { accumulate_words(o.d, &o.a, o.b, o.c, HalfOf::kEvenUnsigned); }
OPRIG_HVX_OP(Q6_Vw_vmpyieacc_VwVwVh) { accumulate_words(o.d, &o.a, o.b, o.c, HalfOf::kEvenSigned); }
OPRIG_HVX_OP(Q6_Vw_vmpyio_VwVh) { accumulate_words(o.d, nullptr, o.a, o.b, HalfOf::kOddSigned); }
// vmpyieo: (even half of Vu * odd half of Vv) << 16, the cross term of a 32 x 32 low product.
OPRIG_HVX_OP(Q6_Vw_vmpyieo_VhVh) {
  int16_t u[64], v[64];
  int32_t r[32];
  std::memcpy(u, o.a.bytes, kVectorBytes);
  std::memcpy(v, o.b.bytes, kVectorBytes);
  for (size_t i = 0; i < 32; ++i) r[i] = static_cast<int32_t>(static_cast<uint32_t>(int32_t{u[2 * i]} * v[2 * i + 1]) << 16);
  store_words(o.d, r);
}
// vmpyo(Vu.w, Vv.h):<<1(:rnd):sat(:shift): the high word of 2 * (Vx + Vu * Vv.h_odd)
// / 2^16, saturated; :rnd rounds the last bit.
namespace {
// That is sat((((x + w * h) >> 14) + rnd) >> 1), computed in 32 bits: with
// x = xh * 2^16 + xl as w above, x + w * h = A * 2^16 + B where A = hi * h + xh
// and B = lo * h + xl both fit 32 bits (|B| <= 65535 * 32768); the result
// before saturation is 2A + C with C = ((B >> 14) + rnd) >> 1, that is
// 2T + (C & 1) with T = A + (C >> 1), which saturates exactly when T is
// outside [-2^30, 2^30).
#if defined(__SSE2__)
void mpyo(const Reg& d, const Reg* acc, const Reg& u, const Reg& v, bool round) {
  const __m128i rnd = _mm_set1_epi32(round ? 1 : 0), one = _mm_set1_epi32(1);
  const __m128i max_t = _mm_set1_epi32((int32_t{1} << 30) - 1), min_t = _mm_set1_epi32(-(int32_t{1} << 30));
  for (size_t k = 0; k < kVectorBytes / 16; ++k) {
    const __m128i uw = sse2::load(u.bytes, k), vw = sse2::load(v.bytes, k);
    const __m128i x = acc != nullptr ? sse2::load(acc->bytes, k) : _mm_setzero_si128();
    const __m128i h = _mm_srai_epi32(vw, 16);  // (h, sign of h): pmaddwd's low pair is lo * h
    // a = hi(u) * h + hi(x); b = lo(u) * h + lo(x), lo(u) unsigned.
    const __m128i a = _mm_add_epi32(_mm_madd_epi16(sse2::high_halves(uw), vw), _mm_srai_epi32(x, 16));
    __m128i b = _mm_madd_epi16(sse2::low_halves(uw), h);
    b = _mm_add_epi32(b, _mm_and_si128(sse2::high_halves(vw), sse2::low_half_top_bit(uw)));
    b = _mm_add_epi32(b, sse2::low_halves(x));
    const __m128i c = _mm_srai_epi32(_mm_add_epi32(_mm_srai_epi32(b, 14), rnd), 1);
    const __m128i t = _mm_add_epi32(a, _mm_srai_epi32(c, 1));
    const __m128i over = _mm_cmpgt_epi32(t, max_t), under = _mm_cmpgt_epi32(min_t, t);
    const __m128i exact = _mm_add_epi32(_mm_slli_epi32(t, 1), _mm_and_si128(c, one));
    // Saturated: INT32_MAX where over, INT32_MIN where under.
    const __m128i saturated = _mm_or_si128(_mm_srli_epi32(over, 1), _mm_slli_epi32(under, 31));
    const __m128i r = _mm_or_si128(_mm_andnot_si128(_mm_or_si128(over, under), exact),
                                   _mm_and_si128(_mm_or_si128(over, under), saturated));
    sse2::store(d.bytes, k, r);
  }
}
#else
void mpyo(const Reg& d, const Reg* acc, const Reg& u, const Reg& v, bool round) {
  const Words in(u, v);
  int32_t x[32] = {}, r[32];
  if (acc != nullptr) std::memcpy(x, acc->bytes, kVectorBytes);
  const int32_t rnd = round ? 1 : 0;
  for (size_t i = 0; i < 32; ++i) {
    const int32_t h = multiplier(in.v[i], HalfOf::kOddSigned);
    const int32_t a = high_half(in.u[i]) * h + high_half(x[i]);
    const int32_t b = low_half(in.u[i]) * h + low_half(x[i]);
    const int32_t c = ((b >> 14) + rnd) >> 1;
    const int32_t t = a + (c >> 1);
    r[i] = t >= (int32_t{1} << 30) ? INT32_MAX : t < -(int32_t{1} << 30) ? INT32_MIN : 2 * t + (c & 1);
  }
  store_words(d, r);
}
#endif
}  // namespace
OPRIG_HVX_OP(Q6_Vw_vmpyo_VwVh_s1_sat) { mpyo(o.d, nullptr, o.a, o.b, false); }
OPRIG_HVX_OP(Q6_Vw_vmpyo_VwVh_s1_rnd_sat) { mpyo(o.d, nullptr, o.a, o.b, true); }
OPRIG_HVX_OP(Q6_Vw_vmpyoacc_VwVwVh_s1_sat_shift) { mpyo(o.d, &o.a, o.b, o.c, false); }
OPRIG_HVX_OP(Q6_Vw_vmpyoacc_VwVwVh_s1_rnd_sat_shift) { mpyo(o.d, &o.a, o.b, o.c, true); }
// vmpye(Vu.uh, Rt.uh): even unsigned halves times Rt's low half.
OPRIG_HVX_OP(Q6_Vuw_vmpye_VuhRuh) {
  vector_result<uint32_t>(o, false, [&](size_t i) { return int64_t{o.a.get<uint16_t>(2 * i)} * uhalf(o.r, 0); });
}
OPRIG_HVX_OP(Q6_Vuw_vmpyeacc_VuwVuhRuh) {
  vector_result<uint32_t>(o, true, [&](size_t i) { return int64_t{o.b.get<uint16_t>(2 * i)} * uhalf(o.r, 0); });
}

// ---- low-half products (vmpyi) ----
OPRIG_HVX_OP(Q6_Vh_vmpyi_VhVh) { vector_result<int16_t>(o, false, [&](size_t i) { return int64_t{o.a.get<int16_t>(i)} * o.b.get<int16_t>(i); }); }
OPRIG_HVX_OP(Q6_Vh_vmpyiacc_VhVhVh) { vector_result<int16_t>(o, true, [&](size_t i) { return int64_t{o.b.get<int16_t>(i)} * o.c.get<int16_t>(i); }); }
OPRIG_HVX_OP(Q6_Vh_vmpyi_VhRb) { vector_result<int16_t>(o, false, [&](size_t i) { return int64_t{o.a.get<int16_t>(i)} * byte(o.r, i % 4); }); }
OPRIG_HVX_OP(Q6_Vh_vmpyiacc_VhVhRb) { vector_result<int16_t>(o, true, [&](size_t i) { return int64_t{o.b.get<int16_t>(i)} * byte(o.r, i % 4); }); }
OPRIG_HVX_OP(Q6_Vw_vmpyi_VwRb) { vector_result<int32_t>(o, false, [&](size_t i) { return int64_t{o.a.get<int32_t>(i)} * byte(o.r, i % 4); }); }
OPRIG_HVX_OP(Q6_Vw_vmpyiacc_VwVwRb) { vector_result<int32_t>(o, true, [&](size_t i) { return int64_t{o.b.get<int32_t>(i)} * byte(o.r, i % 4); }); }
OPRIG_HVX_OP(Q6_Vw_vmpyi_VwRub) { vector_result<int32_t>(o, false, [&](size_t i) { return int64_t{o.a.get<int32_t>(i)} * ubyte(o.r, i % 4); }); }
OPRIG_HVX_OP(Q6_Vw_vmpyiacc_VwVwRub) { vector_result<int32_t>(o, true, [&](size_t i) { return int64_t{o.b.get<int32_t>(i)} * ubyte(o.r, i % 4); }); }
OPRIG_HVX_OP(Q6_Vw_vmpyi_VwRh) { vector_result<int32_t>(o, false, [&](size_t i) { return int64_t{o.a.get<int32_t>(i)} * half(o.r, i % 2); }); }
OPRIG_HVX_OP(Q6_Vw_vmpyiacc_VwVwRh) { vector_result<int32_t>(o, true, [&](size_t i) { return int64_t{o.b.get<int32_t>(i)} * half(o.r, i % 2); }); }

// ---- 2-way dot products (vdmpy) ----
// Lane i of the result sums source lanes 2i and 2i+1 times Rt's elements (2i) mod N, (2i+1) mod N.
OPRIG_HVX_OP(Q6_Vh_vdmpy_VubRb) {
  vector_result<int16_t>(o, false, [&](size_t i) {
    return int64_t{o.a.get<uint8_t>(2 * i)} * byte(o.r, 2 * i) + int64_t{o.a.get<uint8_t>(2 * i + 1)} * byte(o.r, 2 * i + 1);
  });
}
OPRIG_HVX_OP(Q6_Vh_vdmpyacc_VhVubRb) {
  vector_result<int16_t>(o, true, [&](size_t i) {
    return int64_t{o.b.get<uint8_t>(2 * i)} * byte(o.r, 2 * i) + int64_t{o.b.get<uint8_t>(2 * i + 1)} * byte(o.r, 2 * i + 1);
  });
}
OPRIG_HVX_OP(Q6_Vw_vdmpy_VhRb) {
  vector_result<int32_t>(o, false, [&](size_t i) {
    return int64_t{o.a.get<int16_t>(2 * i)} * byte(o.r, 2 * i) + int64_t{o.a.get<int16_t>(2 * i + 1)} * byte(o.r, 2 * i + 1);
  });
}
OPRIG_HVX_OP(Q6_Vw_vdmpyacc_VwVhRb) {
  vector_result<int32_t>(o, true, [&](size_t i) {
    return int64_t{o.b.get<int16_t>(2 * i)} * byte(o.r, 2 * i) + int64_t{o.b.get<int16_t>(2 * i + 1)} * byte(o.r, 2 * i + 1);
  });
}
// The sliding-window pair forms: the high vector's lane i straddles the two vectors.
OPRIG_HVX_OP(Q6_Wh_vdmpy_WubRb) {
  pair_result<int16_t>(o, false, [&](size_t h, size_t i) {
    const int64_t x = o.a.get<uint8_t>(0, 2 * i + h), y = h == 0 ? o.a.get<uint8_t>(0, 2 * i + 1) : o.a.get<uint8_t>(1, 2 * i);
    return x * byte(o.r, 2 * i) + y * byte(o.r, 2 * i + 1);
  });
}
OPRIG_HVX_OP(Q6_Wh_vdmpyacc_WhWubRb) {
  pair_result<int16_t>(o, true, [&](size_t h, size_t i) {
    const int64_t x = o.b.get<uint8_t>(0, 2 * i + h), y = h == 0 ? o.b.get<uint8_t>(0, 2 * i + 1) : o.b.get<uint8_t>(1, 2 * i);
    return x * byte(o.r, 2 * i) + y * byte(o.r, 2 * i + 1);
  });
}
OPRIG_HVX_OP(Q6_Ww_vdmpy_WhRb) {
  pair_result<int32_t>(o, false, [&](size_t h, size_t i) {
    const int64_t x = o.a.get<int16_t>(0, 2 * i + h), y = h == 0 ? o.a.get<int16_t>(0, 2 * i + 1) : o.a.get<int16_t>(1, 2 * i);
    return x * byte(o.r, 2 * i) + y * byte(o.r, 2 * i + 1);
  });
}
OPRIG_HVX_OP(Q6_Ww_vdmpyacc_WwWhRb) {
  pair_result<int32_t>(o, true, [&](size_t h, size_t i) {
    const int64_t x = o.b.get<int16_t>(0, 2 * i + h), y = h == 0 ? o.b.get<int16_t>(0, 2 * i + 1) : o.b.get<int16_t>(1, 2 * i);
    return x * byte(o.r, 2 * i) + y * byte(o.r, 2 * i + 1);
  });
}
namespace {
// Word i = sat(acc + Vu.h[2i] * c0 + Vu.h[2i+1] * c1).
template <typename Coeff>
void dmpy_sat(Operands& o, bool acc, Coeff c0, Coeff c1) {
  const Reg& u = src1(o, acc);
  vector_result_sat<int32_t>(o, acc, [&](size_t i) {
    return int64_t{u.get<int16_t>(2 * i)} * c0 + int64_t{u.get<int16_t>(2 * i + 1)} * c1;
  });
}
// The pair form: Vuu.v[0].h[2i+1] * c0 + Vuu.v[1].h[2i] * c1.
template <typename Coeff>
void dmpy_pair_sat(Operands& o, bool acc, Coeff c0, Coeff c1) {
  const Reg& u = src1(o, acc);
  vector_result_sat<int32_t>(o, acc, [&](size_t i) {
    return int64_t{u.get<int16_t>(0, 2 * i + 1)} * c0 + int64_t{u.get<int16_t>(1, 2 * i)} * c1;
  });
}

#if defined(__SSE2__)
// The same sums with pmaddwd (the quantised ADD/SUB program's hot path: 8
// vdmpy per 128 codes). A coefficient half c read unsigned is its int16
// value cs plus 65536 t (t its top bit), so
//   acc + u0 c0 + u1 c1 = acc + P + 2^16 Q,  P = u0 cs0 + u1 cs1 (pmaddwd
// with Rt itself), Q = u0 t0 + u1 t1 (pmaddwd with the top bits).
// P is exact except for u0 = u1 = cs0 = cs1 = -32768 (2^31): Rt = 0x80008000
// takes the portable loop. Without Q the sum is a saturating add of two
// words; with it, the exact sum is H 2^16 + L with H and L formed from the
// 16-bit halves of acc and P in 32 bits, and it fits a word exactly when
// H does a halfword. dmpy_sat_sse2 and dmpy_sat_avx2 are this one algorithm
// in 128- and 256-bit intrinsics (one template would need the AVX2 target
// on every helper it inlines).
struct DmpyWords {
  const uint8_t* u;    // Vu, or Vuu's low vector (pair)
  const uint8_t* acc;  // or nullptr
  uint8_t* d;
  int32_t rt;
  bool unsigned_coeffs, pair;
};
inline bool dmpy_fast_applies(int32_t rt) { return static_cast<uint32_t>(rt) != 0x80008000u; }
inline int32_t dmpy_top_bits(int32_t rt, bool unsigned_coeffs) {
  return unsigned_coeffs ? static_cast<int32_t>((static_cast<uint32_t>(rt) >> 15) & 0x00010001u) : 0;
}

void dmpy_sat_sse2(const DmpyWords& w) {
  const __m128i coeff = _mm_set1_epi32(w.rt), tops = _mm_set1_epi32(dmpy_top_bits(w.rt, w.unsigned_coeffs));
  const bool carry = dmpy_top_bits(w.rt, w.unsigned_coeffs) != 0;
  const __m128i low16 = _mm_set1_epi32(0xFFFF), max_h = _mm_set1_epi32(32767), min_h = _mm_set1_epi32(-32768);
  const __m128i max_w = _mm_set1_epi32(INT32_MAX);
  for (size_t k = 0; k < kVectorBytes / 16; ++k) {
    __m128i u = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w.u) + k);
    if (w.pair)  // (v[0].h[2i+1], v[1].h[2i]) as one word's halves
      u = _mm_or_si128(_mm_srli_epi32(u, 16),
                       _mm_slli_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w.u + kVectorBytes) + k), 16));
    const __m128i x = w.acc != nullptr ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(w.acc) + k) : _mm_setzero_si128();
    const __m128i p = _mm_madd_epi16(u, coeff);
    __m128i r;
    if (!carry) {
      const __m128i sum = _mm_add_epi32(x, p);
      const __m128i overflow = _mm_srai_epi32(_mm_and_si128(_mm_xor_si128(x, sum), _mm_xor_si128(p, sum)), 31);
      const __m128i saturated = _mm_xor_si128(_mm_srai_epi32(x, 31), max_w);  // the operands' sign's limit
      r = _mm_or_si128(_mm_andnot_si128(overflow, sum), _mm_and_si128(overflow, saturated));
    } else {
      const __m128i l = _mm_add_epi32(_mm_and_si128(p, low16), _mm_and_si128(x, low16));
      const __m128i h = _mm_add_epi32(_mm_add_epi32(_mm_srai_epi32(p, 16), _mm_srai_epi32(x, 16)),
                                      _mm_add_epi32(_mm_madd_epi16(u, tops), _mm_srai_epi32(l, 16)));
      const __m128i over = _mm_cmpgt_epi32(h, max_h), under = _mm_cmpgt_epi32(min_h, h);
      const __m128i exact = _mm_or_si128(_mm_slli_epi32(h, 16), _mm_and_si128(l, low16));
      r = _mm_or_si128(_mm_andnot_si128(_mm_or_si128(over, under), exact),
                       _mm_or_si128(_mm_srli_epi32(over, 1), _mm_slli_epi32(under, 31)));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(w.d) + k, r);
  }
}

// The same with AVX2 (8 words at a time) where the CPU has it.
__attribute__((target("avx2"))) void dmpy_sat_avx2(const DmpyWords& w) {
  const __m256i coeff = _mm256_set1_epi32(w.rt), tops = _mm256_set1_epi32(dmpy_top_bits(w.rt, w.unsigned_coeffs));
  const bool carry = dmpy_top_bits(w.rt, w.unsigned_coeffs) != 0;
  const __m256i low16 = _mm256_set1_epi32(0xFFFF), max_h = _mm256_set1_epi32(32767), min_h = _mm256_set1_epi32(-32768);
  const __m256i max_w = _mm256_set1_epi32(INT32_MAX);
  for (size_t k = 0; k < kVectorBytes / 32; ++k) {
    __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.u) + k);
    if (w.pair)
      u = _mm256_or_si256(_mm256_srli_epi32(u, 16),
                          _mm256_slli_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.u + kVectorBytes) + k), 16));
    const __m256i x =
        w.acc != nullptr ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.acc) + k) : _mm256_setzero_si256();
    const __m256i p = _mm256_madd_epi16(u, coeff);
    __m256i r;
    if (!carry) {
      const __m256i sum = _mm256_add_epi32(x, p);
      const __m256i overflow =
          _mm256_srai_epi32(_mm256_and_si256(_mm256_xor_si256(x, sum), _mm256_xor_si256(p, sum)), 31);
      const __m256i saturated = _mm256_xor_si256(_mm256_srai_epi32(x, 31), max_w);
      r = _mm256_blendv_epi8(sum, saturated, overflow);
    } else {
      const __m256i l = _mm256_add_epi32(_mm256_and_si256(p, low16), _mm256_and_si256(x, low16));
      const __m256i h = _mm256_add_epi32(_mm256_add_epi32(_mm256_srai_epi32(p, 16), _mm256_srai_epi32(x, 16)),
                                         _mm256_add_epi32(_mm256_madd_epi16(u, tops), _mm256_srai_epi32(l, 16)));
      const __m256i over = _mm256_cmpgt_epi32(h, max_h), under = _mm256_cmpgt_epi32(min_h, h);
      const __m256i exact = _mm256_or_si256(_mm256_slli_epi32(h, 16), _mm256_and_si256(l, low16));
      r = _mm256_or_si256(_mm256_andnot_si256(_mm256_or_si256(over, under), exact),
                          _mm256_or_si256(_mm256_srli_epi32(over, 1), _mm256_slli_epi32(under, 31)));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(w.d) + k, r);
  }
}
#endif

// vdmpy(Vu or Vuu, Rt.h or Rt.uh):sat, on the host's SIMD where it applies.
template <typename Coeff>
void dmpy(Operands& o, bool acc, bool pair) {
  constexpr bool kUnsigned = std::is_unsigned_v<Coeff>;
#if defined(__SSE2__)
  if (kHostSimd && dmpy_fast_applies(o.r)) {
    const DmpyWords w{src1(o, acc).bytes, acc ? o.a.bytes : nullptr, o.d.bytes, o.r, kUnsigned, pair};
    return kHostAvx2 ? dmpy_sat_avx2(w) : dmpy_sat_sse2(w);
  }
#endif
  const Coeff c0 = kUnsigned ? static_cast<Coeff>(uhalf(o.r, 0)) : static_cast<Coeff>(half(o.r, 0));
  const Coeff c1 = kUnsigned ? static_cast<Coeff>(uhalf(o.r, 1)) : static_cast<Coeff>(half(o.r, 1));
  return pair ? dmpy_pair_sat(o, acc, c0, c1) : dmpy_sat(o, acc, c0, c1);
}
}  // namespace
OPRIG_HVX_OP(Q6_Vw_vdmpy_VhRh_sat) { dmpy<int16_t>(o, false, false); }
OPRIG_HVX_OP(Q6_Vw_vdmpyacc_VwVhRh_sat) { dmpy<int16_t>(o, true, false); }
OPRIG_HVX_OP(Q6_Vw_vdmpy_VhRuh_sat) { dmpy<uint16_t>(o, false, false); }
OPRIG_HVX_OP(Q6_Vw_vdmpyacc_VwVhRuh_sat) { dmpy<uint16_t>(o, true, false); }
OPRIG_HVX_OP(Q6_Vw_vdmpy_WhRh_sat) { dmpy<int16_t>(o, false, true); }
OPRIG_HVX_OP(Q6_Vw_vdmpyacc_VwWhRh_sat) { dmpy<int16_t>(o, true, true); }
OPRIG_HVX_OP(Q6_Vw_vdmpy_WhRuh_sat) { dmpy<uint16_t>(o, false, true); }
OPRIG_HVX_OP(Q6_Vw_vdmpyacc_VwWhRuh_sat) { dmpy<uint16_t>(o, true, true); }
OPRIG_HVX_OP(Q6_Vw_vdmpy_VhVh_sat) {
  vector_result_sat<int32_t>(o, false, [&](size_t i) {
    return int64_t{o.a.get<int16_t>(2 * i)} * o.b.get<int16_t>(2 * i) + int64_t{o.a.get<int16_t>(2 * i + 1)} * o.b.get<int16_t>(2 * i + 1);
  });
}
OPRIG_HVX_OP(Q6_Vw_vdmpyacc_VwVhVh_sat) {
  vector_result_sat<int32_t>(o, true, [&](size_t i) {
    return int64_t{o.b.get<int16_t>(2 * i)} * o.c.get<int16_t>(2 * i) + int64_t{o.b.get<int16_t>(2 * i + 1)} * o.c.get<int16_t>(2 * i + 1);
  });
}

// ---- sums of absolute differences ----
namespace {
void dsad(Operands& o, bool acc) {
  const Reg& u = src1(o, acc);
  pair_result<uint32_t>(o, acc, [&](size_t h, size_t i) {
    const int64_t x = u.get<uint16_t>(0, 2 * i + h), y = h == 0 ? u.get<uint16_t>(0, 2 * i + 1) : u.get<uint16_t>(1, 2 * i);
    return std::llabs(x - uhalf(o.r, 0)) + std::llabs(y - uhalf(o.r, 1));
  });
}
}  // namespace
OPRIG_HVX_OP(Q6_Wuw_vdsad_WuhRuh) { dsad(o, false); }
OPRIG_HVX_OP(Q6_Wuw_vdsadacc_WuwWuhRuh) { dsad(o, true); }

// ---- 4-way reductions ----
OPRIG_HVX_OP(Q6_Vw_vrmpy_VbVb) { rmpy_vv<int8_t, int8_t>(o, false); }
OPRIG_HVX_OP(Q6_Vw_vrmpyacc_VwVbVb) { rmpy_vv<int8_t, int8_t>(o, true); }
OPRIG_HVX_OP(Q6_Vw_vrmpy_VubVb) { rmpy_vv<uint8_t, int8_t>(o, false); }
OPRIG_HVX_OP(Q6_Vw_vrmpyacc_VwVubVb) { rmpy_vv<uint8_t, int8_t>(o, true); }
OPRIG_HVX_OP(Q6_Vuw_vrmpy_VubVub) { rmpy_vv<uint8_t, uint8_t>(o, false); }
OPRIG_HVX_OP(Q6_Vuw_vrmpyacc_VuwVubVub) { rmpy_vv<uint8_t, uint8_t>(o, true); }
OPRIG_HVX_OP(Q6_Vw_vrmpy_VubRb) { rmpy_vr<uint8_t, true>(o, false); }
OPRIG_HVX_OP(Q6_Vw_vrmpyacc_VwVubRb) { rmpy_vr<uint8_t, true>(o, true); }
OPRIG_HVX_OP(Q6_Vuw_vrmpy_VubRub) { rmpy_vr<uint8_t, false>(o, false); }
OPRIG_HVX_OP(Q6_Vuw_vrmpyacc_VuwVubRub) { rmpy_vr<uint8_t, false>(o, true); }
namespace {
constexpr auto kProduct = [](uint8_t x, int64_t c) { return int64_t{x} * c; };
constexpr auto kAbsDiff = [](uint8_t x, int64_t c) { return std::llabs(int64_t{x} - c); };
}  // namespace
OPRIG_HVX_OP(Q6_Ww_vrmpy_WubRbI) { rmpy_window<true>(o, false, kProduct); }
OPRIG_HVX_OP(Q6_Ww_vrmpyacc_WwWubRbI) { rmpy_window<true>(o, true, kProduct); }
OPRIG_HVX_OP(Q6_Wuw_vrmpy_WubRubI) { rmpy_window<false>(o, false, kProduct); }
OPRIG_HVX_OP(Q6_Wuw_vrmpyacc_WuwWubRubI) { rmpy_window<false>(o, true, kProduct); }
OPRIG_HVX_OP(Q6_Wuw_vrsad_WubRubI) { rmpy_window<false>(o, false, kAbsDiff); }
OPRIG_HVX_OP(Q6_Wuw_vrsadacc_WuwWubRubI) { rmpy_window<false>(o, true, kAbsDiff); }

// ---- 3-tap filters (vtmpy): x0*c0 + x1*c1 + x2 over a sliding window of the pair ----
namespace {
template <typename Wide, typename Narrow>
void tmpy(Operands& o, bool acc) {
  const Reg& u = src1(o, acc);
  pair_result<Wide>(o, acc, [&](size_t h, size_t i) {
    const int64_t x0 = u.get<Narrow>(0, 2 * i + h);
    const int64_t x1 = h == 0 ? u.get<Narrow>(0, 2 * i + 1) : u.get<Narrow>(1, 2 * i);
    const int64_t x2 = u.get<Narrow>(1, 2 * i + h);
    return x0 * byte(o.r, 2 * i) + x1 * byte(o.r, 2 * i + 1) + x2;
  });
}
}  // namespace
OPRIG_HVX_OP(Q6_Wh_vtmpy_WbRb) { tmpy<int16_t, int8_t>(o, false); }
OPRIG_HVX_OP(Q6_Wh_vtmpyacc_WhWbRb) { tmpy<int16_t, int8_t>(o, true); }
OPRIG_HVX_OP(Q6_Wh_vtmpy_WubRb) { tmpy<int16_t, uint8_t>(o, false); }
OPRIG_HVX_OP(Q6_Wh_vtmpyacc_WhWubRb) { tmpy<int16_t, uint8_t>(o, true); }
OPRIG_HVX_OP(Q6_Ww_vtmpy_WhRb) { tmpy<int32_t, int16_t>(o, false); }
OPRIG_HVX_OP(Q6_Ww_vtmpyacc_WwWhRb) { tmpy<int32_t, int16_t>(o, true); }

// ---- vmpa: two vertically adjacent rows (the pair's vectors) times two coefficients ----
namespace {
// Result lane i of vector h: Vuu.v[0] lane 2i+h times c(2h), Vuu.v[1] lane 2i+h times c(2h+1).
template <typename Wide, typename Narrow, typename Coeff>
void mpa(Operands& o, bool acc, Coeff coeff) {
  const Reg& u = src1(o, acc);
  pair_result<Wide>(o, acc, [&](size_t h, size_t i) {
    return int64_t{u.get<Narrow>(0, 2 * i + h)} * coeff(2 * h) + int64_t{u.get<Narrow>(1, 2 * i + h)} * coeff(2 * h + 1);
  });
}
}  // namespace
OPRIG_HVX_OP(Q6_Wh_vmpa_WubRb) { mpa<int16_t, uint8_t>(o, false, [&](size_t k) { return int64_t{byte(o.r, k)}; }); }
OPRIG_HVX_OP(Q6_Wh_vmpaacc_WhWubRb) { mpa<int16_t, uint8_t>(o, true, [&](size_t k) { return int64_t{byte(o.r, k)}; }); }
OPRIG_HVX_OP(Q6_Wh_vmpa_WubRub) { mpa<uint16_t, uint8_t>(o, false, [&](size_t k) { return int64_t{ubyte(o.r, k)}; }); }
OPRIG_HVX_OP(Q6_Wh_vmpaacc_WhWubRub) { mpa<uint16_t, uint8_t>(o, true, [&](size_t k) { return int64_t{ubyte(o.r, k)}; }); }
OPRIG_HVX_OP(Q6_Ww_vmpa_WhRb) { mpa<int32_t, int16_t>(o, false, [&](size_t k) { return int64_t{byte(o.r, k)}; }); }
OPRIG_HVX_OP(Q6_Ww_vmpaacc_WwWhRb) { mpa<int32_t, int16_t>(o, true, [&](size_t k) { return int64_t{byte(o.r, k)}; }); }
OPRIG_HVX_OP(Q6_Ww_vmpa_WuhRb) { mpa<int32_t, uint16_t>(o, false, [&](size_t k) { return int64_t{byte(o.r, k)}; }); }
OPRIG_HVX_OP(Q6_Ww_vmpaacc_WwWuhRb) { mpa<int32_t, uint16_t>(o, true, [&](size_t k) { return int64_t{byte(o.r, k)}; }); }
// Vector coefficients: lane 2i+h of each row times the same lane of Vvv's rows.
OPRIG_HVX_OP(Q6_Wh_vmpa_WubWb) {
  pair_result<int16_t>(o, false, [&](size_t h, size_t i) {
    return int64_t{o.a.get<uint8_t>(0, 2 * i + h)} * o.b.get<int8_t>(0, 2 * i + h) +
           int64_t{o.a.get<uint8_t>(1, 2 * i + h)} * o.b.get<int8_t>(1, 2 * i + h);
  });
}
OPRIG_HVX_OP(Q6_Wh_vmpa_WubWub) {
  pair_result<int16_t>(o, false, [&](size_t h, size_t i) {
    return int64_t{o.a.get<uint8_t>(0, 2 * i + h)} * o.b.get<uint8_t>(0, 2 * i + h) +
           int64_t{o.a.get<uint8_t>(1, 2 * i + h)} * o.b.get<uint8_t>(1, 2 * i + h);
  });
}

// ---- piecewise-linear helpers: the top two bits of Vu pick one of Rtt's four halves ----
namespace {
unsigned segment(uint16_t u) { return (u >> 14) & 3u; }
}  // namespace
OPRIG_HVX_OP(Q6_Vh_vlut4_VuhPh) {
  map1<int16_t, uint16_t>(o, [&](uint16_t u) { return lanes::half64(o.r, o.s, segment(u)); });
}
OPRIG_HVX_OP(Q6_Vh_vmpa_VhVhVhPh_sat) {
  for (size_t i = 0; i < kLanes<int16_t>; ++i) {
    const int16_t x = o.a.get<int16_t>(i), u = o.b.get<int16_t>(i);
    const int64_t c = int64_t{lanes::half64(o.r, o.s, segment(static_cast<uint16_t>(u)))} * 32768;
    o.d.set<int16_t>(i, sat<int16_t>((2 * int64_t{x} * u + c) >> 16));
  }
}
OPRIG_HVX_OP(Q6_Vh_vmpa_VhVhVuhPuh_sat) {
  for (size_t i = 0; i < kLanes<int16_t>; ++i) {
    const int16_t x = o.a.get<int16_t>(i);
    const uint16_t u = o.b.get<uint16_t>(i);
    const int64_t c = int64_t{lanes::uhalf64(o.r, o.s, segment(u))} * 32768;
    o.d.set<int16_t>(i, sat<int16_t>((int64_t{x} * u + c) >> 16));
  }
}
OPRIG_HVX_OP(Q6_Vh_vmps_VhVhVuhPuh_sat) {
  for (size_t i = 0; i < kLanes<int16_t>; ++i) {
    const int16_t x = o.a.get<int16_t>(i);
    const uint16_t u = o.b.get<uint16_t>(i);
    const int64_t c = int64_t{lanes::uhalf64(o.r, o.s, segment(u))} * 32768;
    o.d.set<int16_t>(i, sat<int16_t>((int64_t{x} * u - c) >> 16));
  }
}

}  // namespace oprig::hvx
