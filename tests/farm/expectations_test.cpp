// Expectations files and the judging of a case against them and its re-runs
// (farm/expectations.hpp): each outcome derived by hand from the rules in
// that header.
#include <gtest/gtest.h>

#include <string>

#include "farm/expectations.hpp"
#include "reports/outcome.hpp"
#include "runner/suite.hpp"

namespace oprig::harness::farm {
namespace {

reports::CaseResult case_of(const std::string& id, Verdict verdict) {
  reports::CaseResult c;
  c.id = id;
  c.verdict = verdict;
  return c;
}

TEST(ExpectationsFile, ReadsLinesCommentsAndReasons) {
  Expectations e;
  e.add_text("# known failures of this port\n"
             "\n"
             "atan__f16__*__cpu,FAILED,half rounding off by one ulp, see bug 12\n"
             "  softmax__*__vulkan , skip \n"
             "conv2d__f32__1x1x*,FLAKY\n",
             "port.txt");
  ASSERT_EQ(e.entries().size(), 3u);
  EXPECT_EQ(e.entries()[0].pattern, "atan__f16__*__cpu");
  EXPECT_EQ(e.entries()[0].verdict, "FAILED");
  EXPECT_EQ(e.entries()[0].reason, "half rounding off by one ulp, see bug 12");  // commas in the reason kept
  EXPECT_EQ(e.entries()[0].where(), "port.txt:3");
  EXPECT_EQ(e.entries()[1].verdict, "SKIP");
  EXPECT_EQ(e.entries()[1].pattern, "softmax__*__vulkan");
  EXPECT_EQ(e.entries()[2].reason, "");
}

TEST(ExpectationsFile, RefusesBadLinesNamingThem) {
  for (const char* bad : {"atan__f32__7__cpu\n", "atan__f32__7__cpu,WRONG\n", ",FAILED\n", "Atan f32,FAILED\n"}) {
    Expectations e;
    try {
      e.add_text(std::string("# first\n") + bad, "bad.txt");
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("bad.txt:2"), std::string::npos) << error.what();
    }
  }
}

TEST(ExpectationsFile, TheLastMatchingLineDecides) {
  Expectations e;
  e.add_text("atan__*,FAILED\natan__f32__*,FLAKY\n", "a.txt");
  e.add_text("atan__f32__7__*__cpu,CRASH,segfaults\n", "b.txt");
  ASSERT_NE(e.find("atan__f32__7__edge__p0__cpu"), nullptr);
  EXPECT_EQ(e.find("atan__f32__7__edge__p0__cpu")->where(), "b.txt:1");
  EXPECT_EQ(e.find("atan__f32__8__edge__p0__cpu")->verdict, "FLAKY");
  EXPECT_EQ(e.find("atan__f16__8__edge__p0__cpu")->verdict, "FAILED");
  EXPECT_EQ(e.find("softmax__f32__8__edge__p0__cpu"), nullptr);
}

struct Judged {
  std::string status;
  bool fails_run;
};

Judged judged(Verdict verdict, const char* expected, std::vector<Verdict> attempts = {},
              OutcomePolicy policy = {}) {
  Expectations e;
  if (expected) e.add_text(std::string("x*,") + expected + "\n", "e.txt");
  reports::CaseResult c = case_of("x1", verdict);
  c.outcome.attempts = std::move(attempts);
  judge(c, e.find(c.id), policy);
  return {c.outcome.status, reports::counts_as_failure(c)};
}

TEST(Judge, AnExpectedFailureDoesNotFailTheRun) {
  const Judged j = judged(Verdict::kFailed, "FAILED");
  EXPECT_EQ(j.status, "EXPECTED_FAILURE");
  EXPECT_FALSE(j.fails_run);
}

TEST(Judge, AnotherFailureThanTheExpectedOneFails) {
  const Judged j = judged(Verdict::kCrash, "FAILED");
  EXPECT_EQ(j.status, "");
  EXPECT_TRUE(j.fails_run);
}

TEST(Judge, AnExpectedFailureThatPassesIsUnexpectedPassFailingOnlyWhenStrict) {
  EXPECT_EQ(judged(Verdict::kPassed, "FAILED").status, "UNEXPECTED_PASS");
  EXPECT_FALSE(judged(Verdict::kPassed, "FAILED").fails_run);
  EXPECT_TRUE(judged(Verdict::kPassed, "FAILED", {}, {.strict_expectations = true}).fails_run);
}

TEST(Judge, AnUnexpectedFailureFails) {
  EXPECT_TRUE(judged(Verdict::kFailed, nullptr).fails_run);
  EXPECT_FALSE(judged(Verdict::kPassed, nullptr).fails_run);
  EXPECT_EQ(judged(Verdict::kPassed, nullptr).status, "");
}

TEST(Judge, AVerdictThatChangedBetweenAttemptsIsFlaky) {
  const Judged j = judged(Verdict::kFailed, nullptr, {Verdict::kFailed, Verdict::kPassed});
  EXPECT_EQ(j.status, "FLAKY");
  EXPECT_FALSE(j.fails_run);
  EXPECT_TRUE(judged(Verdict::kFailed, nullptr, {Verdict::kFailed, Verdict::kPassed}, {.fail_on_flakes = true}).fails_run);
  // The same failure every attempt: a confirmed failure.
  const Judged same = judged(Verdict::kFailed, nullptr, {Verdict::kFailed, Verdict::kFailed, Verdict::kFailed});
  EXPECT_EQ(same.status, "");
  EXPECT_TRUE(same.fails_run);
}

TEST(Judge, AKnownFlakeExcusesAnyFailure) {
  EXPECT_EQ(judged(Verdict::kTimeout, "FLAKY").status, "FLAKY");
  EXPECT_FALSE(judged(Verdict::kTimeout, "FLAKY").fails_run);
  EXPECT_EQ(judged(Verdict::kPassed, "FLAKY").status, "");
}

TEST(WantsRerun, OnlyUnexpectedFailuresTheKernelCanChange) {
  Expectations e;
  e.add_text("expected*,FAILED\nflake*,FLAKY\n", "e.txt");
  auto wants = [&](const char* id, Verdict v) { return wants_rerun(case_of(id, v), e.find(id)); };
  EXPECT_TRUE(wants("other", Verdict::kFailed));
  EXPECT_TRUE(wants("other", Verdict::kCrash));
  EXPECT_TRUE(wants("other", Verdict::kTimeout));
  EXPECT_TRUE(wants("expected1", Verdict::kCrash));  // not the failure expected
  EXPECT_FALSE(wants("expected1", Verdict::kFailed));
  EXPECT_FALSE(wants("flake1", Verdict::kFailed));
  EXPECT_FALSE(wants("other", Verdict::kInvalidSpec));
  EXPECT_FALSE(wants("other", Verdict::kPassed));
}

TEST(ExpectationWord, WhatAFileWrittenFromTheRunSays) {
  reports::CaseResult failed = case_of("a", Verdict::kCrash);
  EXPECT_EQ(expectation_word(failed), "CRASH");
  reports::CaseResult flaky = case_of("b", Verdict::kFailed);
  flaky.outcome.status = reports::kFlaky;
  EXPECT_EQ(expectation_word(flaky), "FLAKY");
  EXPECT_EQ(expectation_word(case_of("c", Verdict::kPassed)), "");
}

}  // namespace
}  // namespace oprig::harness::farm
