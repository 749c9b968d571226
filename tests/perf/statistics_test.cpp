// The Mann-Whitney U test, the U null distribution, the normal helpers and
// the Hodges-Lehmann ratio, against values computed outside oprig:
// scipy.stats.mannwhitneyu 1.10.1 and numpy with a brute-force enumeration of
// the U distribution (tests/perf/data/make_reference_values.py prints every
// literal below), and a textbook example (Conover, Practical Nonparametric
// Statistics; the example of scipy's documentation).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "perf/mann_whitney.hpp"
#include "perf/ratio_estimate.hpp"

namespace oprig::perf {
namespace {

const std::vector<double> kMales = {19, 22, 16, 29, 24};
const std::vector<double> kFemales = {20, 11, 17, 12};
const std::vector<double> kBase9 = {4.91, 5.02, 4.87, 5.10, 4.95, 4.99, 5.31, 4.90, 5.05};
const std::vector<double> kNew9Slower = {5.38, 5.51, 5.29, 5.45, 5.60, 5.33, 5.41, 5.72, 5.36};
const std::vector<double> kNew9Same = {4.93, 5.08, 4.85, 4.97, 5.12, 4.89, 5.01, 5.40, 4.96};
const std::vector<double> kTiedA = {1, 2, 2, 3, 3, 3, 4, 5};
const std::vector<double> kTiedB = {2, 3, 4, 4, 5, 5, 6, 6, 7};

// The same formula as make_reference_values.py (same IEEE operations, so the
// same doubles and the same ties).
std::vector<double> big_a() {
  std::vector<double> v;
  for (int i = 0; i < 25; ++i) v.push_back(10.0 + 0.37 * ((i * 7919) % 23));
  return v;
}
std::vector<double> big_b() {
  std::vector<double> v;
  for (int i = 0; i < 30; ++i) v.push_back(10.4 + 0.37 * ((i * 104729) % 23));
  return v;
}

constexpr double kRel = 1e-9;

void expect_p(double expected, double actual) { EXPECT_NEAR(actual, expected, kRel * expected + 1e-15); }

TEST(UNullDistribution, CountsMatchEnumeration) {
  // [5 choose 2]_q: the 10 orderings of 3 x's and 2 y's by their U.
  EXPECT_EQ(mann_whitney_u_counts(3, 2), (std::vector<double>{1, 1, 2, 2, 2, 1, 1}));
  EXPECT_EQ(mann_whitney_u_counts(4, 4),
            (std::vector<double>{1, 1, 2, 3, 5, 5, 7, 7, 8, 7, 7, 5, 5, 3, 2, 1, 1}));
  // Symmetric in the sample sizes, summing to C(m + n, m).
  const std::vector<double> a = mann_whitney_u_counts(9, 12), b = mann_whitney_u_counts(12, 9);
  EXPECT_EQ(a, b);
  double total = 0;
  for (double c : a) total += c;
  EXPECT_EQ(total, 293930.0);  // C(21, 9)
}

TEST(MannWhitney, ConoverExampleExact) {
  const auto two = mann_whitney_u(kMales, kFemales, Alternative::kTwoSided, PValueMethod::kExact);
  EXPECT_EQ(two.u, 17.0);
  expect_p(0.1111111111111111, two.p_value);
  expect_p(0.05555555555555555, mann_whitney_u(kMales, kFemales, Alternative::kGreater, PValueMethod::kExact).p_value);
  expect_p(0.9682539682539684, mann_whitney_u(kMales, kFemales, Alternative::kLess, PValueMethod::kExact).p_value);
}

TEST(MannWhitney, ConoverExampleAsymptotic) {
  expect_p(0.11134688653314041,
           mann_whitney_u(kMales, kFemales, Alternative::kTwoSided, PValueMethod::kAsymptotic).p_value);
  expect_p(0.055673443266570206,
           mann_whitney_u(kMales, kFemales, Alternative::kGreater, PValueMethod::kAsymptotic).p_value);
  expect_p(0.9669037101389033,
           mann_whitney_u(kMales, kFemales, Alternative::kLess, PValueMethod::kAsymptotic).p_value);
}

TEST(MannWhitney, AutoIsExactForSmallSamplesWithoutTies) {
  const auto r = mann_whitney_u(kNew9Slower, kBase9, Alternative::kGreater);
  EXPECT_TRUE(r.exact);
  EXPECT_FALSE(r.ties);
  EXPECT_EQ(r.u, 80.0);
  expect_p(4.113533525298231e-05, r.p_value);
  expect_p(8.227067050596462e-05, mann_whitney_u(kNew9Slower, kBase9, Alternative::kTwoSided).p_value);
  expect_p(0.9999794323323733, mann_whitney_u(kNew9Slower, kBase9, Alternative::kLess).p_value);
  expect_p(0.00028681675549428065,
           mann_whitney_u(kNew9Slower, kBase9, Alternative::kGreater, PValueMethod::kAsymptotic).p_value);
}

TEST(MannWhitney, NoShift) {
  const auto r = mann_whitney_u(kNew9Same, kBase9, Alternative::kGreater);
  EXPECT_EQ(r.u, 41.0);
  expect_p(0.49999999999999994, r.p_value);
  expect_p(0.5342863019333607, mann_whitney_u(kNew9Same, kBase9, Alternative::kLess).p_value);
  EXPECT_NEAR(mann_whitney_u(kNew9Same, kBase9, Alternative::kTwoSided).p_value, 1.0, 1e-12);
  expect_p(0.5351817377464646,
           mann_whitney_u(kNew9Same, kBase9, Alternative::kLess, PValueMethod::kAsymptotic).p_value);
}

TEST(MannWhitney, TiesUseTheTieCorrectedNormalApproximation) {
  const auto two = mann_whitney_u(kTiedA, kTiedB, Alternative::kTwoSided);
  EXPECT_TRUE(two.ties);
  EXPECT_FALSE(two.exact);
  EXPECT_EQ(two.u, 13.5);
  expect_p(0.03175895714806371, two.p_value);
  expect_p(0.9876172774448116, mann_whitney_u(kTiedA, kTiedB, Alternative::kGreater).p_value);
  expect_p(0.015879478574031856, mann_whitney_u(kTiedA, kTiedB, Alternative::kLess).p_value);
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
  const std::vector<double> a = big_a(), b = big_b();
  const auto two = mann_whitney_u(a, b, Alternative::kTwoSided);
  EXPECT_FALSE(two.exact);
  EXPECT_EQ(two.u, 314.0);
  expect_p(0.30640114066417135, two.p_value);
  expect_p(0.8507623320012278, mann_whitney_u(a, b, Alternative::kGreater).p_value);
  expect_p(0.15320057033208567, mann_whitney_u(a, b, Alternative::kLess).p_value);
}

TEST(MannWhitney, AllEqualGivesNoEvidence) {
  const std::vector<double> same(6, 3.0);
  EXPECT_EQ(mann_whitney_u(same, same, Alternative::kGreater).p_value, 1.0);
  EXPECT_EQ(mann_whitney_u(same, same, Alternative::kTwoSided).p_value, 1.0);
}

TEST(MannWhitney, EmptySampleIsAnError) {
  EXPECT_THROW(mann_whitney_u({}, kBase9, Alternative::kGreater), std::invalid_argument);
}

TEST(NormalDistribution, QuantileAndTailMatchScipy) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normal_quantile(0.95), 1.6448536269514722, 1e-12);
  EXPECT_NEAR(normal_quantile(0.001), -3.090232306167813, 1e-12);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-15);
  EXPECT_NEAR(normal_quantile(0.999999), 4.753424308817087, 1e-10);
  EXPECT_NEAR(normal_sf(1.0), 0.15865525393145707, 1e-15);
  EXPECT_NEAR(normal_sf(3.0), 0.0013498980316300933, 1e-16);
  EXPECT_NEAR(normal_sf(-2.0), 0.9772498680518208, 1e-15);
  EXPECT_THROW(normal_quantile(1.0), std::domain_error);
}

