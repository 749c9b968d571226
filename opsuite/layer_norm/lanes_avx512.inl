// Sixteen lanes of AVX-512 (F, DQ, BW, VL) for layer_norm_math.inl: fp32
// vectors, the same lanes widened to fp64 (two registers) for the sums, and
// sixteen fp64 accumulator lanes, as on every path, so sums form in the same order.
// Included by cpu.cpp inside `#pragma GCC target(...)`. Partial loads and
// stores are masked: nothing outside the tensor (red zones included) is read
// or written.

using V = __m512;
struct D {
  __m512d lo, hi;  // lanes 0-7, 8-15
};
using Acc = D;

#define OPRIG_LANE inline __attribute__((always_inline))

// Every lane: the maskz forms of intrinsics whose plain forms start from an
// "undefined" register, which GCC 12 reports as maybe-uninitialized.
inline constexpr __mmask16 kAll = 0xFFFF;
OPRIG_LANE __mmask16 first(size_t n) { return n >= 16 ? kAll : static_cast<__mmask16>((1u << n) - 1u); }

OPRIG_LANE V load(const float* p) { return _mm512_loadu_ps(p); }
OPRIG_LANE V load_partial(const float* p, size_t n) { return _mm512_maskz_loadu_ps(first(n), p); }  // zeros after n
OPRIG_LANE void store(float* p, V v) { _mm512_storeu_ps(p, v); }
OPRIG_LANE void store_partial(float* p, V v, size_t n) { _mm512_mask_storeu_ps(p, first(n), v); }
OPRIG_LANE V load_f16(const uint16_t* p) {
  return _mm512_maskz_cvtph_ps(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
OPRIG_LANE V load_f16_partial(const uint16_t* p, size_t n) {
  return _mm512_maskz_cvtph_ps(kAll, _mm256_maskz_loadu_epi16(first(n), p));
}
OPRIG_LANE __m256i to_half(V v) { return _mm512_maskz_cvtps_ph(kAll, v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
OPRIG_LANE void store_f16(uint16_t* p, V v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), to_half(v)); }
OPRIG_LANE void store_f16_partial(uint16_t* p, V v, size_t n) { _mm256_mask_storeu_epi16(p, first(n), to_half(v)); }

OPRIG_LANE V set1(float v) { return _mm512_set1_ps(v); }
OPRIG_LANE V sub(V a, V b) { return _mm512_sub_ps(a, b); }
OPRIG_LANE V mul(V a, V b) { return _mm512_mul_ps(a, b); }
OPRIG_LANE V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }

// fp32 -> fp64, exact.
OPRIG_LANE D widen(V v) {
  const __m512d as_pd = _mm512_castps_pd(v);
  return {_mm512_maskz_cvtps_pd(0xFF, _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, as_pd, 0))),
          _mm512_maskz_cvtps_pd(0xFF, _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, as_pd, 1)))};
}
OPRIG_LANE D d_zero() { return {_mm512_setzero_pd(), _mm512_setzero_pd()}; }
OPRIG_LANE D d_sub(D a, double b) { return {_mm512_sub_pd(a.lo, _mm512_set1_pd(b)), _mm512_sub_pd(a.hi, _mm512_set1_pd(b))}; }
OPRIG_LANE D d_add(D a, D b) { return {_mm512_add_pd(a.lo, b.lo), _mm512_add_pd(a.hi, b.hi)}; }
// a * b + c, one rounding.
OPRIG_LANE D d_fma(D a, D b, D c) { return {_mm512_fmadd_pd(a.lo, b.lo, c.lo), _mm512_fmadd_pd(a.hi, b.hi, c.hi)}; }
// Lanes n.. set to 0.
OPRIG_LANE D d_keep_first(D a, size_t n) {
  const __mmask16 m = first(n);
  return {_mm512_maskz_mov_pd(static_cast<__mmask8>(m & 0xFF), a.lo), _mm512_maskz_mov_pd(static_cast<__mmask8>(m >> 8), a.hi)};
}
OPRIG_LANE void d_store(D a, double* lanes) {
  _mm512_storeu_pd(lanes, a.lo);
  _mm512_storeu_pd(lanes + 8, a.hi);
}

#undef OPRIG_LANE
