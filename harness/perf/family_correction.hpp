// Holm's step-down correction over the benchmarks of one compare.
//
// Why: the gate's question is "did ANY benchmark regress?", so the error
// that matters is the chance that a run of an unchanged build flags at least
// one of its m benchmarks. Testing each at alpha makes that chance grow with
// m (the bundled suite on cpu and opencl has 40: 1 - 0.95^40 = 87 % before the
// effect-size condition); Holm keeps it at alpha for any dependence between
// the benchmarks and rejects at least what Bonferroni rejects.
#pragma once

#include <span>
#include <vector>

#include "perf/regression_rule.hpp"

namespace oprig::perf {

// Holm-adjusted p-values, in the order given: reject hypothesis i at family
// level alpha when adjusted[i] < alpha. Empty in, empty out.
std::vector<double> holm_adjusted(std::span<const double> p_values);

// Holm over the comparisons that were tested (NOT_ENOUGH_SAMPLES ones are not
// in the family), each direction on its own (a regression and an improvement
// are separate families of one-sided tests); then each is judged again with
// its adjusted p-values.
void correct_for_family(std::span<SampleComparison* const> comparisons, const RegressionRule& rule);

}  // namespace oprig::perf
