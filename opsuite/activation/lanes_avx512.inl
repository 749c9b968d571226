// Thirty-two lanes of AVX-512 (F, DQ, BW, VL) as two registers, each operation
// issued for both: the two halves are independent dependency chains, which
// the core overlaps (the functions are long chains of dependent operations,
// and GCC does not interleave two calls by itself). The operations of
// activation_math.inl. Included by cpu.cpp inside `#pragma GCC target(...)`.
// Masks are mask registers; partial loads and stores are masked, so nothing
// outside the tensor (red zones included) is read or written.

inline constexpr size_t kLanes = 32;
struct V {
  __m512 lo, hi;
};
struct M {
  __mmask16 lo, hi;
};
struct I {
  __m512i lo, hi;
};

#define OPRIG_LANE inline __attribute__((always_inline))

// Every lane: the maskz forms of intrinsics whose plain forms start from an
// "undefined" register, which GCC 12 reports as maybe-uninitialized.
inline constexpr __mmask16 kAll = 0xFFFF;

OPRIG_LANE __mmask16 first(size_t n) { return n >= 16 ? kAll : static_cast<__mmask16>((1u << n) - 1u); }

#define OPRIG_BOTH1(name, expr) \
  OPRIG_LANE V name(V a) { return {expr(a.lo), expr(a.hi)}; }
#define OPRIG_BOTH2(name, expr) \
  OPRIG_LANE V name(V a, V b) { return {expr(a.lo, b.lo), expr(a.hi, b.hi)}; }
#define OPRIG_BOTH3(name, expr) \
  OPRIG_LANE V name(V a, V b, V c) { return {expr(a.lo, b.lo, c.lo), expr(a.hi, b.hi, c.hi)}; }

OPRIG_LANE V set1(float v) { return {_mm512_set1_ps(v), _mm512_set1_ps(v)}; }
OPRIG_LANE V load(const float* p) { return {_mm512_loadu_ps(p), _mm512_loadu_ps(p + 16)}; }
OPRIG_LANE void store(float* p, V v) {
  _mm512_storeu_ps(p, v.lo);
  _mm512_storeu_ps(p + 16, v.hi);
}
OPRIG_LANE V load_partial(const float* p, size_t n) {
  return {_mm512_maskz_loadu_ps(first(n), p), _mm512_maskz_loadu_ps(first(n > 16 ? n - 16 : 0), p + 16)};
}
OPRIG_LANE void store_partial(float* p, V v, size_t n) {
  _mm512_mask_storeu_ps(p, first(n), v.lo);
  _mm512_mask_storeu_ps(p + 16, first(n > 16 ? n - 16 : 0), v.hi);
}
OPRIG_LANE __m512 widen16(__m256i h) { return _mm512_maskz_cvtph_ps(kAll, h); }
OPRIG_LANE __m256i narrow16(__m512 v) { return _mm512_maskz_cvtps_ph(kAll, v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
OPRIG_LANE V load_f16(const uint16_t* p) {
  return {widen16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))),
          widen16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 16)))};
}
OPRIG_LANE void store_f16(uint16_t* p, V v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), narrow16(v.lo));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 16), narrow16(v.hi));
}
OPRIG_LANE V load_f16_partial(const uint16_t* p, size_t n) {
  return {widen16(_mm256_maskz_loadu_epi16(first(n), p)), widen16(_mm256_maskz_loadu_epi16(first(n > 16 ? n - 16 : 0), p + 16))};
}
OPRIG_LANE void store_f16_partial(uint16_t* p, V v, size_t n) {
  _mm256_mask_storeu_epi16(p, first(n), narrow16(v.lo));
  _mm256_mask_storeu_epi16(p + 16, first(n > 16 ? n - 16 : 0), narrow16(v.hi));
}

