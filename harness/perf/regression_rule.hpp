// The rule `oprig compare` applies to one benchmark: BASE's repetitions
// against NEW's.
//
// REGRESSED when BOTH
//   - the one-sided Mann-Whitney test "NEW is slower" rejects at alpha, and
//   - the Hodges-Lehmann ratio NEW/BASE exceeds 1 + min_effect;
// IMPROVED symmetrically (on the log scale): "NEW is faster" rejects at alpha
// and the ratio is below 1 / (1 + min_effect); SAME otherwise.
// NOT_ENOUGH_SAMPLES when either side has fewer than min_samples usable
// repetitions (the test has no power there, and a gate must not pretend).
//
// Why both conditions: with 9+ repetitions the test alone flags 1 % shifts
// that a shared machine produces between two runs of the same build; the
// effect size alone flags noise when a run has a few slow outliers. The
// interval is reported at level 1 - 2 alpha, the two-sided interval whose
// ends match the one-sided tests at alpha.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "perf/ratio_estimate.hpp"

namespace oprig::perf {

struct RegressionRule {
  double alpha = 0.05;       // per benchmark, one-sided
  double min_effect = 0.05;  // fraction: 0.05 flags a change of more than 5 %
  size_t min_samples = 5;    // per side
};

enum class ChangeVerdict { kRegressed, kImproved, kSame, kNotEnoughSamples };
std::string_view change_verdict_name(ChangeVerdict verdict);  // "REGRESSED", ...

struct SampleComparison {
  ChangeVerdict verdict = ChangeVerdict::kNotEnoughSamples;
  size_t base_count = 0, new_count = 0;  // usable repetitions
  double base_median = 0, new_median = 0;
  RatioEstimate ratio;                   // meaningful unless kNotEnoughSamples
  double p_slower = 1;                   // one-sided: NEW slower than BASE
  double p_faster = 1;                   // one-sided: NEW faster than BASE
  double p_two_sided = 1;
  bool exact = false;                    // p-values from the exact distribution
  std::string note;                      // why not enough samples, dropped values
};

// Throws std::invalid_argument for a rule out of range (alpha or min_effect
// outside (0, 1), min_samples < 2).
void check_rule(const RegressionRule& rule);

// Times in any one unit. Non-positive and non-finite values are dropped (and
// said in note).
SampleComparison compare_samples(std::span<const double> base, std::span<const double> next,
                                 const RegressionRule& rule);

double median(std::span<const double> values);  // of a copy; NaN for none

}  // namespace oprig::perf
