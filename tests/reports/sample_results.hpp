// Hand-built results shared by the format tests: every count a test expects
// is stated here, next to the cases that produce it.
#pragma once

#include <filesystem>
#include <string>

#include "reports/results.hpp"

namespace oprig::reports::testing {

// 6 cases: cpu {PASSED, PASSED (with perf), FAILED}, opencl {SKIPPED,
// UNIMPLEMENTED, CRASH}. Failing verdicts: 2. Skipped (SKIPPED+UNIMPLEMENTED): 2.
// The FAILED case carries kHostileText in its message, repro and params.
RunResults make_sample_results();

inline constexpr const char* kHostileText = "<script>alert(1)</script> & \"double\" 'single'";

// A fresh empty directory under the test temp dir, removed by the caller.
std::filesystem::path make_temp_dir(const std::string& tag);

// Path of a file in tests/data/reports/.
std::filesystem::path data_file(const std::string& name);

std::string read_file(const std::filesystem::path& path);

}  // namespace oprig::reports::testing
