#include "perf/family_correction.hpp"

#include <algorithm>
#include <numeric>

namespace oprig::perf {

std::vector<double> holm_adjusted(std::span<const double> p_values) {
  const size_t m = p_values.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double running_max = 0;
  for (size_t rank = 0; rank < m; ++rank) {
    const double scaled = std::min(1.0, static_cast<double>(m - rank) * p_values[order[rank]]);
    running_max = std::max(running_max, scaled);  // step-down: never below a smaller p's adjustment
    adjusted[order[rank]] = running_max;
  }
  return adjusted;
}

void correct_for_family(std::span<SampleComparison* const> comparisons, const RegressionRule& rule) {
  std::vector<SampleComparison*> tested;
  for (SampleComparison* c : comparisons)
    if (c->verdict != ChangeVerdict::kNotEnoughSamples) tested.push_back(c);
  std::vector<double> slower, faster;
  for (const SampleComparison* c : tested) {
    slower.push_back(c->p_slower_margin);
    faster.push_back(c->p_faster_margin);
  }
  const std::vector<double> slower_adjusted = holm_adjusted(slower), faster_adjusted = holm_adjusted(faster);
  for (size_t k = 0; k < tested.size(); ++k) {
    tested[k]->p_slower_used = slower_adjusted[k];
    tested[k]->p_faster_used = faster_adjusted[k];
    judge(*tested[k], rule);
  }
}

}  // namespace oprig::perf
