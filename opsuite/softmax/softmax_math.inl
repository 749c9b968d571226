// Softmax on sixteen lanes, written once for the three lane sets
// (lanes_scalar.inl, lanes_avx2.inl, lanes_avx512.inl): cpu.cpp includes this
// text after each of them, inside that path's namespace. Every path performs
// the same IEEE operations in the same order, sums included (sixteen fp64
// accumulator lanes, then a fixed tree), so all three give the same bits.
//
// Accuracy: exp's argument beta (x - m) is carried exactly as a pair of
// floats (x - m by TwoSum, the product by beta with its FMA error), because
// exp turns an absolute error of its argument into a relative error of the
// result (|x - m| reaches 20 for logits in [-10, 10]: 20 ulp if rounded).
// exp itself: degree-6 polynomial (1.1 x 2^-24), one rounding to scale by
// 2^n (subnormal results rounded once too). The sum is in fp64 (exact to
// 2^-50 for a million terms), 1 / sum rounded once to fp32, one product:
// about 2 ulp in all, see plan.json.

// exp(r) = 1 + r (1 + r q(r)), |r| <= 0.35: the minimax fit of
// opsuite/activation/fit_coefficients.py (kExpQ there), 1.1 x 2^-24.
constexpr float kExpQ[5] = {0.5f, 0.166665748f, 0.0416667275f, 0.00836363155f, 0.00139096123f};
constexpr float kLog2e = 1.44269504f, kLn2Hi = 0.693145751953125f, kLn2Lo = 1.42860677e-06f;
constexpr float kRoundingShift = 12582912.0f;  // 1.5 2^23: adding it rounds to an integer
// exp(t) < 2^-150 below this: it rounds to 0 in fp32.
constexpr float kExpFloor = -104.0f;
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// exp(hi + lo) for hi in [-104, 0] and |lo| <= ulp(hi): n = round(hi / ln 2),
// r = hi - n ln 2 + lo (Cody-Waite, ln 2 in two parts), p(r) 2^n.
inline V exp_nonpositive(V hi, V lo) {
  const V n = sub(fma(hi, set1(kLog2e), set1(kRoundingShift)), set1(kRoundingShift));
  const V r = add(fnma(n, set1(kLn2Lo), fnma(n, set1(kLn2Hi), hi)), lo);
  V q = fma(set1(kExpQ[4]), r, set1(kExpQ[3]));
  q = fma(q, r, set1(kExpQ[2]));
  q = fma(q, r, set1(kExpQ[1]));
  q = fma(q, r, set1(kExpQ[0]));
  return scale_by_pow2(fma(fma(q, r, set1(1.0f)), r, set1(1.0f)), n);
}

// exp(beta (x - m)), given -m: x - m = d + d_err exactly (TwoSum), beta (x - m)
// = t + t_err up to beta d_err's rounding. Below kExpFloor the result is 0 and
// t_err is dropped (it may be NaN when x - m overflows to -inf). NaN stays NaN.
inline V exp_shifted(V x, V minus_m, V beta) {
  const V d = add(x, minus_m);
  const V x_part = sub(d, minus_m);
  const V d_err = add(sub(x, x_part), sub(minus_m, sub(d, x_part)));
  const V t = mul(beta, d);
  const V t_err = fma(beta, d_err, fms(beta, d, t));
  const M in_range = ge(t, set1(kExpFloor));
  return exp_nonpositive(limit_below(t, set1(kExpFloor)), select(in_range, t_err, set1(0.0f)));
}

// Loads and stores by element type: fp32 as it is, fp16 widened exactly and
// rounded once on the way out.
inline V load_any(const float* p) { return load(p); }
inline V load_any(const uint16_t* p) { return load_f16(p); }
inline V load_any_partial(const float* p, size_t n, float fill) { return load_partial(p, n, fill); }
inline V load_any_partial(const uint16_t* p, size_t n, float fill) { return load_f16_partial(p, n, fill); }
inline void store_any(float* p, V v) { store(p, v); }
inline void store_any(uint16_t* p, V v) { store_f16(p, v); }
inline void store_any_partial(float* p, V v, size_t n) { store_partial(p, v, n); }
inline void store_any_partial(uint16_t* p, V v, size_t n) { store_f16_partial(p, v, n); }

