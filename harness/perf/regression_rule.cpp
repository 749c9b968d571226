#include "perf/regression_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "perf/mann_whitney.hpp"

namespace oprig::perf {
namespace {

std::vector<double> usable(std::span<const double> values, size_t* dropped) {
  std::vector<double> kept;
  for (double v : values) {
    if (v > 0 && std::isfinite(v)) kept.push_back(v);
    else ++*dropped;
  }
  return kept;
}

}  // namespace

std::string_view change_verdict_name(ChangeVerdict verdict) {
  switch (verdict) {
    case ChangeVerdict::kRegressed: return "REGRESSED";
    case ChangeVerdict::kImproved: return "IMPROVED";
    case ChangeVerdict::kSame: return "SAME";
    case ChangeVerdict::kNotEnoughSamples: break;
  }
  return "NOT_ENOUGH_SAMPLES";
}

double median(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void check_rule(const RegressionRule& rule) {
  if (!(rule.alpha > 0 && rule.alpha < 0.5))
    throw std::invalid_argument("alpha must be in (0, 0.5), got " + std::to_string(rule.alpha));
  if (!(rule.min_effect >= 0 && rule.min_effect < 1))
    throw std::invalid_argument("the minimum effect is a fraction in [0, 1), got " + std::to_string(rule.min_effect));
  if (rule.min_samples < 2)
    throw std::invalid_argument("at least 2 samples per side are needed, got " + std::to_string(rule.min_samples));
}

SampleComparison compare_samples(std::span<const double> base_values, std::span<const double> new_values,
                                 const RegressionRule& rule) {
  check_rule(rule);
  SampleComparison c;
  size_t dropped_base = 0, dropped_new = 0;
  const std::vector<double> base = usable(base_values, &dropped_base);
  const std::vector<double> next = usable(new_values, &dropped_new);
  c.base_count = base.size();
  c.new_count = next.size();
  c.base_median = median(base);
  c.new_median = median(next);
  if (dropped_base + dropped_new > 0)
    c.note = "dropped non-positive or non-finite times: " + std::to_string(dropped_base) + " in BASE, " +
             std::to_string(dropped_new) + " in NEW";
  if (base.size() < rule.min_samples || next.size() < rule.min_samples) {
    if (!c.note.empty()) c.note += "; ";
    c.note += std::to_string(base.size()) + " repetitions in BASE and " + std::to_string(next.size()) +
              " in NEW; the test needs at least " + std::to_string(rule.min_samples) + " on each side";
    c.verdict = ChangeVerdict::kNotEnoughSamples;
    return c;
  }
  // x = NEW, y = BASE: "greater" is "NEW slower".
  const MannWhitneyResult slower = mann_whitney_u(next, base, Alternative::kGreater);
  c.p_slower = slower.p_value;
  c.p_faster = mann_whitney_u(next, base, Alternative::kLess).p_value;
  c.p_two_sided = mann_whitney_u(next, base, Alternative::kTwoSided).p_value;
  c.exact = slower.exact;
  c.ratio = hodges_lehmann_ratio(base, next, 1 - 2 * rule.alpha);
  const double up = 1 + rule.min_effect;
  std::vector<double> base_up, base_down;
  for (double v : base) {
    base_up.push_back(v * up);
    base_down.push_back(v / up);
  }
  c.p_slower_margin = mann_whitney_u(next, base_up, Alternative::kGreater).p_value;
  c.p_faster_margin = mann_whitney_u(next, base_down, Alternative::kLess).p_value;
  c.p_slower_used = c.p_slower_margin;
  c.p_faster_used = c.p_faster_margin;
  c.verdict = ChangeVerdict::kSame;
  judge(c, rule);
  return c;
}

void judge(SampleComparison& c, const RegressionRule& rule) {
  if (c.verdict == ChangeVerdict::kNotEnoughSamples) return;
  const double up = 1 + rule.min_effect;
  if (c.p_slower_used < rule.alpha && c.ratio.ratio > up) c.verdict = ChangeVerdict::kRegressed;
  else if (c.p_faster_used < rule.alpha && c.ratio.ratio < 1 / up) c.verdict = ChangeVerdict::kImproved;
  else c.verdict = ChangeVerdict::kSame;
}

}  // namespace oprig::perf
