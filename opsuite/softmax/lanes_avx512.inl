// Sixteen lanes of AVX-512 (F, DQ, BW, VL): the operations of softmax_math.inl.
// Included by cpu.cpp inside `#pragma GCC target(...)`. Every lane set has
// sixteen lanes and sixteen fp64 accumulator lanes, so that sums are formed
// in the same order on every path. Partial loads and stores are masked:
// nothing outside the tensor (red zones included) is read or written.

using V = __m512;
using M = __mmask16;
struct Acc {
  __m512d lo, hi;  // lanes 0-7, 8-15
};

#define OPRIG_LANE inline __attribute__((always_inline))

// Every lane: the maskz forms of intrinsics whose plain forms start from an
// "undefined" register, which GCC 12 reports as maybe-uninitialized.
inline constexpr __mmask16 kAll = 0xFFFF;
OPRIG_LANE __mmask16 first(size_t n) { return n >= 16 ? kAll : static_cast<__mmask16>((1u << n) - 1u); }

OPRIG_LANE V set1(float v) { return _mm512_set1_ps(v); }
OPRIG_LANE V load(const float* p) { return _mm512_loadu_ps(p); }
OPRIG_LANE void store(float* p, V v) { _mm512_storeu_ps(p, v); }
// The first n lanes from p, the others `fill`.
OPRIG_LANE V load_partial(const float* p, size_t n, float fill) {
  return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), first(n), p);
}
OPRIG_LANE void store_partial(float* p, V v, size_t n) { _mm512_mask_storeu_ps(p, first(n), v); }
OPRIG_LANE V load_f16(const uint16_t* p) {
  return _mm512_maskz_cvtph_ps(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
OPRIG_LANE V load_f16_partial(const uint16_t* p, size_t n, float fill) {
  const V x = _mm512_maskz_cvtph_ps(kAll, _mm256_maskz_loadu_epi16(first(n), p));
  return _mm512_mask_blend_ps(first(n), _mm512_set1_ps(fill), x);
}
OPRIG_LANE __m256i narrow(V v) { return _mm512_maskz_cvtps_ph(kAll, v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
OPRIG_LANE void store_f16(uint16_t* p, V v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), narrow(v)); }
OPRIG_LANE void store_f16_partial(uint16_t* p, V v, size_t n) { _mm256_mask_storeu_epi16(p, first(n), narrow(v)); }

OPRIG_LANE V add(V a, V b) { return _mm512_add_ps(a, b); }
OPRIG_LANE V sub(V a, V b) { return _mm512_sub_ps(a, b); }
OPRIG_LANE V mul(V a, V b) { return _mm512_mul_ps(a, b); }
OPRIG_LANE V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
OPRIG_LANE V fms(V a, V b, V c) { return _mm512_fmsub_ps(a, b, c); }
OPRIG_LANE V fnma(V a, V b, V c) { return _mm512_fnmadd_ps(a, b, c); }
OPRIG_LANE V max(V a, V b) { return _mm512_maskz_max_ps(kAll, a, b); }
// vmaxps returns the second operand when either is NaN: a NaN x stays.
OPRIG_LANE V limit_below(V x, V limit) { return _mm512_maskz_max_ps(kAll, limit, x); }
OPRIG_LANE M ge(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
OPRIG_LANE V select(M m, V a, V b) { return _mm512_mask_blend_ps(m, b, a); }
// p 2^n for an integral n in [-150, 127], rounded once (a subnormal result too).
OPRIG_LANE V scale_by_pow2(V p, V n) { return _mm512_maskz_scalef_ps(kAll, p, n); }
// Once per slice: through memory (_mm512_reduce_max_ps trips GCC 12's
// maybe-uninitialized warning).
OPRIG_LANE float reduce_max(V v) {
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, v);
  float m = lanes[0];
  for (size_t j = 1; j < 16; ++j) m = lanes[j] > m ? lanes[j] : m;
  return m;
}

OPRIG_LANE Acc acc_zero() { return {_mm512_setzero_pd(), _mm512_setzero_pd()}; }
// Lane j of the accumulator adds lane j of v, exactly widened to fp64.
OPRIG_LANE Acc acc_add(Acc a, V v) {
  const __m512d as_pd = _mm512_castps_pd(v);
  const __m512d lo = _mm512_maskz_cvtps_pd(0xFF, _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, as_pd, 0)));
  const __m512d hi = _mm512_maskz_cvtps_pd(0xFF, _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, as_pd, 1)));
  return {_mm512_add_pd(a.lo, lo), _mm512_add_pd(a.hi, hi)};
}
OPRIG_LANE void acc_store(Acc a, double* lanes) {
  _mm512_storeu_pd(lanes, a.lo);
  _mm512_storeu_pd(lanes + 8, a.hi);
}
// 1 / (lane sum), in fp64 and rounded once to fp32.
OPRIG_LANE V acc_reciprocal(Acc a) {
  const __m512d one = _mm512_set1_pd(1.0);
  return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_maskz_cvtpd_ps(0xFF, _mm512_div_pd(one, a.lo))),
                            _mm512_maskz_cvtpd_ps(0xFF, _mm512_div_pd(one, a.hi)), 1);
}

#undef OPRIG_LANE
