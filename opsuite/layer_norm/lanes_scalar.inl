// The portable path for layer_norm_math.inl: sixteen lanes as plain arrays,
// every operation a loop, the same IEEE operations as the vector lane sets
// (std::fma for the fused one), so every path gives the same bits. Included
// inside a namespace by cpu.cpp; needs <cmath>, <cstring>, core/half.hpp.

struct V {
  float v[16];
};
struct D {
  double v[16];
};
using Acc = D;

inline V load(const float* p) {
  V r;
  std::memcpy(r.v, p, sizeof r.v);
  return r;
}
inline V load_partial(const float* p, size_t n) {  // zeros after n
  V r{};
  std::memcpy(r.v, p, std::min<size_t>(n, 16) * sizeof(float));
  return r;
}
inline void store(float* p, V v) { std::memcpy(p, v.v, sizeof v.v); }
inline void store_partial(float* p, V v, size_t n) { std::memcpy(p, v.v, std::min<size_t>(n, 16) * sizeof(float)); }
inline V load_f16(const uint16_t* p) {
  V r;
  for (size_t j = 0; j < 16; ++j) r.v[j] = half_to_float(p[j]);
  return r;
}
inline V load_f16_partial(const uint16_t* p, size_t n) {
  V r{};
  for (size_t j = 0; j < std::min<size_t>(n, 16); ++j) r.v[j] = half_to_float(p[j]);
  return r;
}
inline void store_f16(uint16_t* p, V v) {
  for (size_t j = 0; j < 16; ++j) p[j] = float_to_half(v.v[j]);
}
inline void store_f16_partial(uint16_t* p, V v, size_t n) {
  for (size_t j = 0; j < std::min<size_t>(n, 16); ++j) p[j] = float_to_half(v.v[j]);
}

inline V set1(float x) {
  V r;
  for (float& e : r.v) e = x;
  return r;
}
inline V sub(V a, V b) {
  for (size_t j = 0; j < 16; ++j) a.v[j] -= b.v[j];
  return a;
}
inline V mul(V a, V b) {
  for (size_t j = 0; j < 16; ++j) a.v[j] *= b.v[j];
  return a;
}
inline V fma(V a, V b, V c) {
  for (size_t j = 0; j < 16; ++j) a.v[j] = std::fma(a.v[j], b.v[j], c.v[j]);
  return a;
}

inline D widen(V v) {
  D r;
  for (size_t j = 0; j < 16; ++j) r.v[j] = v.v[j];
  return r;
}
inline D d_zero() { return D{}; }
inline D d_sub(D a, double b) {
  for (double& x : a.v) x -= b;
  return a;
}
inline D d_add(D a, D b) {
  for (size_t j = 0; j < 16; ++j) a.v[j] += b.v[j];
  return a;
}
inline D d_fma(D a, D b, D c) {
  for (size_t j = 0; j < 16; ++j) a.v[j] = std::fma(a.v[j], b.v[j], c.v[j]);
  return a;
}
inline D d_keep_first(D a, size_t n) {
  for (size_t j = n; j < 16; ++j) a.v[j] = 0.0;
  return a;
}
inline void d_store(D a, double* lanes) { std::memcpy(lanes, a.v, sizeof a.v); }
