// Sixteen lanes of AVX-512 (F, DQ, BW, VL) for rms_norm_math.inl: fp32
// vectors, the same lanes widened to fp64 (two registers) for the sum of
// squares, sixteen fp64 accumulator lanes as on every path (sums form in the
// same order). Included by cpu.cpp inside `#pragma GCC target(...)`. Partial
// loads and stores are masked: nothing outside the tensor is touched.

using V = __m512;
struct D {
  __m512d lo, hi;  // lanes 0-7, 8-15
};

#define OPRIG_LANE inline __attribute__((always_inline))

OPRIG_LANE __mmask16 first(size_t n) { return n >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << n) - 1u); }

OPRIG_LANE V set1(float v) { return _mm512_set1_ps(v); }
OPRIG_LANE V load(const float* p) { return _mm512_loadu_ps(p); }
OPRIG_LANE V load_partial(const float* p, size_t n) { return _mm512_maskz_loadu_ps(first(n), p); }  // zeros after n
OPRIG_LANE void store(float* p, V v) { _mm512_storeu_ps(p, v); }
OPRIG_LANE void store_partial(float* p, V v, size_t n) { _mm512_mask_storeu_ps(p, first(n), v); }
OPRIG_LANE V mul(V a, V b) { return _mm512_mul_ps(a, b); }
OPRIG_LANE V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
OPRIG_LANE V fms(V a, V b, V c) { return _mm512_fmsub_ps(a, b, c); }

// fp32 -> fp64, exact (the maskz forms: GCC 12 reports the plain ones'
// "undefined" source register as maybe-uninitialized).
OPRIG_LANE D widen(V v) {
  const __m512d as_pd = _mm512_castps_pd(v);
  return {_mm512_maskz_cvtps_pd(0xFF, _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, as_pd, 0))),
          _mm512_maskz_cvtps_pd(0xFF, _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, as_pd, 1)))};
}
OPRIG_LANE D d_zero() { return {_mm512_setzero_pd(), _mm512_setzero_pd()}; }
// a * b + c, one rounding.
OPRIG_LANE D d_fma(D a, D b, D c) { return {_mm512_fmadd_pd(a.lo, b.lo, c.lo), _mm512_fmadd_pd(a.hi, b.hi, c.hi)}; }
OPRIG_LANE void d_store(D a, double* lanes) {
  _mm512_storeu_pd(lanes, a.lo);
  _mm512_storeu_pd(lanes + 8, a.hi);
}

#undef OPRIG_LANE
