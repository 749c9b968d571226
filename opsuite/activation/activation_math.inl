// The activation functions on a vector of lanes, written once for the three
// lane sets (lanes_scalar.inl, lanes_avx2.inl, lanes_avx512.inl): cpu.cpp
// includes this text after each of them, inside that path's namespace. Every
// path performs the same IEEE operations in the same order, so all three give
// the same bits.
//
// Each function has a fast formula for the inputs where it is accurate, and a
// "rare" mask for the others (NaN, infinities, and tails where the fp32 result
// gets close to the subnormal range or an intermediate would overflow); those
// lanes are recomputed in double by rare_value() (cpu.cpp), as vector libms
// hand their special cases to scalar code. Uniform data in [-10, 10] never
// takes that path. Accuracy against fp64, measured over every 31st fp32 input
// of both signs: within 3.3 ulp (GELU_ERF; each mode's figure is in plan.json).
//
// Needs from the includer: Mode, rare_value(Mode, float) and
// activation_coefficients.hpp.

namespace coef = activation_coefficients;

// exp(r + n ln 2) = p(r) 2^n: the polynomial p(r) = 1 + r (1 + r q(r)) on
// |r| <= 0.35, then the exact scaling by 2^n (n integral in [-126, 127]).
inline V exp_polynomial(V n, V r) {
  V q = fma(set1(coef::kExpQ[4]), r, set1(coef::kExpQ[3]));
  q = fma(q, r, set1(coef::kExpQ[2]));
  q = fma(q, r, set1(coef::kExpQ[1]));
  q = fma(q, r, set1(coef::kExpQ[0]));
  return scale_by_pow2(fma(fma(q, r, set1(1.0f)), r, set1(1.0f)), n);
}

// Cody-Waite reduction: n = round(x / ln 2), r = x - n ln 2 with ln 2 split in
// two so that n * kLn2Hi is exact. n is rounded by adding 1.5 2^23 in the
// FMA (the sum's ulp is 1), one operation instead of a multiply and a round.
constexpr float kLog2e = 1.44269504f, kLn2Hi = 0.693145751953125f, kLn2Lo = 1.42860677e-06f;
constexpr float kRoundingShift = 12582912.0f;  // 1.5 2^23

inline V nearest_multiple_of_ln2(V x) {
  return sub(fma(x, set1(kLog2e), set1(kRoundingShift)), set1(kRoundingShift));
}

// exp(x) for x in [-87, 88] (callers limit it), so that 2^n stays normal.
inline V exp_in_range(V x) {
  const V n = nearest_multiple_of_ln2(x);
  return exp_polynomial(n, fnma(n, set1(kLn2Lo), fnma(n, set1(kLn2Hi), x)));
}

// exp(hi + lo), hi + lo an unevaluated sum of two floats (|lo| <= ulp(hi)).
inline V exp_hi_lo(V hi, V lo) {
  const V n = nearest_multiple_of_ln2(hi);
  return exp_polynomial(n, add(fnma(n, set1(kLn2Lo), fnma(n, set1(kLn2Hi), hi)), lo));
}

inline V exp_limited(V x) { return exp_in_range(limit_above(limit_below(x, set1(-87.0f)), set1(88.0f))); }

// Lanes of `x` where `rare` is set get rare_value(kMode, x) instead of `y`.
template <Mode kMode>
inline V patch_rare(V x, V y, M rare) {
  const auto bits = mask_bits(rare);
  if (bits == 0) return y;
  float xs[kLanes], ys[kLanes];
  store(xs, x);
  store(ys, y);
  for (size_t i = 0; i < kLanes; ++i)
    if ((bits >> i) & 1u) ys[i] = rare_value(kMode, xs[i]);
  return load(ys);
}

inline V relu(V x) { return limit_below(x, set1(0.0f)); }

inline V relu6(V x) { return limit_above(limit_below(x, set1(0.0f)), set1(6.0f)); }

// 1 / (1 + e^-x): rounding errors of e^-x, the sum and the division only.
// Below -87 the result nears the subnormal range: rare.
inline V sigmoid(V x) {
  const V y = div(set1(1.0f), add(set1(1.0f), exp_limited(neg(x))));
  return patch_rare<Mode::kSigmoid>(x, y, lt_or_nan(x, -87.0f));
}

inline V silu(V x) {
  const V y = div(x, add(set1(1.0f), exp_limited(neg(x))));
  return patch_rare<Mode::kSilu>(x, y, lt_or_nan(x, -87.0f));
}

// |x| < 9/16: x + x^3 P(x^2) (1 - 2 / (e^2x + 1) would cancel there); else
// sign(x) (1 - 2 / (e^2|x| + 1)), whose two terms are at most 1/2 apart.
// NaN propagates through both; no rare lanes.
inline V tanh(V x) {
  const V s = mul(x, x);
  V p = fma(set1(coef::kTanhP[4]), s, set1(coef::kTanhP[3]));
  p = fma(p, s, set1(coef::kTanhP[2]));
  p = fma(p, s, set1(coef::kTanhP[1]));
  p = fma(p, s, set1(coef::kTanhP[0]));
  const V small = fma(mul(x, s), p, x);
  const V a = abs(x);
  const V e = exp_limited(add(a, a));
  const V large = copysign(sub(set1(1.0f), div(set1(2.0f), add(e, set1(1.0f)))), x);
  return select(lt(a, set1(0.5625f)), small, large);
}