OPRIG_BOTH2(add, _mm512_add_ps)
OPRIG_BOTH2(sub, _mm512_sub_ps)
OPRIG_BOTH2(mul, _mm512_mul_ps)
OPRIG_BOTH2(div, _mm512_div_ps)
OPRIG_BOTH3(fma, _mm512_fmadd_ps)
OPRIG_BOTH3(fms, _mm512_fmsub_ps)
OPRIG_BOTH3(fnma, _mm512_fnmadd_ps)
OPRIG_LANE __m512 neg1(__m512 a) { return _mm512_xor_ps(a, _mm512_set1_ps(-0.0f)); }
OPRIG_LANE __m512 abs1(__m512 a) { return _mm512_andnot_ps(_mm512_set1_ps(-0.0f), a); }
OPRIG_LANE __m512 copysign1(__m512 magnitude, __m512 sign) {
  const __m512 sign_bit = _mm512_set1_ps(-0.0f);
  return _mm512_or_ps(_mm512_andnot_ps(sign_bit, magnitude), _mm512_and_ps(sign_bit, sign));
}
OPRIG_BOTH1(neg, neg1)
OPRIG_BOTH1(abs, abs1)
OPRIG_BOTH2(copysign, copysign1)
// vminps/vmaxps return the second operand when either is NaN: a NaN x stays.
OPRIG_LANE __m512 min1(__m512 limit, __m512 x) { return _mm512_maskz_min_ps(kAll, limit, x); }
OPRIG_LANE __m512 max1(__m512 limit, __m512 x) { return _mm512_maskz_max_ps(kAll, limit, x); }
OPRIG_LANE V limit_above(V x, V limit) { return {min1(limit.lo, x.lo), min1(limit.hi, x.hi)}; }
OPRIG_LANE V limit_below(V x, V limit) { return {max1(limit.lo, x.lo), max1(limit.hi, x.hi)}; }
// p 2^n, rounded once: the same value as p times 2^n built in an exponent
// field (the other lane sets) whenever n is integral in [-126, 127].
OPRIG_LANE __m512 scalef1(__m512 p, __m512 n) { return _mm512_maskz_scalef_ps(kAll, p, n); }
OPRIG_BOTH2(scale_by_pow2, scalef1)

#define OPRIG_COMPARE(name, predicate) \
  OPRIG_LANE M name(V a, V b) { return {_mm512_cmp_ps_mask(a.lo, b.lo, predicate), _mm512_cmp_ps_mask(a.hi, b.hi, predicate)}; }
OPRIG_COMPARE(lt, _CMP_LT_OQ)
OPRIG_COMPARE(le, _CMP_LE_OQ)
OPRIG_COMPARE(gt, _CMP_GT_OQ)
OPRIG_COMPARE(ge, _CMP_GE_OQ)
OPRIG_LANE M lt_or_nan(V a, float limit) {
  const __m512 l = _mm512_set1_ps(limit);
  return {_mm512_cmp_ps_mask(a.lo, l, _CMP_NGE_UQ), _mm512_cmp_ps_mask(a.hi, l, _CMP_NGE_UQ)};
}
OPRIG_LANE V select(M m, V a, V b) { return {_mm512_mask_blend_ps(m.lo, b.lo, a.lo), _mm512_mask_blend_ps(m.hi, b.hi, a.hi)}; }
OPRIG_LANE unsigned mask_bits(M m) { return static_cast<unsigned>(m.lo) | (static_cast<unsigned>(m.hi) << 16); }

OPRIG_LANE I truncate_to_index(V a) { return {_mm512_maskz_cvttps_epi32(kAll, a.lo), _mm512_maskz_cvttps_epi32(kAll, a.hi)}; }
OPRIG_LANE V index_to_float(I i) { return {_mm512_maskz_cvtepi32_ps(kAll, i.lo), _mm512_maskz_cvtepi32_ps(kAll, i.hi)}; }
// Tables have 8 entries; indices stay below 8, so the upper half never matters.
OPRIG_LANE V lookup8(const float* table, I index) {
  const __m512 t = _mm512_maskz_loadu_ps(0x00FF, table);
  return {_mm512_maskz_permutexvar_ps(kAll, index.lo, t), _mm512_maskz_permutexvar_ps(kAll, index.hi, t)};
}

#undef OPRIG_COMPARE
#undef OPRIG_BOTH1
#undef OPRIG_BOTH2
#undef OPRIG_BOTH3
#undef OPRIG_LANE
