// How much slower or faster NEW is than BASE, as a ratio of times with a
// confidence interval.
//
// Method: the Hodges-Lehmann estimator on log times with the distribution-free
// (Moses) confidence interval. The ratio is exp(median of all m*n differences
// log(new_j) - log(base_i)); the interval's ends are order statistics of those
// differences, at the ranks where the Mann-Whitney U null distribution puts
// (1 - confidence) / 2 in each tail.
// Why this and not a bootstrap or a ratio of means:
//  - it is the estimate that belongs to the Mann-Whitney test the verdict uses:
//    under the shift model (NEW's times are BASE's times scaled by a factor)
//    the interval excludes 1 exactly when the test at the matching level
//    rejects, so the table's CI and its verdict never disagree;
//  - it is robust: one repetition that a co-tenant stretched by 10x moves the
//    median of the differences by at most one rank, where it would move a mean
//    ratio by about 10x / n;
//  - it is deterministic and exact for the 5..20 repetitions benchmarks have:
//    a bootstrap at n = 9 resamples too few distinct values to cover well, and
//    needs a random seed to be reproducible;
//  - logs make it a ratio, symmetric for slowdowns and speed-ups.
#pragma once

#include <span>

namespace oprig::perf {

struct RatioEstimate {
  double ratio = 1;        // NEW / BASE; > 1 means NEW takes longer
  double low = 1;          // confidence interval of the ratio
  double high = 1;
  double confidence = 0;   // the interval's achieved coverage (the exact one is >= the requested)
  bool exact = false;      // interval ranks from the exact U distribution (else the normal approximation)
};

// base and next must hold positive, finite times (any common unit). The
// interval uses the exact distribution when both samples have at most 50
// values, else the normal approximation.
RatioEstimate hodges_lehmann_ratio(std::span<const double> base, std::span<const double> next,
                                   double confidence);

}  // namespace oprig::perf