// x / (1 + e^v), v = -2u = -x g, g = c1 + c3 x^2. For x < 0 the result is
// about x e^-v, so an error in v is a relative error of the result, amplified
// by |v| (up to 87): g and v are carried as unevaluated sums hi + lo of two
// floats. x^2 comes with its exact FMA error; g_hi = fma(c3, x^2, c1) with c1
// cut to 12 bits, so that g_hi - c1_hi is exact and fms(c3, x^2, g_hi - c1_hi)
// is the FMA's rounding error (itself rounded, which costs nothing); the tails
// of c1, c3 and x^2 go into g_lo. Above x = 10, e^v is below 2^-125 and
// x / (1 + e^v) rounds to x: e^v is taken at 10 there (no overflow in x^2;
// +inf stays +inf). Below -10 the result nears the subnormal range: rare.
inline V gelu_tanh(V x) {
  constexpr float kC1Hi = 1.595703125f, kC1Lo = 6.59966026e-05f;  // 2 sqrt(2 / pi), kC1Hi = 3268 / 2048
  constexpr float kC3Hi = 0.0713548139f, kC3Lo = 2.39883247e-09f;  // 2 sqrt(2 / pi) 0.044715
  const V xc = limit_above(x, set1(10.0f));
  const V x2 = mul(xc, xc);
  const V x2_err = fms(xc, xc, x2);
  const V g = fma(set1(kC3Hi), x2, set1(kC1Hi));
  const V g_fma_err = fms(set1(kC3Hi), x2, sub(g, set1(kC1Hi)));
  const V g_err = add(fma(set1(kC3Lo), x2, fma(set1(kC3Hi), x2_err, g_fma_err)), set1(kC1Lo));
  const V w = neg(xc);
  const V v = mul(w, g);
  const V e = exp_hi_lo(v, fma(w, g_err, fms(w, g, v)));
  return patch_rare<Mode::kGeluTanh>(x, div(x, add(set1(1.0f), e)), lt_or_nan(x, -10.0f));
}

// x Phi(x) with Phi(-a) = e^(-a^2/2) M(a), a = |x|: e^(-a^2/2) with a^2 as an
// exact float pair, M (a scaled Mills ratio, smooth and between 0.03 and 0.5)
// by one of seven polynomials, picked per lane by a table lookup. x < 0:
// x Phi(-a); x >= 0: x - x Phi(-a) in one rounding (Phi(-a) <= 1/2, no
// cancellation). Beyond 13 the result is x; below -13 it nears the subnormal
// range: rare.
inline V gelu_erf(V x) {
  const V a = limit_above(abs(x), set1(13.0f));
  const V a2 = mul(a, a);
  const V a2_err = fms(a, a, a2);
  const V gauss = exp_hi_lo(mul(a2, set1(-0.5f)), mul(a2_err, set1(-0.5f)));
  const I interval = truncate_to_index(mul(a, set1(0.5f)));
  const V d = sub(a, fma(index_to_float(interval), set1(2.0f), set1(1.0f)));
  V m = lookup8(coef::kMills[coef::kMillsDegree], interval);
  for (int j = coef::kMillsDegree - 1; j >= 0; --j) m = fma(m, d, lookup8(coef::kMills[j], interval));
  const V tail = mul(gauss, m);  // Phi(-a)
  const V y = select(lt(x, set1(0.0f)), mul(x, tail), fnma(x, tail, x));
  return patch_rare<Mode::kGeluErf>(x, select(gt(x, set1(13.0f)), x, y), lt_or_nan(x, -13.0f));
}

// x (x + 3) / 6 between -3 and 3 (x + 3 is exact near -3), 0 below, x above
// (x 6 / 6 would overflow for x > FLT_MAX / 6). NaN fails both compares.
inline V hard_swish(V x) {
  const V y = div(mul(x, add(x, set1(3.0f))), set1(6.0f));
  return select(le(x, set1(-3.0f)), set1(0.0f), select(ge(x, set1(3.0f)), x, y));
}

template <Mode kMode>
inline V activate(V x) {
  if constexpr (kMode == Mode::kRelu) return relu(x);
  if constexpr (kMode == Mode::kRelu6) return relu6(x);
  if constexpr (kMode == Mode::kSigmoid) return sigmoid(x);
  if constexpr (kMode == Mode::kTanh) return tanh(x);
  if constexpr (kMode == Mode::kGeluErf) return gelu_erf(x);
  if constexpr (kMode == Mode::kGeluTanh) return gelu_tanh(x);
  if constexpr (kMode == Mode::kSilu) return silu(x);
  if constexpr (kMode == Mode::kHardSwish) return hard_swish(x);
}

// One contiguous range, full vectors then one partial vector.
template <Mode kMode>
void activate_f32(const float* x, float* y, size_t n) {
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store(y + i, activate<kMode>(load(x + i)));
  if (i < n) store_partial(y + i, activate<kMode>(load_partial(x + i, n - i)), n - i);
}

// FLOAT_16: widened exactly, computed in fp32, rounded once.
template <Mode kMode>
void activate_f16(const uint16_t* x, uint16_t* y, size_t n) {
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store_f16(y + i, activate<kMode>(load_f16(x + i)));
  if (i < n) store_f16_partial(y + i, activate<kMode>(load_f16_partial(x + i, n - i)), n - i);
}
