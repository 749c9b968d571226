// Sixteen lanes of AVX2 + FMA + F16C for layer_norm_math.inl: fp32 vectors
// as two registers, the same lanes widened to fp64 (four registers) for the
// sums, sixteen
// fp64 accumulator lanes, as on every path, so sums form in the same order.
// Included by cpu.cpp inside `#pragma GCC target("avx2,fma,f16c")`. Partial
// loads and stores go through a padded copy: nothing outside the tensor is
// touched.

struct V {
  __m256 lo, hi;  // lanes 0-7, 8-15
};
struct D {
  __m256d q[4];  // lanes 0-3, 4-7, 8-11, 12-15
};
using Acc = D;

#define OPRIG_LANE inline __attribute__((always_inline))

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
OPRIG_LANE __m256 widen8(const uint16_t* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
OPRIG_LANE V load_f16(const uint16_t* p) { return {widen8(p), widen8(p + 8)}; }
OPRIG_LANE V load_f16_partial(const uint16_t* p, size_t n) {
  alignas(16) uint16_t buffer[16] = {};
  std::memcpy(buffer, p, std::min<size_t>(n, 16) * sizeof(uint16_t));
  return load_f16(buffer);
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

OPRIG_LANE V set1(float v) { return {_mm256_set1_ps(v), _mm256_set1_ps(v)}; }
OPRIG_LANE V sub(V a, V b) { return {_mm256_sub_ps(a.lo, b.lo), _mm256_sub_ps(a.hi, b.hi)}; }
OPRIG_LANE V mul(V a, V b) { return {_mm256_mul_ps(a.lo, b.lo), _mm256_mul_ps(a.hi, b.hi)}; }
OPRIG_LANE V fma(V a, V b, V c) { return {_mm256_fmadd_ps(a.lo, b.lo, c.lo), _mm256_fmadd_ps(a.hi, b.hi, c.hi)}; }

// fp32 -> fp64, exact.
OPRIG_LANE D widen(V v) {
  return {{_mm256_cvtps_pd(_mm256_castps256_ps128(v.lo)), _mm256_cvtps_pd(_mm256_extractf128_ps(v.lo, 1)),
           _mm256_cvtps_pd(_mm256_castps256_ps128(v.hi)), _mm256_cvtps_pd(_mm256_extractf128_ps(v.hi, 1))}};
}
#define OPRIG_EACH_Q(expr) \
  D r;                     \
  for (int i = 0; i < 4; ++i) r.q[i] = expr; \
  return r
OPRIG_LANE D d_zero() { OPRIG_EACH_Q(_mm256_setzero_pd()); }
OPRIG_LANE D d_sub(D a, double b) { OPRIG_EACH_Q(_mm256_sub_pd(a.q[i], _mm256_set1_pd(b))); }
OPRIG_LANE D d_add(D a, D b) { OPRIG_EACH_Q(_mm256_add_pd(a.q[i], b.q[i])); }
// a * b + c, one rounding.
OPRIG_LANE D d_fma(D a, D b, D c) { OPRIG_EACH_Q(_mm256_fmadd_pd(a.q[i], b.q[i], c.q[i])); }
// Lanes n.. set to 0.
OPRIG_LANE D d_keep_first(D a, size_t n) {
  const __m256d lane = _mm256_set_pd(3, 2, 1, 0);
  OPRIG_EACH_Q(_mm256_and_pd(a.q[i], _mm256_cmp_pd(_mm256_add_pd(lane, _mm256_set1_pd(4.0 * i)),
                                                    _mm256_set1_pd(static_cast<double>(n)), _CMP_LT_OQ)));
}
OPRIG_LANE void d_store(D a, double* lanes) {
  for (int i = 0; i < 4; ++i) _mm256_storeu_pd(lanes + 4 * i, a.q[i]);
}

#undef OPRIG_EACH_Q
#undef OPRIG_LANE