// numpy: exp(median(log(new) - log(base) over all pairs)); interval ranks
// from the enumerated U distribution (R's wilcox.test rule).
TEST(HodgesLehmann, SlowerRunRatioAndInterval) {
  const RatioEstimate r90 = hodges_lehmann_ratio(kBase9, kNew9Slower, 0.90);
  EXPECT_NEAR(r90.ratio, 1.0868686868686868, 1e-12);
  EXPECT_NEAR(r90.low, 1.0681362725450902, 1e-12);
  EXPECT_NEAR(r90.high, 1.109979633401222, 1e-12);
  EXPECT_NEAR(r90.confidence, 0.9060880296174414, 1e-12);
  EXPECT_TRUE(r90.exact);
  const RatioEstimate r95 = hodges_lehmann_ratio(kBase9, kNew9Slower, 0.95);
  EXPECT_NEAR(r95.low, 1.0613861386138614, 1e-12);
  EXPECT_NEAR(r95.high, 1.1155378486055776, 1e-12);
  EXPECT_NEAR(r95.confidence, 0.9600164541341012, 1e-12);
}

TEST(HodgesLehmann, UnchangedRunIntervalHoldsOne) {
  const RatioEstimate r = hodges_lehmann_ratio(kBase9, kNew9Same, 0.90);
  EXPECT_NEAR(r.ratio, 1.002020202020202, 1e-12);
  EXPECT_NEAR(r.low, 0.9820717131474103, 1e-12);
  EXPECT_NEAR(r.high, 1.0199203187250996, 1e-12);
}

TEST(HodgesLehmann, ScalingEverySampleScalesTheRatio) {
  // A pure scale change is recovered exactly: new = 1.25 * base.
  std::vector<double> scaled;
  for (double b : kBase9) scaled.push_back(1.25 * b);
  const RatioEstimate r = hodges_lehmann_ratio(kBase9, scaled, 0.9);
  EXPECT_NEAR(r.ratio, 1.25, 1e-12);
  EXPECT_LE(r.low, 1.25);
  EXPECT_GE(r.high, 1.25);
}

TEST(HodgesLehmann, LargeSamplesUseTheNormalInterval) {
  // 60 x 60 values: interval ranks from the normal approximation. Every new
  // value is twice a base value, so the median log difference is log 2
  // (numpy agrees: exp(median) = 2), and the interval must straddle it.
  std::vector<double> base, next;
  for (int i = 0; i < 60; ++i) {
    base.push_back(1.0 + 0.01 * i);
    next.push_back(2.0 * (1.0 + 0.01 * i));
  }
  const RatioEstimate r = hodges_lehmann_ratio(base, next, 0.9);
  EXPECT_FALSE(r.exact);
  EXPECT_NEAR(r.ratio, 2.0, 1e-12);
  EXPECT_LT(r.low, 2.0);
  EXPECT_GT(r.high, 2.0);
  EXPECT_NEAR(r.confidence, 0.9, 0.01);
}

TEST(HodgesLehmann, RejectsNonPositiveTimes) {
  EXPECT_THROW(hodges_lehmann_ratio(std::vector<double>{1, 0}, kBase9, 0.9), std::invalid_argument);
  EXPECT_THROW(hodges_lehmann_ratio(kBase9, kBase9, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace oprig::perf
