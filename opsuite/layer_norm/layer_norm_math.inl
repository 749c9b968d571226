// LayerNorm of one contiguous slice on sixteen lanes, written once for the
// three lane sets (lanes_scalar.inl, lanes_avx2.inl, lanes_avx512.inl):
// cpu.cpp includes this text after each of them, inside that path's
// namespace. Every path performs the same IEEE operations in the same order
// (sixteen fp64 accumulator lanes, then a fixed tree), so all three give the
// same bits.
//
// Two passes. Statistics, in fp64: d = x - x0 (x0 the slice's first element;
// exact in fp64), S1 = sum d, S2 = sum d^2, mean = x0 + S1 / n and
// var = S2 / n - (S1 / n)^2. The shift makes this one-pass formula safe:
// |x0 - mean| <= sqrt(n) std for any element, so the cancellation costs at
// most a factor n of fp64's 2^-53 (E[x^2] - mean^2 without the shift could
// lose everything, e.g. for a mean 3000 times the spread). A constant slice
// has S1 = S2 = 0: mean = x0 exactly, out = beta exactly.
// Output, in fp32: ((x - mean_hi) - mean_lo) inv_std gamma + beta, with the
// mean as an unevaluated sum of two floats (x - mean_hi is exact when x is
// near the mean, where it matters) and the last step one FMA: within about
// 2 ulp of gamma (x - mean) / std plus 0.5 ulp of the result.

// Loads and stores by element type: fp32 as it is, fp16 widened exactly and
// rounded once on the way out.
inline V load_any(const float* p) { return load(p); }
inline V load_any(const uint16_t* p) { return load_f16(p); }
inline V load_any_partial(const float* p, size_t n) { return load_partial(p, n); }
inline V load_any_partial(const uint16_t* p, size_t n) { return load_f16_partial(p, n); }
inline void store_any(float* p, V v) { store(p, v); }
inline void store_any(uint16_t* p, V v) { store_f16(p, v); }
inline void store_any_partial(float* p, V v, size_t n) { store_partial(p, v, n); }
inline void store_any_partial(uint16_t* p, V v, size_t n) { store_f16_partial(p, v, n); }
inline float to_float(float v) { return v; }
inline float to_float(uint16_t v) { return half_to_float(v); }

// The sixteen accumulator lanes added in a fixed tree.
inline double sum_lanes(Acc acc) {
  double lanes[16];
  d_store(acc, lanes);
  for (size_t width = 8; width >= 1; width /= 2)
    for (size_t j = 0; j < width; ++j) lanes[j] += lanes[j + width];
  return lanes[0];
}

template <class T, bool kHasBeta>
void layer_norm_slice(const T* x, const T* gamma, const T* beta, T* y, size_t n, double epsilon) {
  const size_t full = n / 16 * 16, rest = n - full;
  const double x0 = to_float(x[0]);
  Acc s1 = d_zero(), s2 = d_zero();
  for (size_t k = 0; k < full; k += 16) {
    const D d = d_sub(widen(load_any(x + k)), x0);
    s1 = d_add(s1, d);
    s2 = d_fma(d, d, s2);
  }
  if (rest) {  // lanes past the end: d = 0
    const D d = d_keep_first(d_sub(widen(load_any_partial(x + full, rest)), x0), rest);
    s1 = d_add(s1, d);
    s2 = d_fma(d, d, s2);
  }
  const double shift = sum_lanes(s1) / static_cast<double>(n);
  const double variance = std::max(0.0, sum_lanes(s2) / static_cast<double>(n) - shift * shift);
  const double mean = x0 + shift;
  const auto mean_hi = static_cast<float>(mean);
  const V vmean_hi = set1(mean_hi), vmean_lo = set1(static_cast<float>(mean - mean_hi));
  const V inv_std = set1(static_cast<float>(1.0 / std::sqrt(variance + epsilon)));

  auto out = [&](V xv, V g, V b) { return fma(mul(sub(sub(xv, vmean_hi), vmean_lo), inv_std), g, b); };
  for (size_t k = 0; k < full; k += 16) {
    const V b = kHasBeta ? load_any(beta + k) : set1(0.0f);
    store_any(y + k, out(load_any(x + k), load_any(gamma + k), b));
  }
  if (rest) {
    const V b = kHasBeta ? load_any_partial(beta + full, rest) : set1(0.0f);
    store_any_partial(y + full, out(load_any_partial(x + full, rest), load_any_partial(gamma + full, rest), b), rest);
  }
}
