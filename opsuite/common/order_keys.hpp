// The order keys of the selection ops' cpu kernels (ArgMax, TopK): every
// element becomes an int32 whose integer order is the spec's order. Floats
// map their bits to a monotone integer (-0 first becomes +0, so the two tie),
// NaN maps to INT32_MAX (above +inf), INT_32 is its own key. Comparing keys
// needs no NaN care and is one vector instruction. The scalar, AVX2 (8 keys)
// and AVX-512 (16 keys) forms compute the same integers, so every path of
// both ops agrees bit for bit. Only the two cpu.cpp include this.
#pragma once

#include <immintrin.h>

#include <bit>
#include <climits>
#include <cstdint>

#include "core/half.hpp"

namespace oprig::opsuite::order_keys {

inline int32_t key_of(float x) {
  if (x != x) return INT32_MAX;
  const auto b = static_cast<int32_t>(std::bit_cast<uint32_t>(x + 0.0f));  // -0 + 0 = +0
  return b ^ static_cast<int32_t>(static_cast<uint32_t>(b >> 31) >> 1);
}
inline int32_t key_of(uint16_t h) { return key_of(half_to_float(h)); }
inline int32_t key_of(int32_t v) { return v; }

#if defined(__x86_64__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // vector arguments only between always-inline functions of one target

#define OPRIG_ORDER_KEYS_AVX2 __attribute__((target("avx2,fma,f16c"), always_inline)) inline

OPRIG_ORDER_KEYS_AVX2 __m256i key8(__m256 x) {
  const __m256i b = _mm256_castps_si256(_mm256_add_ps(x, _mm256_setzero_ps()));
  const __m256i k = _mm256_xor_si256(b, _mm256_srli_epi32(_mm256_srai_epi32(b, 31), 1));
  const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
  return _mm256_blendv_epi8(k, _mm256_set1_epi32(INT32_MAX), nan);
}
OPRIG_ORDER_KEYS_AVX2 __m256i load_key8(const float* p) { return key8(_mm256_loadu_ps(p)); }
OPRIG_ORDER_KEYS_AVX2 __m256i load_key8(const uint16_t* p) {
  return key8(_mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
}
OPRIG_ORDER_KEYS_AVX2 __m256i load_key8(const int32_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

#undef OPRIG_ORDER_KEYS_AVX2

#define OPRIG_ORDER_KEYS_AVX512                                                               \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c"), always_inline)) \
  inline

// The maskz forms with every lane set: the plain shifts and conversions start
// from an "undefined" register that GCC 12 reports as maybe-uninitialized.
constexpr __mmask16 kAll = 0xFFFF;

OPRIG_ORDER_KEYS_AVX512 __m512i key16(__m512 x) {
  const __m512i b = _mm512_castps_si512(_mm512_add_ps(x, _mm512_setzero_ps()));
  const __m512i k = _mm512_xor_si512(b, _mm512_maskz_srli_epi32(kAll, _mm512_maskz_srai_epi32(kAll, b, 31), 1));
  return _mm512_mask_mov_epi32(k, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), _mm512_set1_epi32(INT32_MAX));
}
OPRIG_ORDER_KEYS_AVX512 __m512i load_key16(const float* p) { return key16(_mm512_loadu_ps(p)); }
OPRIG_ORDER_KEYS_AVX512 __m512i load_key16(const uint16_t* p) {
  return key16(_mm512_maskz_cvtph_ps(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
}
OPRIG_ORDER_KEYS_AVX512 __m512i load_key16(const int32_t* p) { return _mm512_loadu_si512(p); }

#undef OPRIG_ORDER_KEYS_AVX512
#pragma GCC diagnostic pop
#endif

}  // namespace oprig::opsuite::order_keys
