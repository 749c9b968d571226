// One lane: the portable path, written with the same operations as the vector
// lanes (lanes_avx2.inl, lanes_avx512.inl) so that activation_math.inl is one
// text for all three. Fused multiply-adds are std::fma (exact, like the vector
// FMA), so the scalar path computes the same bits as the vector paths.
// Included inside a namespace by cpu.cpp; needs <cmath>, <cstring>, core/half.hpp.

inline constexpr size_t kLanes = 1;
using V = float;
using M = bool;
using I = int32_t;

inline V set1(float v) { return v; }
inline V load(const float* p) { return *p; }
inline void store(float* p, V v) { *p = v; }
inline V load_partial(const float* p, size_t) { return *p; }
inline void store_partial(float* p, V v, size_t) { *p = v; }
inline V load_f16(const uint16_t* p) { return half_to_float(*p); }
inline void store_f16(uint16_t* p, V v) { *p = float_to_half(v); }
inline V load_f16_partial(const uint16_t* p, size_t) { return half_to_float(*p); }
inline void store_f16_partial(uint16_t* p, V v, size_t) { *p = float_to_half(v); }

inline V add(V a, V b) { return a + b; }
inline V sub(V a, V b) { return a - b; }
inline V mul(V a, V b) { return a * b; }
inline V div(V a, V b) { return a / b; }
inline V fma(V a, V b, V c) { return std::fma(a, b, c); }    // a * b + c, one rounding
inline V fms(V a, V b, V c) { return std::fma(a, b, -c); }   // a * b - c, one rounding
inline V fnma(V a, V b, V c) { return std::fma(-a, b, c); }  // c - a * b, one rounding
inline V neg(V a) { return -a; }
inline V abs(V a) { return std::fabs(a); }
inline V copysign(V magnitude, V sign) { return std::copysign(magnitude, sign); }
// x86 min/max semantics (the second operand when either is NaN), so that
// limit_above(x, c) and limit_below(x, c) keep a NaN x, as the vector lanes do.
inline V limit_above(V x, V limit) { return limit < x ? limit : x; }
inline V limit_below(V x, V limit) { return limit > x ? limit : x; }
// p 2^n for an integral n in [-126, 127], rounded once (as vscalefps). Other
// n only reach here in lanes whose result is discarded (NaN inputs); they
// scale by 1 instead of an undefined cast.
inline V scale_by_pow2(V p, V n) {
  const int32_t e = n >= -126.0f && n <= 127.0f ? static_cast<int32_t>(n) : 0;
  const uint32_t bits = static_cast<uint32_t>(e + 127) << 23;
  float pow2;
  std::memcpy(&pow2, &bits, sizeof pow2);
  return p * pow2;
}

inline M lt(V a, V b) { return a < b; }
inline M le(V a, V b) { return a <= b; }
inline M gt(V a, V b) { return a > b; }
inline M ge(V a, V b) { return a >= b; }
inline M lt_or_nan(V a, float limit) { return !(a >= limit); }
inline V select(M m, V a, V b) { return m ? a : b; }
inline unsigned mask_bits(M m) { return m ? 1u : 0u; }

// Coefficient tables of 8 entries, indexed per lane.
inline I truncate_to_index(V a) { return a >= 0.0f && a < 8.0f ? static_cast<I>(a) : 0; }
inline V index_to_float(I i) { return static_cast<V>(i); }
inline V lookup8(const float* table, I index) { return table[index]; }
