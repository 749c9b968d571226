// Shared by the end-to-end tests: runs the real `oprig` binary in a fresh
// temporary folder and reads what it wrote, with nothing from the harness's
// own code (results.json is parsed as plain JSON).
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "subprocess.hpp"

namespace oprig_test {

inline const std::filesystem::path kSourceDir = OPRIG_SOURCE_DIR;
inline const std::filesystem::path kAtanSpec = kSourceDir / "opsuite" / "atan" / "atan.xml";
inline const std::filesystem::path kAtanPlan = kSourceDir / "opsuite" / "atan" / "plan.json";
// Case ids are lower-case words joined by underscores, so they survive shells and file names.
// gtest's POSIX regex rather than std::regex: GCC 12's <regex> trips -Wmaybe-uninitialized under ASan.
inline const auto kCaseIdText = ::testing::MatchesRegex("[a-z0-9_]+");

struct OprigRun {
  ProcessResult process;
  std::filesystem::path out;  // the --out folder (may be empty for commands without one)
  nlohmann::json results;     // OUT/results.json, null when absent

  const nlohmann::json& cases() const { return results.at("cases"); }
  // The case with this id; fails the test (and returns null) when absent.
  const nlohmann::json& case_by_id(const std::string& id) const;
};

class OprigCliTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;  // removes the temp folder unless the test failed

  // A fresh sub-folder of this test's temp folder.
  std::filesystem::path fresh_dir(const std::string& name);
  // Runs `oprig <args...>`; when `out_name` is not empty adds `--out <fresh dir>` and reads results.json.
  OprigRun oprig(std::vector<std::string> args, const std::string& out_name,
                 const std::map<std::string, std::string>& env = {}, double limit_s = 120);
  // Runs a repro line as printed (it starts with "oprig") through /bin/sh,
  // with `oprig` replaced by the built binary and --out added.
  OprigRun repro(const std::string& line, const std::string& out_name,
                 const std::map<std::string, std::string>& env = {}, double limit_s = 120);

  std::filesystem::path root_;

 private:
  OprigRun finish(ProcessResult process, const std::filesystem::path& out);
  int runs_ = 0;
};

// Number of elements of a case's "shape" (1 for a scalar).
int64_t element_count(const nlohmann::json& c);

// Counts derived by hand from plan.json, independently of the harness's case
// generator: Atan on cpu runs FLOAT_32 and FLOAT_16 (atan.xml's CPU list),
// each uniform fill on each plan shape and each edge fill on one
// tensor of its value list, each in 1 + random_count parameter variants;
// plus the golden literals of those dtypes.
struct PlanCounts {
  size_t cpu_cases = 0;
  size_t cpu_cases_with_7_elements = 0;
};
PlanCounts count_cpu_cases_from_plan();

// "signal 11" under ASan only when ASan leaves SIGSEGV alone.
std::map<std::string, std::string> let_signals_through();

}  // namespace oprig_test
