// Holm's step-down adjustment. Expected values worked by hand from Holm
// (1979): sort ascending, multiply the k-th smallest by (m - k + 1), cap at 1,
// and carry the running maximum forward.
#include <gtest/gtest.h>

#include <vector>

#include "perf/family_correction.hpp"

namespace oprig::perf {
namespace {

void expect_all_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-15) << "at " << i;
}

TEST(Holm, AdjustsInTheOrderGiven) {
  // Sorted 0.005, 0.01, 0.03, 0.04 -> 4*0.005, 3*0.01, 2*0.03, max(0.06, 1*0.04).
  expect_all_near(holm_adjusted(std::vector<double>{0.01, 0.04, 0.03, 0.005}), {0.03, 0.06, 0.06, 0.02});
}

TEST(Holm, RunningMaximumAndCapAtOne) {
  // 5*0.01, 4*0.02, 3*0.03, max(0.09, 2*0.04), max(0.09, 0.05).
  expect_all_near(holm_adjusted(std::vector<double>{0.01, 0.02, 0.03, 0.04, 0.05}), {0.05, 0.08, 0.09, 0.09, 0.09});
  expect_all_near(holm_adjusted(std::vector<double>{0.5, 0.3, 0.9}), {1, 0.9, 1});
}

TEST(Holm, OneTestIsUnchangedAndNoneIsEmpty) {
  expect_all_near(holm_adjusted(std::vector<double>{0.0123}), {0.0123});
  EXPECT_TRUE(holm_adjusted(std::vector<double>{}).empty());
}

TEST(Holm, FamilyOfComparisonsIsJudgedAgainAndUntestedOnesStayOut) {
  const RegressionRule rule{0.05, 0.02, 5};
  SampleComparison weak, strong, untested;
  weak.verdict = strong.verdict = ChangeVerdict::kSame;
  weak.p_slower_margin = 0.012;  // alone: REGRESSED at 0.05
  strong.p_slower_margin = 4e-5;
  weak.ratio.ratio = strong.ratio.ratio = 1.03;
  weak.p_faster_margin = strong.p_faster_margin = 0.99;
  untested.verdict = ChangeVerdict::kNotEnoughSamples;
  untested.p_slower_margin = 1e-9;
  SampleComparison* family[] = {&weak, &untested, &strong};
  correct_for_family(family, rule);
  // 2 tested: the smallest times 2, the next times 1 (never below the smallest's).
  EXPECT_NEAR(strong.p_slower_used, 8e-5, 1e-15);
  EXPECT_NEAR(weak.p_slower_used, 0.012, 1e-15);
  EXPECT_EQ(weak.verdict, ChangeVerdict::kRegressed);
  EXPECT_EQ(untested.verdict, ChangeVerdict::kNotEnoughSamples);
  EXPECT_EQ(untested.p_slower_used, 1);  // not in the family: left as it was
}

}  // namespace
}  // namespace oprig::perf
