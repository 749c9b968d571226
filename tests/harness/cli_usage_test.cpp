// The command line itself: --version, a mistyped command, what --help shows,
// and numbers and patterns that must be refused (exit 2) with a message in
// words instead of aborting, running everything, or running something else.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class CliUsage : public OprigCliTest {
 protected:
  // Runs oprig with `args`; it must refuse with exit 2 and a message holding `says`.
  void expect_refused(const std::vector<std::string>& args, const std::string& says) {
    const OprigRun run = oprig(args, "");
    std::string shown;
    for (const std::string& a : args) shown += " " + a;
    EXPECT_EQ(run.process.exit_code, 2) << "oprig" << shown << "\n" << run.process.out << run.process.err;
    EXPECT_THAT(run.process.err, HasSubstr(says)) << "oprig" << shown;
    EXPECT_THAT(run.process.out, Not(HasSubstr("ran "))) << "oprig" << shown;
  }
};

TEST_F(CliUsage, VersionPrintsTheVersion) {
  const OprigRun run = oprig({"--version"}, "");
  EXPECT_EQ(run.process.exit_code, 0) << run.process.err;
  EXPECT_THAT(run.process.out, ::testing::MatchesRegex("oprig [0-9]+\\.[0-9]+\\.[0-9]+\n"));
}

TEST_F(CliUsage, MistypedCommandIsNamedWithTheNearestCommand) {
  expect_refused({"runn"}, "unknown command 'runn'; did you mean 'run'?");
  expect_refused({"bnech", "--op", "atan"}, "did you mean 'bench'?");
}

TEST_F(CliUsage, HelpHidesInternalCommandsAndEveryCommandStatesItsExitCodes) {
  const OprigRun top = oprig({"--help"}, "");
  EXPECT_EQ(top.process.exit_code, 0);
  EXPECT_THAT(top.process.out, Not(HasSubstr("__worker")));
  EXPECT_THAT(top.process.out, Not(HasSubstr("__load-package")));
  for (const char* command : {"run", "bench", "validate", "report", "backends", "spec", "golden", "model", "plan",
                              "package", "compare", "history", "calibrate"}) {
    const OprigRun help = oprig({command, "--help"}, "");
    EXPECT_EQ(help.process.exit_code, 0) << command;
    EXPECT_THAT(help.process.out, HasSubstr("Exit codes")) << command;
  }
  EXPECT_THAT(oprig({"run", "--help"}, "").process.out, HasSubstr("3 nothing was tested"));
}

TEST_F(CliUsage, BadNumbersAreRefusedInWords) {
  expect_refused({"bench", "--min-time", "-1"}, "greater than 0");
  expect_refused({"bench", "--min-time", "nan"}, "greater than 0");
  for (const char* timeout : {"nan", "0", "-3", "inf"}) {
    const OprigRun run = oprig({"run", "--op", "atan", "--case-timeout", timeout}, "");
    EXPECT_EQ(run.process.exit_code, 2) << timeout << run.process.err;
    EXPECT_THAT(run.process.err, HasSubstr("not a number of seconds greater than 0 and at most 86400")) << timeout;
    EXPECT_LT(run.process.err.size(), 300u) << "a short message, not the limits of double: " << run.process.err;
  }
  expect_refused({"model", "run", (kSourceDir / "tests/data/models/while_count.json").string(), "--loop-timeout", "-5"},
                 "milliseconds greater than 0");
}

TEST_F(CliUsage, InvalidFilterRegexIsRefused) {
  expect_refused({"bench", "--op", "atan", "--filter", "(["}, "not a valid regular expression");
}

TEST_F(CliUsage, EmptyCaseIdIsRefused) { expect_refused({"run", "--op", "atan", "--case", ""}, "empty case id"); }

TEST_F(CliUsage, CaseOfAnotherBackendIsRefused) {
  expect_refused({"run", "--spec", kAtanSpec.string(), "--case", "atan__f32__127__wide__p1__cpu", "--backend", "dsp"},
                 "is a case of backend cpu, but --backend asks for dsp");
}

}  // namespace
}  // namespace oprig_test
