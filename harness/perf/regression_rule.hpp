// The rule `oprig compare` applies to one benchmark: BASE's repetitions
// against NEW's.
//
// REGRESSED when BOTH
//   - the one-sided Mann-Whitney test "NEW is slower than BASE x (1 +
//     min_effect)" rejects at alpha: the test is against the margin, not
//     against no change, so REGRESSED says "slower by more than the minimum
//     effect, with confidence", not "slower, and the estimate is above the
//     minimum effect" (`oprig compare` adjusts the p-value for the number of
//     benchmarks compared: perf/family_correction.hpp), and
//   - the Hodges-Lehmann ratio NEW/BASE exceeds 1 + min_effect;
// IMPROVED symmetrically (on the log scale): "NEW is faster than BASE /
// (1 + min_effect)" rejects at alpha and the ratio is below 1 / (1 +
// min_effect); SAME otherwise.
// NOT_ENOUGH_SAMPLES when either side has fewer than min_samples usable
// repetitions (the test has no power there, and a gate must not pretend).
//
// Why the margin in the test: with 9+ repetitions a test against no change
// flags 1 % shifts that a shared machine produces between two runs of the
// same build; the effect size alone flags noise when a run has a few slow
// outliers; and a test against no change combined with the point estimate
// above the margin flagged memory-bound kernels whose repetitions spread by
// +-20 % whenever their medians happened to differ by 6-14 % (measured on
// the bundled suite here, twice in 20 comparisons). The
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
  // One-sided, and for `oprig compare` the family's (Holm). A nightly gate
  // runs every night: at 0.05 an unchanged build would fail it every 20
  // nights even if every assumption held; at 0.001, once in years. 9
  // repetitions a side still reach it (p = 2.1e-5 when they do not overlap).
  double alpha = 0.001;
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
  double p_slower = 1;                   // one-sided: NEW slower than BASE (no margin)
  double p_faster = 1;                   // one-sided: NEW faster than BASE (no margin)
  double p_slower_margin = 1;            // one-sided: NEW slower than BASE x (1 + min_effect)
  double p_faster_margin = 1;            // one-sided: NEW faster than BASE / (1 + min_effect)
  double p_two_sided = 1;
  // The p-values the verdict used: p_slower_margin/p_faster_margin, or their Holm
  // adjustment over the benchmarks of one compare (perf/family_correction.hpp).
  double p_slower_used = 1, p_faster_used = 1;
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

// Sets c.verdict from c.p_slower_used, c.p_faster_used and c.ratio (a
// comparison with enough samples; others are left as they are).
void judge(SampleComparison& c, const RegressionRule& rule);

double median(std::span<const double> values);  // of a copy; NaN for none

}  // namespace oprig::perf