// The sixteen accumulator lanes added in a fixed tree.
inline double sum_lanes(Acc acc) {
  double lanes[16];
  acc_store(acc, lanes);
  for (size_t width = 8; width >= 1; width /= 2)
    for (size_t j = 0; j < width; ++j) lanes[j] += lanes[j + width];
  return lanes[0];
}

// One slice along the last axis: x[0, n) -> y[0, n). The exponentials go to
// `e` (y itself for fp32, a scratch row for fp16), then are scaled by 1 / sum.
template <class T>
void softmax_row(const T* x, T* y, float* e, size_t n, float beta) {
  V running_max = set1(kMinusInf);
  size_t k = 0;
  for (; k + 16 <= n; k += 16) running_max = max(load_any(x + k), running_max);
  if (k < n) running_max = max(load_any_partial(x + k, n - k, kMinusInf), running_max);
  const V minus_m = set1(-reduce_max(running_max));
  const V vbeta = set1(beta);
  Acc acc = acc_zero();
  for (k = 0; k + 16 <= n; k += 16) {
    const V ek = exp_shifted(load_any(x + k), minus_m, vbeta);
    store(e + k, ek);
    acc = acc_add(acc, ek);
  }
  if (k < n) {  // the missing lanes read -inf: their exponential is 0
    const V ek = exp_shifted(load_any_partial(x + k, n - k, kMinusInf), minus_m, vbeta);
    store_partial(e + k, ek, n - k);
    acc = acc_add(acc, ek);
  }
  const V scale = set1(static_cast<float>(1.0 / sum_lanes(acc)));
  for (k = 0; k + 16 <= n; k += 16) store_any(y + k, mul(load(e + k), scale));
  if (k < n) store_any_partial(y + k, mul(load_partial(e + k, n - k, 0.0f), scale), n - k);
}

// Up to kColumnVectors * 16 adjacent slices when the axis is not the last:
// x[a * stride + j], a < length, j < width, one slice per lane. Each pass
// sweeps the rows in order (contiguous reads of `width` floats; a block of
// columns at a time would read one cache line per row and page), and each
// lane's sum runs in axis order. fp32 keeps the exponentials in y; fp16
// computes them again in the last pass (the same bits).
constexpr size_t kColumnVectors = 4;

template <class T>
void softmax_columns(const T* x, T* y, size_t length, size_t stride, size_t width, float beta) {
  const size_t vectors = (width + 15) / 16;
  auto load_at = [&](size_t a, size_t v) {
    const size_t j = v * 16;
    return j + 16 <= width ? load_any(x + a * stride + j) : load_any_partial(x + a * stride + j, width - j, kMinusInf);
  };
  auto store_at = [&](T* p, V value, size_t v) {
    const size_t j = v * 16;
    if (j + 16 <= width) store_any(p + j, value);
    else store_any_partial(p + j, value, width - j);
  };
  V minus_m[kColumnVectors], scale[kColumnVectors];
  Acc acc[kColumnVectors];
  for (size_t v = 0; v < vectors; ++v) {
    minus_m[v] = set1(kMinusInf);
    acc[v] = acc_zero();
  }
  for (size_t a = 0; a < length; ++a)
    for (size_t v = 0; v < vectors; ++v) minus_m[v] = max(load_at(a, v), minus_m[v]);
  for (size_t v = 0; v < vectors; ++v) minus_m[v] = sub(set1(0.0f), minus_m[v]);
  const V vbeta = set1(beta);
  for (size_t a = 0; a < length; ++a) {
    for (size_t v = 0; v < vectors; ++v) {
      const V e = exp_shifted(load_at(a, v), minus_m[v], vbeta);
      if constexpr (std::is_same_v<T, float>) store_at(y + a * stride, e, v);
      acc[v] = acc_add(acc[v], e);
    }
  }
  for (size_t v = 0; v < vectors; ++v) scale[v] = acc_reciprocal(acc[v]);
  for (size_t a = 0; a < length; ++a) {
    for (size_t v = 0; v < vectors; ++v) {
      V e;
      if constexpr (std::is_same_v<T, float>) {
        const size_t j = v * 16;
        e = j + 16 <= width ? load(y + a * stride + j) : load_partial(y + a * stride + j, width - j, 0.0f);
      } else {
        e = exp_shifted(load_at(a, v), minus_m[v], vbeta);
      }
      store_at(y + a * stride, mul(e, scale[v]), v);
    }
  }
}
