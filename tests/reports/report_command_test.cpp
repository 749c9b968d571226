// `oprig report`: renders from results.json or .jsonl, exits 2 on bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "report_command.hpp"
#include "sample_results.hpp"

namespace oprig::cli {
namespace {

namespace fs = std::filesystem;
using reports::testing::data_file;

class ReportCommand : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = reports::testing::make_temp_dir("cli"); }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `oprig <args...>` the way harness/cli/main.cpp does; returns the exit code.
  int run(std::vector<std::string> args) {
    args.insert(args.begin(), "oprig");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    CLI::App app("oprig");
    app.require_subcommand(1);
    int exit_code = -1;
    add_report_command(app, &exit_code);
    try {
      app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    }
    return exit_code;
  }

  fs::path dir_;
};

TEST_F(ReportCommand, RendersHtmlFromResultsJson) {
  const fs::path out = dir_ / "report.html";
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run({"report", data_file("sample_results.json").string(), "-o", out.string()}), 0);
  const std::string printed = ::testing::internal::GetCapturedStdout();
  const std::string page = reports::testing::read_file(out);
  EXPECT_NE(page.find("id=\"summary-matrix\""), std::string::npos);
  EXPECT_NE(page.find("PoCL 3.1"), std::string::npos);
  // The sample: 10 PASSED, 1 FAILED, 1 MISTRUSTED, 1 SKIPPED, 1 UNIMPLEMENTED.
  EXPECT_NE(printed.find("backend  PASSED  FAILED  MISTRUSTED  SKIPPED  UNIMPLEMENTED  total"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("all          10       1           1        1              1     14"), std::string::npos)
      << printed;
}

TEST_F(ReportCommand, RendersFromAKilledRunsJsonlAndWritesJUnit) {
  const fs::path out = dir_ / "partial.html";
  const fs::path junit = dir_ / "junit.xml";
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run({"report", data_file("killed_run.jsonl").string(), "-o", out.string(), "--junit", junit.string()}),
            0);
  ::testing::internal::GetCapturedStdout();
  EXPECT_TRUE(fs::exists(out));
  EXPECT_NE(reports::testing::read_file(junit).find("tests=\"3\""), std::string::npos);
}

TEST_F(ReportCommand, BadInputExitsTwoWithTheField) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"report", data_file("bad_verdict.json").string(), "-o", (dir_ / "x.html").string()}), 2);
  const std::string error = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(error.find("oprig report: "), std::string::npos) << error;
  EXPECT_NE(error.find("cases[2].verdict: unknown verdict \"MAYBE\""), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(dir_ / "x.html"));
}

TEST_F(ReportCommand, BaselineComparesTheRunWithAnEarlierOne) {
  // The sample times four cases with three samples each: too few to judge
  // (the rule needs five), which the page and the summary say; its dsp case
  // is simulated time and is never compared.
  const fs::path out = dir_ / "report.html";
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run({"report", data_file("sample_results.json").string(), "-o", out.string(), "--baseline",
                 data_file("sample_results.json").string()}),
            0);
  const std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(printed.find("baseline: 0 regressed, 0 improved, 0 unchanged of 3 cases timed in both"), std::string::npos)
      << printed;
  const std::string page = reports::testing::read_file(out);
  EXPECT_NE(page.find("id=\"perf-baseline\""), std::string::npos);
  EXPECT_NE(page.find("NOT_ENOUGH_SAMPLES"), std::string::npos);

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"report", data_file("sample_results.json").string(), "-o", out.string(), "--baseline",
                 (dir_ / "no-such-run").string()}),
            2);
  const std::string error = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(error.find("--baseline: "), std::string::npos) << error;
  EXPECT_NE(error.find("no-such-run"), std::string::npos) << error;
}

TEST_F(ReportCommand, MissingOrTruncatedFileExitsTwo) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"report", (dir_ / "missing.json").string(), "-o", (dir_ / "x.html").string()}), 2);
  EXPECT_EQ(run({"report", data_file("not_json.json").string(), "-o", (dir_ / "x.html").string()}), 2);
  const std::string error = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(error.find("missing.json: cannot open for reading"), std::string::npos) << error;
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
}

TEST_F(ReportCommand, UnwritableOutputExitsTwo) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run({"report", data_file("sample_results.json").string(), "-o", (dir_ / "no" / "x.html").string()}), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("cannot write"), std::string::npos);
}

TEST_F(ReportCommand, DefaultOutputSitsBesideTheInput) {
  fs::copy_file(data_file("sample_results.json"), dir_ / "results.json");
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run({"report", (dir_ / "results.json").string()}), 0);
  ::testing::internal::GetCapturedStdout();
  EXPECT_TRUE(fs::exists(dir_ / "report.html"));
}

}  // namespace
}  // namespace oprig::cli
