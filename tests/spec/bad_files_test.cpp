// Every file in tests/data/specs/bad/ must fail with exactly the errors its
// .expected file lists (hand-written: file:line: element: what), in order,
// and load nothing at all. Lines with "warning:" are the warnings expected
// beside the errors, in their own order.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "spec_test_util.hpp"

namespace oprig::spec {
namespace {

std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

std::vector<std::filesystem::path> bad_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(test::data_path("bad"))) {
    std::string ext = entry.path().extension().string();
    if (ext == ".xml" || ext == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class BadSpec : public testing::TestWithParam<std::filesystem::path> {};

TEST_P(BadSpec, ReportsEveryErrorAndLoadsNothing) {
  const std::filesystem::path& file = GetParam();
  std::filesystem::path expected_file = file;
  expected_file += ".expected";
  ASSERT_TRUE(std::filesystem::exists(expected_file)) << expected_file;
  LoadResult result = load_spec_file(file);
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(result.packages.empty()) << "all-or-nothing: a file with errors loads no package";
  std::vector<std::string> errors, warnings, expected_errors, expected_warnings;
  for (SpecError e : result.errors) {
    e.file = std::filesystem::path(e.file).filename().string();
    errors.push_back(e.to_string());
  }
  for (SpecError w : result.warnings) {
    w.file = std::filesystem::path(w.file).filename().string();
    warnings.push_back(w.to_string());
  }
  for (const std::string& line : read_lines(expected_file))
    (line.find(": warning: ") != std::string::npos ? expected_warnings : expected_errors).push_back(line);
  EXPECT_EQ(errors, expected_errors);
  EXPECT_EQ(warnings, expected_warnings);
}

std::string test_name(const testing::TestParamInfo<std::filesystem::path>& info) {
  std::string name = info.param.filename().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, BadSpec, testing::ValuesIn(bad_files()), test_name);

TEST(AllOrNothing, OneBadOpSinksTheGoodOneBeside) {
  // bad_values.xml holds a valid op "Good" before the broken one.
  LoadResult result = load_spec_file(test::data_path("bad/bad_values.xml"));
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(result.packages.empty());
  // bad_fields.json holds a valid UdoPackage_0 before the broken UdoPackage_1.
  LoadResult json = load_spec_file(test::data_path("bad/bad_fields.json"));
  EXPECT_FALSE(json.ok());
  EXPECT_TRUE(json.packages.empty());
}

}  // namespace
}  // namespace oprig::spec
