// The Mann-Whitney U test (Wilcoxon rank-sum): is one sample of timings
// stochastically larger than another? Distribution-free, so it needs no
// normality from timings, which are skewed and heavy-tailed on a shared
// machine. Conventions follow scipy.stats.mannwhitneyu (U of the first sample,
// continuity correction in the normal approximation), so its published values
// can check this code.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace oprig::perf {

enum class Alternative {
  kTwoSided,
  kGreater,  // the first sample tends to be larger (for timings: slower)
  kLess,     // the first sample tends to be smaller (faster)
};

enum class PValueMethod {
  kAuto,        // exact when there are no ties and both samples are small, else asymptotic
  kExact,       // the exact null distribution (ties are then ignored: use only without ties)
  kAsymptotic,  // normal approximation with tie correction and continuity correction
};

// Samples up to this size each get the exact distribution under kAuto (when
// there are no ties): enough for the 9..20 repetitions a benchmark runs.
inline constexpr size_t kExactMaxSamples = 20;

struct MannWhitneyResult {
  double u = 0;        // U of the first sample: pairs x_i > y_j, a tie counting 1/2
  double p_value = 1;  // of the requested alternative
  bool exact = false;  // p from the exact null distribution
  bool ties = false;   // some value occurs in both samples or twice in one
};

MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y,
                                 Alternative alternative, PValueMethod method = PValueMethod::kAuto);

// The null distribution of U for samples of sizes m and n without ties:
// element u is the number of the C(m+n, m) orderings that give U = u
// (u = 0..m*n). These are the coefficients of the Gaussian binomial
// coefficient [m+n choose m]_q, built as prod_{k=1..m} (1 - q^(n+k)) / (1 - q^k);
// each partial product is itself such a coefficient list, so every
// intermediate value is a non-negative integer (exact in a double up to
// C(m+n, m) <= 2^53, i.e. for m + n <= 54 at least).
std::vector<double> mann_whitney_u_counts(size_t m, size_t n);

// P(Z > z) for a standard normal Z.
double normal_sf(double z);
// The z with P(Z <= z) = p, 0 < p < 1 (Acklam's rational approximation
// refined by one Halley step: relative error below 1e-12).
double normal_quantile(double p);

}  // namespace oprig::perf
