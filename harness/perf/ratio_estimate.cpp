#include "perf/ratio_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "perf/mann_whitney.hpp"

namespace oprig::perf {
namespace {

constexpr size_t kExactIntervalMaxSamples = 50;

double median_of_sorted(const std::vector<double>& v) {
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct IntervalRank {
  size_t lower;        // 1-based rank of the lower end among the sorted differences
  double coverage;
};

// The lower rank as R's wilcox.test computes it: the smallest u with
// P(U <= u) >= (1 - confidence) / 2, at least 1; the upper end is rank
// m*n + 1 - lower. Coverage = 1 - 2 P(U <= lower - 1).
IntervalRank exact_rank(size_t m, size_t n, double tail) {
  const std::vector<double> counts = mann_whitney_u_counts(m, n);
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  double cdf = 0;
  size_t u = 0;
  for (; u < counts.size(); ++u) {
    cdf += counts[u] / total;
    if (cdf >= tail) break;
  }
  const size_t lower = std::max<size_t>(u, 1);
  double below = 0;  // P(U <= lower - 1)
  for (size_t k = 0; k < lower && k < counts.size(); ++k) below += counts[k] / total;
  return {lower, 1 - 2 * below};
}

IntervalRank normal_rank(size_t m, size_t n, double tail) {
  const double mn = static_cast<double>(m) * static_cast<double>(n);
  const double sd = std::sqrt(mn * static_cast<double>(m + n + 1) / 12.0);
  const double z = normal_quantile(1 - tail);
  const double lower = std::floor(mn / 2 - z * sd);
  const auto rank = static_cast<size_t>(std::max(1.0, lower));
  // Achieved coverage by the same approximation (continuity-corrected).
  const double below = 1 - normal_sf((static_cast<double>(rank) - 0.5 - mn / 2) / sd);
  return {rank, 1 - 2 * below};
}

}  // namespace

RatioEstimate hodges_lehmann_ratio(std::span<const double> base, std::span<const double> next,
                                   double confidence) {
  if (base.empty() || next.empty()) throw std::invalid_argument("hodges_lehmann_ratio: empty sample");
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("hodges_lehmann_ratio: confidence in (0, 1)");
  std::vector<double> differences;
  differences.reserve(base.size() * next.size());
  for (double b : base)
    for (double x : next) {
      if (!(b > 0 && x > 0 && std::isfinite(b) && std::isfinite(x)))
        throw std::invalid_argument("hodges_lehmann_ratio: times must be positive and finite");
      differences.push_back(std::log(x) - std::log(b));
    }
  std::sort(differences.begin(), differences.end());

  RatioEstimate estimate;
  estimate.ratio = std::exp(median_of_sorted(differences));
  const double tail = (1 - confidence) / 2;
  estimate.exact = base.size() <= kExactIntervalMaxSamples && next.size() <= kExactIntervalMaxSamples;
  const IntervalRank rank = estimate.exact ? exact_rank(base.size(), next.size(), tail)
                                           : normal_rank(base.size(), next.size(), tail);
  const size_t count = differences.size();
  const size_t lower = std::min(rank.lower, count);
  const size_t upper = count + 1 - lower;  // 1-based
  estimate.low = std::exp(differences[lower - 1]);
  estimate.high = std::exp(differences[upper - 1]);
  estimate.confidence = rank.coverage;
  return estimate;
}

}  // namespace oprig::perf
