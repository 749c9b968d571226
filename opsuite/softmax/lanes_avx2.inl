// Sixteen lanes of AVX2 + FMA + F16C as two registers: the operations of
// softmax_math.inl. Included by cpu.cpp inside
// `#pragma GCC target("avx2,fma,f16c")`. Sixteen lanes and sixteen fp64
// accumulator lanes, as on the other paths, so sums are formed in the same
// order. Partial loads and stores go through a padded copy: nothing outside
// the tensor is touched.

struct V {
  __m256 lo, hi;  // lanes 0-7, 8-15
};
using M = V;
struct Acc {
  __m256d a0, a1, a2, a3;  // lanes 0-3, 4-7, 8-11, 12-15
};

#define OPRIG_LANE inline __attribute__((always_inline))
#define OPRIG_BOTH2(name, expr) \
  OPRIG_LANE V name(V a, V b) { return {expr(a.lo, b.lo), expr(a.hi, b.hi)}; }
#define OPRIG_BOTH3(name, expr) \
  OPRIG_LANE V name(V a, V b, V c) { return {expr(a.lo, b.lo, c.lo), expr(a.hi, b.hi, c.hi)}; }

OPRIG_LANE V set1(float v) { return {_mm256_set1_ps(v), _mm256_set1_ps(v)}; }
OPRIG_LANE V load(const float* p) { return {_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8)}; }
OPRIG_LANE void store(float* p, V v) {
  _mm256_storeu_ps(p, v.lo);
  _mm256_storeu_ps(p + 8, v.hi);
}
// The first n lanes from p, the others `fill`.
OPRIG_LANE V load_partial(const float* p, size_t n, float fill) {
  alignas(32) float buffer[16];
  for (float& b : buffer) b = fill;
  std::memcpy(buffer, p, std::min<size_t>(n, 16) * sizeof(float));
  return load(buffer);
}
OPRIG_LANE void store_partial(float* p, V v, size_t n) {
  alignas(32) float buffer[16];
  store(buffer, v);
  std::memcpy(p, buffer, std::min<size_t>(n, 16) * sizeof(float));
}
OPRIG_LANE __m256 widen8(const uint16_t* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
OPRIG_LANE V load_f16(const uint16_t* p) { return {widen8(p), widen8(p + 8)}; }
OPRIG_LANE V load_f16_partial(const uint16_t* p, size_t n, float fill) {
  alignas(32) float buffer[16];
  for (float& b : buffer) b = fill;
  for (size_t i = 0; i < std::min<size_t>(n, 16); ++i) buffer[i] = half_to_float(p[i]);  // exact, as F16C
  return load(buffer);
}
OPRIG_LANE void narrow8(uint16_t* p, __m256 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
OPRIG_LANE void store_f16(uint16_t* p, V v) {
  narrow8(p, v.lo);
  narrow8(p + 8, v.hi);
}
OPRIG_LANE void store_f16_partial(uint16_t* p, V v, size_t n) {
  alignas(16) uint16_t buffer[16];
  store_f16(buffer, v);
  std::memcpy(p, buffer, std::min<size_t>(n, 16) * sizeof(uint16_t));
}

OPRIG_BOTH2(add, _mm256_add_ps)
OPRIG_BOTH2(sub, _mm256_sub_ps)
OPRIG_BOTH2(mul, _mm256_mul_ps)
OPRIG_BOTH3(fma, _mm256_fmadd_ps)
OPRIG_BOTH3(fms, _mm256_fmsub_ps)
OPRIG_BOTH3(fnma, _mm256_fnmadd_ps)
OPRIG_BOTH2(max, _mm256_max_ps)
// vmaxps returns the second operand when either is NaN: a NaN x stays.
OPRIG_LANE V limit_below(V x, V limit) { return {_mm256_max_ps(limit.lo, x.lo), _mm256_max_ps(limit.hi, x.hi)}; }
OPRIG_LANE M ge(V a, V b) { return {_mm256_cmp_ps(a.lo, b.lo, _CMP_GE_OQ), _mm256_cmp_ps(a.hi, b.hi, _CMP_GE_OQ)}; }
OPRIG_LANE V select(M m, V a, V b) { return {_mm256_blendv_ps(b.lo, a.lo, m.lo), _mm256_blendv_ps(b.hi, a.hi, m.hi)}; }
// p 2^n for an integral n in [-150, 127], rounded once: p 2^max(n, -100) is
// exact (a normal number), the second factor 2^(n - max(n, -100)) is normal
// too, and their product rounds once, as vscalefps does.
OPRIG_LANE __m256 pow2(__m256 n) {
  const __m256i biased = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
  return _mm256_castsi256_ps(_mm256_slli_epi32(biased, 23));
}
OPRIG_LANE __m256 scale1(__m256 p, __m256 n) {
  const __m256 n1 = _mm256_max_ps(n, _mm256_set1_ps(-100.0f));
  return _mm256_mul_ps(_mm256_mul_ps(p, pow2(n1)), pow2(_mm256_sub_ps(n, n1)));
}
OPRIG_BOTH2(scale_by_pow2, scale1)
OPRIG_LANE float reduce_max(V v) {
  __m256 m = _mm256_max_ps(v.lo, v.hi);
  __m128 h = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
  h = _mm_max_ps(h, _mm_movehl_ps(h, h));
  h = _mm_max_ss(h, _mm_shuffle_ps(h, h, 1));
  return _mm_cvtss_f32(h);
}

OPRIG_LANE Acc acc_zero() { return {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()}; }
// Lane j of the accumulator adds lane j of v, exactly widened to fp64.
OPRIG_LANE Acc acc_add(Acc a, V v) {
  return {_mm256_add_pd(a.a0, _mm256_cvtps_pd(_mm256_castps256_ps128(v.lo))),
          _mm256_add_pd(a.a1, _mm256_cvtps_pd(_mm256_extractf128_ps(v.lo, 1))),
          _mm256_add_pd(a.a2, _mm256_cvtps_pd(_mm256_castps256_ps128(v.hi))),
          _mm256_add_pd(a.a3, _mm256_cvtps_pd(_mm256_extractf128_ps(v.hi, 1)))};
}
OPRIG_LANE void acc_store(Acc a, double* lanes) {
  _mm256_storeu_pd(lanes, a.a0);
  _mm256_storeu_pd(lanes + 4, a.a1);
  _mm256_storeu_pd(lanes + 8, a.a2);
  _mm256_storeu_pd(lanes + 12, a.a3);
}
// 1 / (lane sum), in fp64 and rounded once to fp32.
OPRIG_LANE V acc_reciprocal(Acc a) {
  const __m256d one = _mm256_set1_pd(1.0);
  auto half = [&](__m256d x, __m256d y) {
    return _mm256_set_m128(_mm256_cvtpd_ps(_mm256_div_pd(one, y)), _mm256_cvtpd_ps(_mm256_div_pd(one, x)));
  };
  return {half(a.a0, a.a1), half(a.a2, a.a3)};
}

#undef OPRIG_BOTH2
#undef OPRIG_BOTH3
#undef OPRIG_LANE
