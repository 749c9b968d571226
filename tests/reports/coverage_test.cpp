// What a run tested and what it did not: the headline never counts an
// UNIMPLEMENTED or SKIPPED case as passed, and the cases that were not tested
// are listed with their reasons, by backend and by op x backend x type. The
// expected texts are written out by hand from the cases built here.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "reports/coverage.hpp"
#include "sample_results.hpp"

namespace oprig::reports {
namespace {

CaseResult a_case(const std::string& op, const std::string& backend, const std::string& dtype, Verdict v,
                  const std::string& message = "") {
  static int n = 0;
  CaseResult c;
  c.id = op + "__" + dtype + "__" + std::to_string(n++) + "__" + backend;
  c.op = op;
  c.backend = backend;
  c.dtype = dtype;
  c.verdict = v;
  c.message = message;
  return c;
}

RunResults with(std::initializer_list<CaseResult> cases) {
  RunResults r;
  r.cases = cases;
  return r;
}

// What the bundled suite looked like to a new user: most GPU cases have no kernel.
RunResults mostly_unimplemented() {
  const std::string no_cl = "OprigOpsuite registers no opencl kernel for Softmax";
  return with({a_case("Softmax", "cpu", "FLOAT_32", Verdict::kPassed),
               a_case("Softmax", "cpu", "FLOAT_32", Verdict::kPassed),
               a_case("Softmax", "cpu", "FLOAT_16", Verdict::kMistrusted, "mostly zero"),
               a_case("Softmax", "opencl", "FLOAT_32", Verdict::kUnimplemented, no_cl),
               a_case("Softmax", "opencl", "FLOAT_32", Verdict::kUnimplemented, no_cl),
               a_case("Softmax", "opencl", "FLOAT_16", Verdict::kUnimplemented, no_cl),
               a_case("Conv2D", "opencl", "FLOAT_32", Verdict::kSkipped,
                      "golden case: input in is in layout NHWC, but the spec declares NCHW for it on opencl")});
}

TEST(Headline, PassedSaysWhatPassedAndWhatWasNotTested) {
  EXPECT_EQ(headline(mostly_unimplemented()),
            "PASSED: 2 of 7 cases passed, none failed (1 MISTRUSTED: not failures); 4 not tested "
            "(3 UNIMPLEMENTED, 1 SKIPPED)");
}

TEST(Headline, EveryCasePassed) {
  EXPECT_EQ(headline(with({a_case("Atan", "cpu", "FLOAT_32", Verdict::kPassed),
                           a_case("Atan", "cpu", "FLOAT_32", Verdict::kPassed)})),
            "PASSED: all 2 cases passed, none failed");
}

TEST(Headline, FailedCountsEachFailingVerdict) {
  RunResults r = mostly_unimplemented();
  r.cases.push_back(a_case("Softmax", "cpu", "FLOAT_32", Verdict::kFailed, "x"));
  r.cases.push_back(a_case("Softmax", "cpu", "FLOAT_32", Verdict::kCrash, "x"));
  EXPECT_EQ(headline(r),
            "FAILED: 2 of 9 cases failed (1 FAILED, 1 CRASH); 2 passed, 1 MISTRUSTED; 4 not tested "
            "(3 UNIMPLEMENTED, 1 SKIPPED)");
}

TEST(Headline, NothingTestedIsNeverPassed) {
  EXPECT_EQ(headline(with({a_case("Atan", "dsp", "UINT_8", Verdict::kUnimplemented, "none"),
                           a_case("Atan", "opencl", "FLOAT_32", Verdict::kSkipped, "no driver")})),
            "NOTHING TESTED: none of the 2 cases ran a kernel to a verdict (1 UNIMPLEMENTED, 1 SKIPPED)");
  EXPECT_EQ(headline(RunResults{}), "NOTHING TESTED: no cases in this run");
}

TEST(Coverage, PerBackendCountsAndReasonsMostCasesFirst) {
  const std::vector<BackendCoverage> b = coverage_by_backend(mostly_unimplemented());
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].backend, "cpu");
  EXPECT_EQ(b[0].passed, 2u);
  EXPECT_EQ(b[0].noted, 1u);
  EXPECT_EQ(b[0].failing, 0u);
  EXPECT_EQ(b[0].not_tested, 0u);
  EXPECT_TRUE(b[0].reasons.empty());
  EXPECT_EQ(b[1].backend, "opencl");
  EXPECT_EQ(b[1].passed, 0u);
  EXPECT_EQ(b[1].not_tested, 4u);
  ASSERT_EQ(b[1].reasons.size(), 2u);
  EXPECT_EQ(b[1].reasons[0].verdict, Verdict::kUnimplemented);
  EXPECT_EQ(b[1].reasons[0].count, 3u);
  EXPECT_EQ(b[1].reasons[0].reason, "OprigOpsuite registers no opencl kernel for Softmax");
  EXPECT_EQ(b[1].reasons[0].ops, std::vector<std::string>{"Softmax"});
  EXPECT_EQ(b[1].reasons[1].verdict, Verdict::kSkipped);
  EXPECT_EQ(b[1].reasons[1].count, 1u);
}

TEST(NotTestedText, OneLinePerOpBackendTypeWithItsCount) {
  EXPECT_EQ(not_tested_text(mostly_unimplemented()),
            "not tested (one line per op x backend x data type; each case is in results.json):\n"
            "UNIMPLEMENTED   Softmax on opencl, FLOAT_32: 2 cases: OprigOpsuite registers no opencl kernel for Softmax\n"
            "UNIMPLEMENTED   Softmax on opencl, FLOAT_16: 1 case: OprigOpsuite registers no opencl kernel for Softmax\n"
            "SKIPPED         Conv2D on opencl, FLOAT_32: 1 case: golden case: input in is in layout NHWC, but the spec "
            "declares NCHW for it on opencl\n");
}

TEST(NotTestedText, SeveralReasonsInOneGroupEachWithItsCount) {
  EXPECT_EQ(not_tested_text(with({a_case("Atan", "cpu", "FLOAT_16", Verdict::kUnimplemented, "b"),
                                  a_case("Atan", "cpu", "FLOAT_16", Verdict::kUnimplemented, "a"),
                                  a_case("Atan", "cpu", "FLOAT_16", Verdict::kUnimplemented, "a")})),
            "not tested (one line per op x backend x data type; each case is in results.json):\n"
            "UNIMPLEMENTED   Atan on cpu, FLOAT_16: 3 cases: a (2); b (1)\n");
}

TEST(NotTestedText, EmptyWhenEverythingWasTested) {
  EXPECT_EQ(not_tested_text(with({a_case("Atan", "cpu", "FLOAT_32", Verdict::kFailed, "x")})), "");
}

}  // namespace
}  // namespace oprig::reports
