#include "perf/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>

#include "perf/mann_whitney.hpp"

namespace oprig::perf {
namespace {

double median_in_place(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// cost[i][j] = sum_{k in [i, j)} |y_k - median(y[i..j))| for all i < j, each
// row from two heaps: `low` (max-heap) holds the smaller half with the median
// on top, `high` (min-heap) the larger half; their sums give the L1 cost.
std::vector<std::vector<double>> l1_segment_costs(std::span<const double> y) {
  const size_t n = y.size();
  std::vector<std::vector<double>> cost(n + 1, std::vector<double>(n + 1, 0.0));
  for (size_t i = 0; i < n; ++i) {
    std::priority_queue<double> low;
    std::priority_queue<double, std::vector<double>, std::greater<double>> high;
    double low_sum = 0, high_sum = 0;
    for (size_t j = i; j < n; ++j) {
      const double v = y[j];
      if (low.empty() || v <= low.top()) {
        low.push(v);
        low_sum += v;
      } else {
        high.push(v);
        high_sum += v;
      }
      // Keep |low| = |high| or |high| + 1.
      if (low.size() > high.size() + 1) {
        high.push(low.top());
        high_sum += low.top();
        low_sum -= low.top();
        low.pop();
      } else if (high.size() > low.size()) {
        low.push(high.top());
        low_sum += high.top();
        high_sum -= high.top();
        high.pop();
      }
      const double med = low.top();
      cost[i][j + 1] = (high_sum - static_cast<double>(high.size()) * med) +
                       (static_cast<double>(low.size()) * med - low_sum);
    }
  }
  return cost;
}

Trend theil_sen(std::span<const double> y) {
  const size_t n = y.size();
  std::vector<double> slopes;
  slopes.reserve(n * (n - 1) / 2);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) slopes.push_back((y[j] - y[i]) / static_cast<double>(j - i));
  std::sort(slopes.begin(), slopes.end());
  const size_t count = slopes.size();
  const double slope = count % 2 ? slopes[count / 2] : 0.5 * (slopes[count / 2 - 1] + slopes[count / 2]);
  // Sen (1968): the interval's ranks from the variance of Kendall's S.
  const double nn = static_cast<double>(n);
  const double c = normal_quantile(0.975) * std::sqrt(nn * (nn - 1) * (2 * nn + 5) / 18.0);
  const double lower_rank = std::floor((static_cast<double>(count) - c) / 2);        // 1-based
  const double upper_rank = std::ceil((static_cast<double>(count) + c) / 2) + 1;      // 1-based
  const auto at = [&](double rank) {
    const double clamped = std::clamp(rank, 1.0, static_cast<double>(count));
    return slopes[static_cast<size_t>(clamped) - 1];
  };
  Trend t;
  t.ratio_per_point = std::exp(slope);
  t.ratio_low = std::exp(at(lower_rank));
  t.ratio_high = std::exp(at(upper_rank));
  t.significant = lower_rank >= 1 && upper_rank <= static_cast<double>(count) &&
                  (at(lower_rank) > 0 || at(upper_rank) < 0);
  t.total_ratio = std::exp(slope * (nn - 1));
  std::vector<double> offsets;
  for (size_t i = 0; i < n; ++i) offsets.push_back(y[i] - slope * static_cast<double>(i));
  t.intercept = median_in_place(offsets);
  return t;
}

}  // namespace

std::string_view series_kind_name(SeriesKind kind) {
  switch (kind) {
    case SeriesKind::kTooShort: return "TOO_SHORT";
    case SeriesKind::kFlat: return "FLAT";
    case SeriesKind::kSteps: return "STEPS";
    case SeriesKind::kDrift: break;
  }
  return "DRIFT";
}

double robust_noise(std::span<const double> y) {
  if (y.size() < 3) return 0;
  std::vector<double> d;
  for (size_t i = 1; i < y.size(); ++i) d.push_back(y[i] - y[i - 1]);
  std::vector<double> copy = d;
  const double center = median_in_place(copy);
  for (double& v : d) v = std::fabs(v - center);
  return 1.4826 * median_in_place(d) / std::sqrt(2.0);
}

std::vector<size_t> l1_optimal_partition(std::span<const double> y, double penalty) {
  const size_t n = y.size();
  if (n == 0) return {};
  const auto cost = l1_segment_costs(y);
  // best[j]: least penalised cost of y[0..j); from[j]: start of its last segment.
  std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
  std::vector<size_t> from(n + 1, 0);
  best[0] = -penalty;  // the first segment is free
  for (size_t j = 1; j <= n; ++j)
    for (size_t i = 0; i < j; ++i) {
      const double candidate = best[i] + cost[i][j] + penalty;
      // Strictly better only: among equal costs the earliest start (fewest
      // segments, found first) wins, so ties never invent a step.
      if (candidate < best[j] - 1e-15) {
        best[j] = candidate;
        from[j] = i;
      }
    }
  std::vector<size_t> starts;
  for (size_t j = n; j > 0; j = from[j])
    if (from[j] > 0) starts.push_back(from[j]);
  std::reverse(starts.begin(), starts.end());
  return starts;
}

SeriesAnalysis analyse_series(std::span<const double> values, const ChangePointOptions& options) {
  for (double v : values)
    if (!(v > 0 && std::isfinite(v))) throw std::invalid_argument("analyse_series: values must be positive and finite");
  SeriesAnalysis a;
  const size_t n = values.size();
  std::vector<double> y;
  for (double v : values) y.push_back(std::log(v));
  auto segment_of = [&](size_t begin, size_t end) {
    std::vector<double> part(values.begin() + static_cast<std::ptrdiff_t>(begin),
                             values.begin() + static_cast<std::ptrdiff_t>(end));
    return Segment{begin, end, median_in_place(part)};
  };
  if (n < std::max<size_t>(options.min_points, 3)) {
    a.kind = SeriesKind::kTooShort;
    if (n > 0) a.segments.push_back(segment_of(0, n));
    return a;
  }
  const double nn = static_cast<double>(n);
  a.noise = std::max(robust_noise(y), options.noise_floor);
  a.penalty = options.penalty_scale * a.noise * (1 + 1 / std::sqrt(nn - 2)) * std::log(nn);
  a.change_points = l1_optimal_partition(y, a.penalty);

  size_t begin = 0;
  for (size_t cp : a.change_points) {
    a.segments.push_back(segment_of(begin, cp));
    begin = cp;
  }
  a.segments.push_back(segment_of(begin, n));
  const auto cost = l1_segment_costs(y);
  a.steps_cost = a.penalty * static_cast<double>(a.segments.size() - 1);
  for (const Segment& s : a.segments) a.steps_cost += cost[s.begin][s.end];

  a.trend = theil_sen(y);
  const double slope = std::log(a.trend.ratio_per_point);
  a.line_cost = a.penalty;  // one parameter more than a flat line: the slope
  for (size_t i = 0; i < n; ++i) a.line_cost += std::fabs(y[i] - a.trend.intercept - slope * static_cast<double>(i));

  const bool big_enough = std::fabs(a.trend.total_ratio - 1) >= options.min_effect;
  if (a.trend.significant && big_enough && a.line_cost < a.steps_cost) a.kind = SeriesKind::kDrift;
  else a.kind = a.change_points.empty() ? SeriesKind::kFlat : SeriesKind::kSteps;
  return a;
}

}  // namespace oprig::perf
