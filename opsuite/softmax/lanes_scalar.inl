// The portable path: sixteen lanes as plain arrays, every operation a loop,
// with the same IEEE operations as the vector lane sets (std::fma for the
// fused ones), so softmax_math.inl gives the same bits on every path. Sixteen
// fp64 accumulator lanes, as on the vector paths. Included inside a namespace
// by cpu.cpp; needs <cmath>, <cstring>, core/half.hpp.

struct V {
  float v[16];
};
using M = V;  // lanes of 1.0f (true) or 0.0f
struct Acc {
  double v[16];
};

template <class F>
inline V each(F f) {
  V r;
  for (size_t j = 0; j < 16; ++j) r.v[j] = f(j);
  return r;
}

inline V set1(float x) { return each([&](size_t) { return x; }); }
inline V load(const float* p) { return each([&](size_t j) { return p[j]; }); }
inline void store(float* p, V v) { std::memcpy(p, v.v, sizeof v.v); }
inline V load_partial(const float* p, size_t n, float fill) { return each([&](size_t j) { return j < n ? p[j] : fill; }); }
inline void store_partial(float* p, V v, size_t n) { std::memcpy(p, v.v, std::min<size_t>(n, 16) * sizeof(float)); }
inline V load_f16(const uint16_t* p) { return each([&](size_t j) { return half_to_float(p[j]); }); }
inline V load_f16_partial(const uint16_t* p, size_t n, float fill) {
  return each([&](size_t j) { return j < n ? half_to_float(p[j]) : fill; });
}
inline void store_f16(uint16_t* p, V v) {
  for (size_t j = 0; j < 16; ++j) p[j] = float_to_half(v.v[j]);
}
inline void store_f16_partial(uint16_t* p, V v, size_t n) {
  for (size_t j = 0; j < std::min<size_t>(n, 16); ++j) p[j] = float_to_half(v.v[j]);
}

inline V add(V a, V b) { return each([&](size_t j) { return a.v[j] + b.v[j]; }); }
inline V sub(V a, V b) { return each([&](size_t j) { return a.v[j] - b.v[j]; }); }
inline V mul(V a, V b) { return each([&](size_t j) { return a.v[j] * b.v[j]; }); }
inline V fma(V a, V b, V c) { return each([&](size_t j) { return std::fma(a.v[j], b.v[j], c.v[j]); }); }
inline V fms(V a, V b, V c) { return each([&](size_t j) { return std::fma(a.v[j], b.v[j], -c.v[j]); }); }
inline V fnma(V a, V b, V c) { return each([&](size_t j) { return std::fma(-a.v[j], b.v[j], c.v[j]); }); }
// x86 max semantics: the second operand when either is NaN.
inline float max1(float a, float b) { return a > b ? a : b; }
inline V max(V a, V b) { return each([&](size_t j) { return max1(a.v[j], b.v[j]); }); }
inline V limit_below(V x, V limit) { return each([&](size_t j) { return max1(limit.v[j], x.v[j]); }); }
inline M ge(V a, V b) { return each([&](size_t j) { return a.v[j] >= b.v[j] ? 1.0f : 0.0f; }); }
inline V select(M m, V a, V b) { return each([&](size_t j) { return m.v[j] != 0.0f ? a.v[j] : b.v[j]; }); }
// 2^e for an integral e in [-126, 127]; other e (NaN lanes, whose result is
// NaN anyway) give 1 instead of an undefined cast.
inline float pow2(float e) {
  const int32_t i = e >= -126.0f && e <= 127.0f ? static_cast<int32_t>(e) : 0;
  const uint32_t bits = static_cast<uint32_t>(i + 127) << 23;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}
// p 2^n for an integral n in [-150, 127], rounded once (as lanes_avx2.inl).
inline V scale_by_pow2(V p, V n) {
  return each([&](size_t j) {
    const float n1 = max1(n.v[j], -100.0f);
    return p.v[j] * pow2(n1) * pow2(n.v[j] - n1);
  });
}
inline float reduce_max(V v) {
  float m = v.v[0];
  for (size_t j = 1; j < 16; ++j) m = max1(m, v.v[j]);
  return m;
}

inline Acc acc_zero() { return Acc{}; }
inline Acc acc_add(Acc a, V v) {
  for (size_t j = 0; j < 16; ++j) a.v[j] += static_cast<double>(v.v[j]);
  return a;
}
inline void acc_store(Acc a, double* lanes) { std::memcpy(lanes, a.v, sizeof a.v); }
inline V acc_reciprocal(Acc a) { return each([&](size_t j) { return static_cast<float>(1.0 / a.v[j]); }); }
