// The summary table and the exit code derived from the verdicts.
#include <gtest/gtest.h>

#include "reports/summary.hpp"
#include "sample_results.hpp"

namespace oprig::reports {
namespace {

using testing::make_sample_results;

RunResults with_verdicts(std::initializer_list<Verdict> verdicts) {
  RunResults r;
  int i = 0;
  for (Verdict v : verdicts) {
    CaseResult c;
    c.id = "case" + std::to_string(i++);
    c.op = "atan";
    c.backend = "cpu";
    c.dtype = "f32";
    c.verdict = v;
    r.cases.push_back(c);
  }
  return r;
}

TEST(SummaryTable, SampleRunHandCounted) {
  // cpu: 2 PASSED, 1 FAILED; opencl: 1 SKIPPED, 1 UNIMPLEMENTED, 1 CRASH.
  const std::string expected =
      "backend  PASSED  FAILED  SKIPPED  UNIMPLEMENTED  CRASH  total\n"
      "cpu           2       1        0              0      0      3\n"
      "opencl        0       0        1              1      1      3\n"
      "all           2       1        1              1      1      6\n";
  EXPECT_EQ(summary_table(make_sample_results()), expected);
}

TEST(SummaryTable, SingleBackendHasNoAllRow) {
  const std::string expected =
      "backend  PASSED  QUALITY_WARNING  total\n"
      "cpu           2                1      3\n";
  EXPECT_EQ(summary_table(with_verdicts({Verdict::kPassed, Verdict::kQualityWarning, Verdict::kPassed})), expected);
}

TEST(SummaryTable, EmptyRun) { EXPECT_EQ(summary_table(RunResults{}), "no cases were run\n"); }

TEST(SummaryTable, BackendsFollowTheEnvironmentOrderThenAppearance) {
  RunResults r = make_sample_results();
  r.environment.backends = {{"opencl", false, "", "", "", "", ""},
                            {"dsp", true, "", "", "", "", ""},
                            {"cpu", true, "", "", "", "", ""}};
  r.cases.push_back(r.cases[0]);
  r.cases.back().backend = "vulkan";
  const auto rows = count_verdicts_by_backend(r);
  ASSERT_EQ(rows.size(), 3u);  // dsp has no cases: no row
  EXPECT_EQ(rows[0].backend, "opencl");
  EXPECT_EQ(rows[1].backend, "cpu");
  EXPECT_EQ(rows[2].backend, "vulkan");
  EXPECT_EQ(rows[0][Verdict::kCrash], 1u);
  EXPECT_EQ(rows[0].total(), 3u);
  EXPECT_EQ(rows[0].failures(), 1u);
  EXPECT_EQ(rows[1][Verdict::kPassed], 2u);
  EXPECT_EQ(rows[2].total(), 1u);
}

TEST(ExitCode, FailingVerdictsFailTheRun) {
  EXPECT_EQ(exit_code_for(make_sample_results()), 1);
  EXPECT_EQ(exit_code_for(RunResults{}), 3) << "a run with no case tested nothing";
  EXPECT_EQ(exit_code_for(with_verdicts({Verdict::kSkipped, Verdict::kUnimplemented})), 3)
      << "nothing judged: not a pass";
  EXPECT_EQ(exit_code_for(with_verdicts({Verdict::kPassed, Verdict::kSkipped, Verdict::kUnimplemented,
                                         Verdict::kQualityWarning, Verdict::kMistrusted})),
            0);
  for (Verdict failing : {Verdict::kFailed, Verdict::kCrash, Verdict::kTimeout, Verdict::kInvalidSpec})
    EXPECT_EQ(exit_code_for(with_verdicts({Verdict::kPassed, failing})), 1) << verdict_name(failing);
}

TEST(Severity, FailingVerdictsOutrankTheRest) {
  for (Verdict a : kAllVerdicts)
    for (Verdict b : kAllVerdicts)
      if (verdict_is_failure(a) && !verdict_is_failure(b)) {
        EXPECT_GT(verdict_severity(a), verdict_severity(b));
      }
  EXPECT_LT(verdict_severity(Verdict::kPassed), verdict_severity(Verdict::kSkipped));
  EXPECT_GT(verdict_severity(Verdict::kQualityWarning), verdict_severity(Verdict::kUnimplemented));
}

}  // namespace
}  // namespace oprig::reports
