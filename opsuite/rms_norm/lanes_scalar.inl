// The portable path for rms_norm_math.inl: sixteen lanes as plain arrays,
// every operation a loop, the same IEEE operations as the vector lane sets
// (std::fma for the fused one), so every path gives the same bits. Included
// inside a namespace by cpu.cpp; needs <cmath>, <cstring>.

struct V {
  float v[16];
};
struct D {
  double v[16];
};

inline V set1(float x) {
  V r;
  for (float& e : r.v) e = x;
  return r;
}
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
inline V mul(V a, V b) {
  for (size_t j = 0; j < 16; ++j) a.v[j] *= b.v[j];
  return a;
}
inline V fma(V a, V b, V c) {
  for (size_t j = 0; j < 16; ++j) a.v[j] = std::fma(a.v[j], b.v[j], c.v[j]);
  return a;
}
inline V fms(V a, V b, V c) {
  for (size_t j = 0; j < 16; ++j) a.v[j] = std::fma(a.v[j], b.v[j], -c.v[j]);
  return a;
}

inline D widen(V v) {
  D r;
  for (size_t j = 0; j < 16; ++j) r.v[j] = v.v[j];
  return r;
}
inline D d_zero() { return D{}; }
inline D d_fma(D a, D b, D c) {
  for (size_t j = 0; j < 16; ++j) a.v[j] = std::fma(a.v[j], b.v[j], c.v[j]);
  return a;
}
inline void d_store(D a, double* lanes) { std::memcpy(lanes, a.v, sizeof a.v); }
