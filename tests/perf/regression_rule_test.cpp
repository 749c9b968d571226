// The regression rule: both the one-sided test and the effect size must agree
// before a benchmark is REGRESSED or IMPROVED. p-values quoted in comments are
// scipy.stats.mannwhitneyu (exact) on the same samples.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "perf/regression_rule.hpp"
#include "perf_samples.hpp"

namespace oprig::perf {
namespace {

using test::kBase9;
using test::scaled;
// p_slower = 4.11e-5, Hodges-Lehmann ratio 1.0869 (statistics_test.cpp).
const std::vector<double> kNew9Slower = {5.38, 5.51, 5.29, 5.45, 5.60, 5.33, 5.41, 5.72, 5.36};
const std::vector<double> kNew9Same = {4.93, 5.08, 4.85, 4.97, 5.12, 4.89, 5.01, 5.40, 4.96};

// The values below were worked at alpha 0.05; the gate's default is 0.001 (last test).
const RegressionRule kAt05{0.05, 0.05, 5};

TEST(RegressionRule, SignificantAndLargeIsRegressed) {
  const SampleComparison c = compare_samples(kBase9, kNew9Slower, kAt05);
  EXPECT_EQ(c.verdict, ChangeVerdict::kRegressed);
  EXPECT_LT(c.p_slower, 0.05);
  EXPECT_NEAR(c.ratio.ratio, 1.0868686868686868, 1e-12);
  EXPECT_EQ(c.base_count, 9u);
  EXPECT_NEAR(c.base_median, 4.99, 1e-12);
  EXPECT_NEAR(c.new_median, 5.41, 1e-12);
  EXPECT_TRUE(c.exact);
}

TEST(RegressionRule, SwappedRunsAreImproved) {
  const SampleComparison c = compare_samples(kNew9Slower, kBase9, kAt05);
  EXPECT_EQ(c.verdict, ChangeVerdict::kImproved);
  EXPECT_LT(c.p_faster, 0.05);
  EXPECT_NEAR(c.ratio.ratio, 1 / 1.0868686868686868, 1e-12);
}

TEST(RegressionRule, SameBuildIsSame) {
  EXPECT_EQ(compare_samples(kBase9, kNew9Same, kAt05).verdict, ChangeVerdict::kSame);
  EXPECT_EQ(compare_samples(kBase9, kBase9, kAt05).verdict, ChangeVerdict::kSame);
}

TEST(RegressionRule, SignificantButBelowTheMinimumEffectIsSame) {
  // Every repetition 3 % slower: scipy's exact one-sided p = 0.0122, ratio 1.03.
  const std::vector<double> slower3 = scaled(kBase9, 1.03);
  const SampleComparison c = compare_samples(kBase9, slower3, kAt05);
  EXPECT_NEAR(c.p_slower, 0.012217194570135747, 1e-12);
  EXPECT_NEAR(c.ratio.ratio, 1.03, 1e-12);
  EXPECT_EQ(c.verdict, ChangeVerdict::kSame);
  // A 2 % margin does not catch it either: the test is "slower than BASE x 1.02", and 1.03 / 1.02
  // is a 1 % shift of repetitions that spread by 9 %.
  const SampleComparison margin2 = compare_samples(kBase9, slower3, RegressionRule{0.05, 0.02, 5});
  EXPECT_EQ(margin2.verdict, ChangeVerdict::kSame);
  EXPECT_GT(margin2.p_slower_margin, 0.05);
}

TEST(RegressionRule, TheTestIsAgainstTheMargin) {
  // 8 % slower against a 5 % margin is the 3 % case above shifted by 1.05: the same
  // exact p = 0.0122 (scipy and an enumeration of U: tests/perf/data/make_reference_values.py), REGRESSED.
  const SampleComparison c = compare_samples(kBase9, scaled(kBase9, 1.08), kAt05);
  EXPECT_NEAR(c.p_slower_margin, 0.012217194570135747, 1e-12);
  EXPECT_NEAR(c.p_slower, 0.00014397367338543808, 1e-12);  // against no change: far smaller (exact enumeration)
  EXPECT_EQ(c.verdict, ChangeVerdict::kRegressed);
  // A stricter alpha does not flag it.
  EXPECT_EQ(compare_samples(kBase9, scaled(kBase9, 1.08), RegressionRule{0.01, 0.05, 5}).verdict,
            ChangeVerdict::kSame);
  // Tight repetitions 3 % slower against a 2 % margin: every NEW above every BASE x 1.02.
  const std::vector<double> tight = {2.000, 2.001, 2.002, 2.003, 2.004, 2.005, 2.006, 2.007, 2.008};
  EXPECT_EQ(compare_samples(tight, scaled(tight, 1.03), RegressionRule{0.05, 0.02, 5}).verdict,
            ChangeVerdict::kRegressed);
  // And faster symmetrically: BASE / 1.05 against NEW.
  EXPECT_EQ(compare_samples(scaled(kBase9, 1.08), kBase9, kAt05).verdict, ChangeVerdict::kImproved);
}

TEST(RegressionRule, LargeButNotSignificantIsSame) {
  // Ratio 1.227 but scipy's exact one-sided p = 0.155: noise, not a regression.
  const std::vector<double> base = {10.0, 11.0, 12.0, 13.0, 30.0};
  const std::vector<double> next = {10.5, 12.5, 13.5, 40.0, 50.0};
  const SampleComparison c = compare_samples(base, next, kAt05);
  EXPECT_NEAR(c.p_slower, 0.15476190476190477, 1e-12);
  EXPECT_NEAR(c.ratio.ratio, 1.227272727272727, 1e-12);
  EXPECT_EQ(c.verdict, ChangeVerdict::kSame);
}

TEST(RegressionRule, TooFewRepetitionsSaySo) {
  const std::vector<double> four = {5.4, 5.5, 5.6, 5.7};
  const SampleComparison c = compare_samples(kBase9, four, kAt05);
  EXPECT_EQ(c.verdict, ChangeVerdict::kNotEnoughSamples);
  EXPECT_NE(c.note.find("4 in NEW"), std::string::npos) << c.note;
  EXPECT_EQ(compare_samples(kBase9, four, RegressionRule{0.05, 0.05, 4}).verdict, ChangeVerdict::kRegressed);
}

TEST(RegressionRule, UnusableTimesAreDroppedAndCounted) {
  std::vector<double> with_bad = kNew9Slower;
  with_bad.push_back(0.0);
  with_bad.push_back(std::numeric_limits<double>::quiet_NaN());
  const SampleComparison c = compare_samples(kBase9, with_bad, kAt05);
  EXPECT_EQ(c.new_count, 9u);
  EXPECT_EQ(c.verdict, ChangeVerdict::kRegressed);
  EXPECT_NE(c.note.find("2 in NEW"), std::string::npos) << c.note;
}

TEST(RegressionRule, RejectsRulesOutOfRange) {
  EXPECT_THROW(check_rule({0.0, 0.05, 5}), std::invalid_argument);
  EXPECT_THROW(check_rule({0.6, 0.05, 5}), std::invalid_argument);
  EXPECT_THROW(check_rule({0.05, -0.1, 5}), std::invalid_argument);
  EXPECT_THROW(check_rule({0.05, 0.05, 1}), std::invalid_argument);
  EXPECT_NO_THROW(check_rule({0.05, 0.0, 2}));
}

TEST(RegressionRule, VerdictNames) {
  EXPECT_EQ(change_verdict_name(ChangeVerdict::kRegressed), "REGRESSED");
  EXPECT_EQ(change_verdict_name(ChangeVerdict::kImproved), "IMPROVED");
  EXPECT_EQ(change_verdict_name(ChangeVerdict::kSame), "SAME");
  EXPECT_EQ(change_verdict_name(ChangeVerdict::kNotEnoughSamples), "NOT_ENOUGH_SAMPLES");
}

TEST(RegressionRule, DefaultAlphaIsOneInAThousand) {
  EXPECT_EQ(RegressionRule{}.alpha, 0.001);
  // kNew9Slower is 8.7 % slower but overlaps BASE x 1.05 (exact p = 0.0028): not at 0.001.
  EXPECT_EQ(compare_samples(kBase9, kNew9Slower, RegressionRule{}).verdict, ChangeVerdict::kSame);
  // 9 repetitions that do not overlap BASE x 1.05 reach it: exact p = 1 / C(18, 9) = 2.06e-5.
  const SampleComparison c = compare_samples(kBase9, scaled(kBase9, 1.2), RegressionRule{});
  EXPECT_NEAR(c.p_slower_margin, 1.0 / 48620, 1e-12);
  EXPECT_EQ(c.verdict, ChangeVerdict::kRegressed);
}

}  // namespace
}  // namespace oprig::perf
