#include "perf/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace oprig::perf {
namespace {

struct RankSums {
  double rank_sum_x = 0;    // sum of the mid-ranks of x in the pooled sample
  double tie_term = 0;      // sum over groups of equal values of t^3 - t
};

RankSums rank_sums(std::span<const double> x, std::span<const double> y) {
  struct Value {
    double v;
    bool from_x;
  };
  std::vector<Value> pooled;
  pooled.reserve(x.size() + y.size());
  for (double v : x) pooled.push_back({v, true});
  for (double v : y) pooled.push_back({v, false});
  std::sort(pooled.begin(), pooled.end(), [](const Value& a, const Value& b) { return a.v < b.v; });
  RankSums sums;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i + 1;
    while (j < pooled.size() && pooled[j].v == pooled[i].v) ++j;
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;  // 1-based ranks i+1..j
    const double t = static_cast<double>(j - i);
    sums.tie_term += t * t * t - t;
    for (size_t k = i; k < j; ++k)
      if (pooled[k].from_x) sums.rank_sum_x += mid_rank;
    i = j;
  }
  return sums;
}

// P(U >= u) from the exact counts.
double exact_sf(const std::vector<double>& counts, double u) {
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  const auto first = static_cast<size_t>(std::max(0.0, std::ceil(u)));
  double tail = 0;
  for (size_t k = first; k < counts.size(); ++k) tail += counts[k];
  return tail / total;
}

}  // namespace

std::vector<double> mann_whitney_u_counts(size_t m, size_t n) {
  // Start from [n choose 0]_q = 1 and step k = 1..m to [n+k choose k]_q.
  // Room for the intermediate degree k*n + k before each division.
  std::vector<double> c(m * n + m + 1, 0.0);
  c[0] = 1.0;
  size_t degree = 0;
  for (size_t k = 1; k <= m; ++k) {
    // multiply by (1 - q^(n+k)): degree grows by n + k
    const size_t shift = n + k;
    const size_t new_degree = degree + shift;
    for (size_t i = new_degree + 1; i-- > shift;) c[i] -= c[i - shift];
    // divide by (1 - q^k): a running sum with stride k (exact division)
    for (size_t i = k; i <= new_degree; ++i) c[i] += c[i - k];
    degree = new_degree - k;  // the quotient has degree k*n in total after m steps
  }
  c.resize(m * n + 1);
  return c;
}

double normal_sf(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) throw std::domain_error("normal_quantile: p must be in (0, 1)");
  // Peter Acklam's algorithm (2003), with one step of Halley's method.
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                 6.680131188771972e+01, -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                 -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                 3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  double x = 0;
  if (p < kLow) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - kLow) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y,
                                 Alternative alternative, PValueMethod method) {
  if (x.empty() || y.empty()) throw std::invalid_argument("mann_whitney_u: both samples need at least one value");
  const double m = static_cast<double>(x.size());
  const double n = static_cast<double>(y.size());
  const RankSums sums = rank_sums(x, y);
  MannWhitneyResult result;
  result.u = sums.rank_sum_x - m * (m + 1) / 2;
  result.ties = sums.tie_term > 0;
  const double u1 = result.u;
  const double u2 = m * n - u1;

  // The statistic whose upper tail is the p-value, and the factor for two sides.
  double u_tail = u1;
  double factor = 1;
  if (alternative == Alternative::kLess) u_tail = u2;
  if (alternative == Alternative::kTwoSided) {
    u_tail = std::max(u1, u2);
    factor = 2;
  }

  result.exact = method == PValueMethod::kExact ||
                 (method == PValueMethod::kAuto && !result.ties && x.size() <= kExactMaxSamples &&
                  y.size() <= kExactMaxSamples);
  double p = 1;
  if (result.exact) {
    p = exact_sf(mann_whitney_u_counts(x.size(), y.size()), u_tail);
  } else {
    const double total = m + n;
    const double variance = m * n / 12.0 * ((total + 1) - sums.tie_term / (total * (total - 1)));
    if (variance <= 0) {
      p = 1;  // every value equal: no evidence either way
      factor = 1;
    } else {
      const double z = (u_tail - m * n / 2.0 - 0.5) / std::sqrt(variance);
      p = normal_sf(z);
    }
  }
  result.p_value = std::clamp(p * factor, 0.0, 1.0);
  return result;
}

}  // namespace oprig::perf
