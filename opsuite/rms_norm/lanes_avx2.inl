// Sixteen lanes of AVX2 + FMA for rms_norm_math.inl: fp32 vectors as two
// registers, the same lanes widened to fp64 (four registers) for the sum of
// squares, sixteen fp64 accumulator lanes as on every path (sums form in the
// same order). Included by cpu.cpp inside `#pragma GCC target("avx2,fma")`.
// Partial loads and stores go through a padded copy: nothing outside the
// tensor is touched.

struct V {
  __m256 lo, hi;  // lanes 0-7, 8-15
};
struct D {
  __m256d q0, q1, q2, q3;  // lanes 0-3, 4-7, 8-11, 12-15
};

#define OPRIG_LANE inline __attribute__((always_inline))

OPRIG_LANE V set1(float v) { return {_mm256_set1_ps(v), _mm256_set1_ps(v)}; }
OPRIG_LANE V load(const float* p) { return {_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8)}; }
OPRIG_LANE V load_partial(const float* p, size_t n) {  // zeros after n
  alignas(32) float buffer[16] = {};
  std::memcpy(buffer, p, std::min<size_t>(n, 16) * sizeof(float));
  return load(buffer);
}
OPRIG_LANE void store(float* p, V v) {
  _mm256_storeu_ps(p, v.lo);
  _mm256_storeu_ps(p + 8, v.hi);
}
OPRIG_LANE void store_partial(float* p, V v, size_t n) {
  alignas(32) float buffer[16];
  store(buffer, v);
  std::memcpy(p, buffer, std::min<size_t>(n, 16) * sizeof(float));
}
OPRIG_LANE V mul(V a, V b) { return {_mm256_mul_ps(a.lo, b.lo), _mm256_mul_ps(a.hi, b.hi)}; }
OPRIG_LANE V fma(V a, V b, V c) { return {_mm256_fmadd_ps(a.lo, b.lo, c.lo), _mm256_fmadd_ps(a.hi, b.hi, c.hi)}; }
OPRIG_LANE V fms(V a, V b, V c) { return {_mm256_fmsub_ps(a.lo, b.lo, c.lo), _mm256_fmsub_ps(a.hi, b.hi, c.hi)}; }

// fp32 -> fp64, exact.
OPRIG_LANE D widen(V v) {
  return {_mm256_cvtps_pd(_mm256_castps256_ps128(v.lo)), _mm256_cvtps_pd(_mm256_extractf128_ps(v.lo, 1)),
          _mm256_cvtps_pd(_mm256_castps256_ps128(v.hi)), _mm256_cvtps_pd(_mm256_extractf128_ps(v.hi, 1))};
}
OPRIG_LANE D d_zero() { return {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()}; }
// a * b + c, one rounding.
OPRIG_LANE D d_fma(D a, D b, D c) {
  return {_mm256_fmadd_pd(a.q0, b.q0, c.q0), _mm256_fmadd_pd(a.q1, b.q1, c.q1), _mm256_fmadd_pd(a.q2, b.q2, c.q2),
          _mm256_fmadd_pd(a.q3, b.q3, c.q3)};
}
OPRIG_LANE void d_store(D a, double* lanes) {
  _mm256_storeu_pd(lanes, a.q0);
  _mm256_storeu_pd(lanes + 4, a.q1);
  _mm256_storeu_pd(lanes + 8, a.q2);
  _mm256_storeu_pd(lanes + 12, a.q3);
}

#undef OPRIG_LANE
