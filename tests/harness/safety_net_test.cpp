// The safety net, end to end: the real `oprig run` on test packages whose
// kernel is correct except on tensors of exactly 7 elements, where it
// segfaults, aborts, hangs, writes out of bounds or leaves an element
// unwritten. Each such case must get its verdict, every other case must
// pass, the run must go on to the end, and each repro line must reproduce
// the verdict for exactly that case.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;

struct Fault {
  const char* name;
  const char* package;
  const char* verdict;       // of every 7-element case
  const char* message_part;  // in that case's message
  const char* case_timeout;  // --case-timeout
  size_t repro_checks;       // how many repro lines to run (each spin repro costs a timeout)
};

const Fault kFaults[] = {
    {"segfault", OPRIG_TEST_PACKAGE_SEGFAULT, "CRASH", "signal 11", "5", 1000},
    {"abort", OPRIG_TEST_PACKAGE_ABORT, "CRASH", "signal 6", "5", 1000},
    {"spin", OPRIG_TEST_PACKAGE_SPIN, "TIMEOUT", "no result after 2", "2", 1},
    {"oob", OPRIG_TEST_PACKAGE_OOB, "FAILED", "red zone", "5", 1000},
    {"lazy", OPRIG_TEST_PACKAGE_LAZY, "FAILED", "unwritten", "5", 1000},
};

// gtest prints a failing parameter with this instead of its bytes.
void PrintTo(const Fault& fault, std::ostream* os) { *os << fault.name; }

class FaultyPackage : public OprigCliTest, public ::testing::WithParamInterface<Fault> {};

TEST_P(FaultyPackage, FaultsBecomeVerdictsAndTheRunGoesOn) {
  const Fault& fault = GetParam();
  const PlanCounts expected = count_cpu_cases_from_plan();
  ASSERT_GT(expected.cpu_cases_with_7_elements, 0u) << "plan.json has no 7-element shape left";

  const OprigRun run = oprig({"run", "--spec", kAtanSpec.string(), "--package", fault.package, "--backend", "cpu",
                              "--case-timeout", fault.case_timeout},
                             "run", let_signals_through());
  EXPECT_EQ(run.process.exit_code, 1) << run.process.err;
  EXPECT_FALSE(run.process.timed_out);
  EXPECT_LT(run.process.seconds, 60.0);
  ASSERT_TRUE(run.results.is_object()) << "no results.json; stderr:\n" << run.process.err;

  std::set<std::string> ids;
  std::vector<const nlohmann::json*> non_passing;
  size_t faulty = 0;
  for (const nlohmann::json& c : run.cases()) {
    const std::string id = c.at("id");
    EXPECT_TRUE(ids.insert(id).second) << "case twice: " << id;
    EXPECT_EQ(c.at("backend"), "cpu");
    if (element_count(c) == 7) {
      ++faulty;
      EXPECT_EQ(c.at("verdict"), std::string(fault.verdict)) << id << ": " << c.at("message");
      EXPECT_THAT(c.at("message").get<std::string>(), HasSubstr(fault.message_part)) << id;
    } else {
      EXPECT_EQ(c.at("verdict"), "PASSED") << id << ": " << c.at("message");
    }
    if (c.at("verdict") != "PASSED") non_passing.push_back(&c);
  }
  EXPECT_EQ(run.cases().size(), expected.cpu_cases);
  EXPECT_EQ(faulty, expected.cpu_cases_with_7_elements);

  // Every non-passing case has a repro line that re-runs exactly that case.
  size_t checked = 0;
  for (const nlohmann::json* c : non_passing) {
    const std::string id = c->at("id"), repro_line = c->at("repro");
    EXPECT_THAT(repro_line, HasSubstr("--case " + id));
    EXPECT_THAT(repro_line, HasSubstr(fault.package));
    EXPECT_THAT(repro_line, HasSubstr(std::string("--case-timeout ") + fault.case_timeout));
    if (checked++ >= fault.repro_checks) continue;
    const OprigRun again = repro(repro_line, "repro_" + id, let_signals_through());
    EXPECT_EQ(again.process.exit_code, 1) << repro_line << "\n" << again.process.err;
    ASSERT_TRUE(again.results.is_object()) << repro_line << "\n" << again.process.err;
    ASSERT_EQ(again.cases().size(), 1u) << repro_line;
    const nlohmann::json& one = again.cases()[0];
    EXPECT_EQ(one.at("id"), id);
    EXPECT_EQ(one.at("seed"), c->at("seed"));
    EXPECT_EQ(one.at("verdict"), std::string(fault.verdict));
    EXPECT_THAT(one.at("message").get<std::string>(), HasSubstr(fault.message_part));
  }
}

INSTANTIATE_TEST_SUITE_P(SafetyNet, FaultyPackage, ::testing::ValuesIn(kFaults),
                         [](const ::testing::TestParamInfo<Fault>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace oprig_test
