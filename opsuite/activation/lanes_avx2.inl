// Sixteen lanes of AVX2 + FMA + F16C as two registers, each operation issued
// for both: the two halves are independent dependency chains, which the core
// overlaps (the functions are long chains of dependent operations, and GCC
// does not interleave two calls by itself). The operations of
// activation_math.inl. Included by cpu.cpp inside
// `#pragma GCC target("avx2,fma,f16c")`. Masks are vectors of all-ones or
// all-zeros lanes; partial loads and stores go through a zero-padded copy so
// nothing outside the tensor is touched.

inline constexpr size_t kLanes = 16;
struct V {
  __m256 lo, hi;
};
using M = V;
struct I {
  __m256i lo, hi;
};

#define OPRIG_LANE inline __attribute__((always_inline))
#define OPRIG_BOTH1(name, expr) \
  OPRIG_LANE V name(V a) { return {expr(a.lo), expr(a.hi)}; }
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
OPRIG_LANE V load_partial(const float* p, size_t n) {
  alignas(32) float buffer[16] = {};
  std::memcpy(buffer, p, n * sizeof(float));
  return load(buffer);
}
OPRIG_LANE void store_partial(float* p, V v, size_t n) {
  alignas(32) float buffer[16];
  store(buffer, v);
  std::memcpy(p, buffer, n * sizeof(float));
}
OPRIG_LANE __m256 widen8(const uint16_t* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
OPRIG_LANE void narrow8(uint16_t* p, __m256 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
OPRIG_LANE V load_f16(const uint16_t* p) { return {widen8(p), widen8(p + 8)}; }
OPRIG_LANE void store_f16(uint16_t* p, V v) {
  narrow8(p, v.lo);
  narrow8(p + 8, v.hi);
}
OPRIG_LANE V load_f16_partial(const uint16_t* p, size_t n) {
  alignas(16) uint16_t buffer[16] = {};
  std::memcpy(buffer, p, n * sizeof(uint16_t));
  return load_f16(buffer);
}
OPRIG_LANE void store_f16_partial(uint16_t* p, V v, size_t n) {
  alignas(16) uint16_t buffer[16];
  store_f16(buffer, v);
  std::memcpy(p, buffer, n * sizeof(uint16_t));
}

OPRIG_BOTH2(add, _mm256_add_ps)
OPRIG_BOTH2(sub, _mm256_sub_ps)
OPRIG_BOTH2(mul, _mm256_mul_ps)
OPRIG_BOTH2(div, _mm256_div_ps)
OPRIG_BOTH3(fma, _mm256_fmadd_ps)
OPRIG_BOTH3(fms, _mm256_fmsub_ps)
OPRIG_BOTH3(fnma, _mm256_fnmadd_ps)
OPRIG_LANE __m256 neg1(__m256 a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
OPRIG_LANE __m256 abs1(__m256 a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
OPRIG_LANE __m256 copysign1(__m256 magnitude, __m256 sign) {
  const __m256 sign_bit = _mm256_set1_ps(-0.0f);
  return _mm256_or_ps(_mm256_andnot_ps(sign_bit, magnitude), _mm256_and_ps(sign_bit, sign));
}
OPRIG_BOTH1(neg, neg1)
OPRIG_BOTH1(abs, abs1)
OPRIG_BOTH2(copysign, copysign1)
// vminps/vmaxps return the second operand when either is NaN: a NaN x stays.
OPRIG_LANE V limit_above(V x, V limit) { return {_mm256_min_ps(limit.lo, x.lo), _mm256_min_ps(limit.hi, x.hi)}; }
OPRIG_LANE V limit_below(V x, V limit) { return {_mm256_max_ps(limit.lo, x.lo), _mm256_max_ps(limit.hi, x.hi)}; }
// p 2^n for an integral n in [-126, 127]: 2^n built in the exponent field,
// one multiplication (one rounding, as vscalefps).
OPRIG_LANE __m256 scale1(__m256 p, __m256 n) {
  const __m256i biased = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
  return _mm256_mul_ps(p, _mm256_castsi256_ps(_mm256_slli_epi32(biased, 23)));
}
OPRIG_BOTH2(scale_by_pow2, scale1)

#define OPRIG_COMPARE(name, predicate) \
  OPRIG_LANE M name(V a, V b) { return {_mm256_cmp_ps(a.lo, b.lo, predicate), _mm256_cmp_ps(a.hi, b.hi, predicate)}; }
OPRIG_COMPARE(lt, _CMP_LT_OQ)
OPRIG_COMPARE(le, _CMP_LE_OQ)
OPRIG_COMPARE(gt, _CMP_GT_OQ)
OPRIG_COMPARE(ge, _CMP_GE_OQ)
OPRIG_LANE M lt_or_nan(V a, float limit) {
  const __m256 l = _mm256_set1_ps(limit);
  return {_mm256_cmp_ps(a.lo, l, _CMP_NGE_UQ), _mm256_cmp_ps(a.hi, l, _CMP_NGE_UQ)};
}
OPRIG_LANE V select(M m, V a, V b) { return {_mm256_blendv_ps(b.lo, a.lo, m.lo), _mm256_blendv_ps(b.hi, a.hi, m.hi)}; }
OPRIG_LANE unsigned mask_bits(M m) {
  return static_cast<unsigned>(_mm256_movemask_ps(m.lo)) | (static_cast<unsigned>(_mm256_movemask_ps(m.hi)) << 8);
}

OPRIG_LANE I truncate_to_index(V a) { return {_mm256_cvttps_epi32(a.lo), _mm256_cvttps_epi32(a.hi)}; }
OPRIG_LANE V index_to_float(I i) { return {_mm256_cvtepi32_ps(i.lo), _mm256_cvtepi32_ps(i.hi)}; }
OPRIG_LANE V lookup8(const float* table, I index) {
  const __m256 t = _mm256_loadu_ps(table);
  return {_mm256_permutevar8x32_ps(t, index.lo), _mm256_permutevar8x32_ps(t, index.hi)};
}

#undef OPRIG_COMPARE
#undef OPRIG_BOTH1
#undef OPRIG_BOTH2
#undef OPRIG_BOTH3
#undef OPRIG_LANE
