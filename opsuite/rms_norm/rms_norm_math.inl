// RMSNorm of one contiguous slice (the last axis) on sixteen lanes, written
// once for the three lane sets (lanes_scalar.inl, lanes_avx2.inl,
// lanes_avx512.inl): cpu.cpp includes this text after each of them, inside
// that path's namespace. Every path performs the same IEEE operations in the
// same order (sixteen fp64 accumulator lanes, then a fixed tree), so all
// three give the same bits.
//
// Accuracy: the sum of squares in fp64 from exactly widened inputs (each
// square exact, the sum within n 2^-53; no overflow for any fp32 input),
// r = 1 / sqrt(mean + epsilon) in fp64, split into floats r_hi + r_lo; then
// r w as floats rw + rw_lo (the product's exact FMA error plus r_lo w) and
// y = x rw + x rw_lo with one FMA: one rounding of x r w up to about 2^-46
// relative, 0.5 ulp (three plain fp32 roundings could reach 3 ulp).

// The sixteen accumulator lanes added in a fixed tree.
inline double sum_lanes(D acc) {
  double lanes[16];
  d_store(acc, lanes);
  for (size_t width = 8; width >= 1; width /= 2)
    for (size_t j = 0; j < width; ++j) lanes[j] += lanes[j + width];
  return lanes[0];
}

inline void rms_norm_slice(const float* x, const float* weight, float* y, size_t n, double epsilon) {
  const size_t full = n / 16 * 16, rest = n - full;
  D squares = d_zero();
  for (size_t k = 0; k < full; k += 16) {
    const D d = widen(load(x + k));
    squares = d_fma(d, d, squares);
  }
  if (rest) {  // lanes past the end are 0
    const D d = widen(load_partial(x + full, rest));
    squares = d_fma(d, d, squares);
  }
  const double r = 1.0 / std::sqrt(sum_lanes(squares) / static_cast<double>(n) + epsilon);
  const auto r_hi = static_cast<float>(r);
  const V vr_hi = set1(r_hi), vr_lo = set1(static_cast<float>(r - r_hi));
  auto out = [&](V xv, V w) {
    const V rw = mul(vr_hi, w);
    const V rw_lo = fma(vr_lo, w, fms(vr_hi, w, rw));
    return fma(xv, rw, mul(xv, rw_lo));
  };
  for (size_t k = 0; k < full; k += 16) store(y + k, out(load(x + k), load(weight + k)));
  if (rest) store_partial(y + full, out(load_partial(x + full, rest), load_partial(weight + full, rest)), rest);
}
