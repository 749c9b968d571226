// results.jsonl: the stream a run appends to; a killed run's last line may be
// cut anywhere and reading must still return every whole line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "reports/json/json_reporter.hpp"
#include "reports/results.hpp"
#include "sample_results.hpp"

namespace oprig::reports {
namespace {

using testing::make_sample_results;
using testing::make_temp_dir;

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

class JsonLines : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temp_dir("jsonl"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(JsonLines, SampleFromAKilledRunKeepsTheWholeLines) {
  const auto cases = read_jsonl(testing::data_file("killed_run.jsonl"));
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].id, "atan__f32__1x3x5x7__uniform__p0__cpu");
  EXPECT_EQ(cases[2].id, "atan__f32__1x1024x1024__uniform__p0__cpu");
  ASSERT_TRUE(cases[2].stats.has_value());
  EXPECT_EQ(cases[2].stats->count, 1048576u);
}

TEST_F(JsonLines, EveryTruncationPointOfTheLastLineIsTolerated) {
  const RunResults r = make_sample_results();
  std::string whole;
  for (size_t i = 0; i < 3; ++i) whole += to_jsonl_line(r.cases[i]);
  const std::string last = to_jsonl_line(r.cases[3]);
  const auto path = dir_ / "results.jsonl";
  // Cut the last line after every byte: until the closing brace it is
  // dropped; with the brace (newline or not) it counts.
  for (size_t cut = 0; cut <= last.size(); ++cut) {
    write_text(path, whole + last.substr(0, cut));
    const auto cases = read_jsonl(path);
    const size_t expected = cut >= last.size() - 1 ? 4 : 3;
    ASSERT_EQ(cases.size(), expected) << "cut after " << cut << " of " << last.size() << " bytes";
    EXPECT_EQ(cases[2], r.cases[2]);
  }
}

TEST_F(JsonLines, ABadLineInTheMiddleIsAnErrorWithItsLineNumber) {
  const RunResults r = make_sample_results();
  const auto path = dir_ / "results.jsonl";
  write_text(path, to_jsonl_line(r.cases[0]) + "{\"id\": \n" + to_jsonl_line(r.cases[1]));
  try {
    read_jsonl(path);
    FAIL() << "accepted a corrupt middle line";
  } catch (const ResultsFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("results.jsonl:2: not a valid JSON line"), std::string::npos) << e.what();
  }
}

TEST_F(JsonLines, ASchemaErrorNamesLineAndField) {
  const auto path = dir_ / "results.jsonl";
  write_text(path, "\n{\"id\":\"x\",\"op\":\"atan\",\"backend\":\"cpu\",\"dtype\":\"f32\",\"verdict\":\"NOPE\"}\n");
  try {
    read_jsonl(path);
    FAIL() << "accepted an unknown verdict";
  } catch (const ResultsFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("results.jsonl:2: verdict: unknown verdict"), std::string::npos) << e.what();
  }
}

TEST_F(JsonLines, BlankLinesAndCarriageReturnsAreSkipped) {
  const RunResults r = make_sample_results();
  const auto path = dir_ / "results.jsonl";
  std::string line = to_jsonl_line(r.cases[0]);
  line.insert(line.size() - 1, "\r");
  write_text(path, "\n  \n" + line + "\n");
  const auto cases = read_jsonl(path);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0], r.cases[0]);
}

TEST_F(JsonLines, ReporterStreamsOneLinePerCaseAndAppendsOnResume) {
  const RunResults r = make_sample_results();
  const auto path = dir_ / "results.jsonl";
  {
    JsonLinesReporter reporter(path, /*append=*/false);
    reporter.begin_run(r.environment);
    reporter.report_case(r.cases[0]);
    reporter.report_case(r.cases[1]);
    // Readable while the run is still going.
    EXPECT_EQ(read_jsonl(path).size(), 2u);
    reporter.finish(r);
  }
  {
    JsonLinesReporter resumed(path, /*append=*/true);
    resumed.begin_run(r.environment);
    resumed.report_case(r.cases[2]);
    resumed.finish(r);
  }
  const auto cases = read_jsonl(path);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[2], r.cases[2]);
  {
    JsonLinesReporter fresh(path, /*append=*/false);
    fresh.begin_run(r.environment);
    fresh.finish(r);
  }
  EXPECT_TRUE(read_jsonl(path).empty());
}

TEST_F(JsonLines, InvalidUtf8InAMessageIsReplacedNotFatal) {
  CaseResult c = make_sample_results().cases[5];
  c.message = "worker said \xff\xfe bye";
  const std::string line = to_jsonl_line(c);
  const auto path = dir_ / "results.jsonl";
  write_text(path, line);
  const auto cases = read_jsonl(path);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].message, "worker said \xEF\xBF\xBD\xEF\xBF\xBD bye");
}

TEST_F(JsonLines, ResultsFileReaderAcceptsJsonl) {
  const RunResults r = read_results_file(testing::data_file("killed_run.jsonl"));
  EXPECT_EQ(r.cases.size(), 3u);
  EXPECT_TRUE(r.environment.backends.empty());
}

}  // namespace
}  // namespace oprig::reports
