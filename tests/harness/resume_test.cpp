// A killed run loses nothing: results stream to OUT/results.jsonl, and
// --resume runs only the cases that are not in it, even when the run died in
// the middle of writing a line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_F(OprigCliTest, ResumeRunsOnlyTheCasesMissingFromATornStream) {
  const std::vector<std::string> args = {"run", "--spec", kAtanSpec.string(), "--backend", "cpu"};
  const OprigRun first = oprig(args, "out");
  ASSERT_EQ(first.process.exit_code, 0) << first.process.err;
  const size_t total = first.cases().size();
  EXPECT_EQ(total, count_cpu_cases_from_plan().cpu_cases);
  for (const nlohmann::json& c : first.cases())
    EXPECT_THAT(c.at("id").get<std::string>(), kCaseIdText);

  // Simulate a run killed while writing its 11th result.
  const auto jsonl = first.out / "results.jsonl";
  const std::vector<std::string> lines = lines_of(read_text(jsonl));
  ASSERT_EQ(lines.size(), total);
  ASSERT_GT(total, 11u);
  {
    std::ofstream torn(jsonl, std::ios::trunc | std::ios::binary);
    for (size_t i = 0; i < 10; ++i) torn << lines[i] << "\n";
    torn << lines[10].substr(0, lines[10].size() / 2);
  }
  std::filesystem::remove(first.out / "results.json");

  std::vector<std::string> resume_args = args;
  resume_args.push_back("--resume");
  const OprigRun second = oprig(resume_args, "out");
  ASSERT_EQ(second.process.exit_code, 0) << second.process.err;
  EXPECT_THAT(second.process.out, HasSubstr("ran " + std::to_string(total - 10) + " cases"));
  ASSERT_TRUE(second.results.is_object());
  std::set<std::string> ids;
  for (const nlohmann::json& c : second.cases()) {
    EXPECT_TRUE(ids.insert(c.at("id")).second) << "twice: " << c.at("id");
    EXPECT_EQ(c.at("verdict"), "PASSED") << c.at("id");
  }
  EXPECT_EQ(ids.size(), total);
  for (const nlohmann::json& c : first.cases()) EXPECT_EQ(ids.count(c.at("id")), 1u) << c.at("id");

  // The stream itself is whole again: one complete line per case.
  const std::vector<std::string> after = lines_of(read_text(jsonl));
  EXPECT_EQ(after.size(), total);
  std::set<std::string> stream_ids;
  for (const std::string& line : after) stream_ids.insert(nlohmann::json::parse(line).at("id"));
  EXPECT_EQ(stream_ids, ids);
}

}  // namespace
}  // namespace oprig_test
