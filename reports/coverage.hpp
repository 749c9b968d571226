// What a run tested and what it did not, and why. A green run is green only
// for what ran: the banner of report.html and the console summary of `oprig
// run` / `validate` both start from headline(), which never counts an
// UNIMPLEMENTED or SKIPPED case as passed, and list the cases that were not
// tested by backend (coverage_by_backend) or by op x backend x type
// (not_tested_text) with their reasons.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oprig/verdict.hpp"
#include "reports/results.hpp"

namespace oprig::reports {

// "PASSED: 4751 of 9810 cases passed, none failed; 5059 not tested (5059
// UNIMPLEMENTED)", "FAILED: ...", "NOTHING TESTED: ...": what the exit code
// means, said with the counts behind it.
std::string headline(const RunResults& results);

struct ReasonCount {
  Verdict verdict = Verdict::kSkipped;
  std::string reason;  // the case message ("" when a case gave none)
  uint64_t count = 0;
  std::vector<std::string> ops;  // the ops of those cases, as first seen
};

struct BackendCoverage {
  std::string backend;
  uint64_t passed = 0;      // PASSED
  uint64_t noted = 0;       // QUALITY_WARNING and MISTRUSTED: ran, did not fail, need a look
  uint64_t failing = 0;     // FAILED, CRASH, TIMEOUT, INVALID_SPEC
  uint64_t not_tested = 0;  // UNIMPLEMENTED and SKIPPED
  std::vector<ReasonCount> reasons;  // why not tested, most cases first
};

// One entry per backend with cases, in the order of count_verdicts_by_backend.
std::vector<BackendCoverage> coverage_by_backend(const RunResults& results);

// The cases that were not tested, one line per op x backend x data type x
// verdict with the count and the reason(s):
//   UNIMPLEMENTED   Softmax on opencl, FLOAT_16: 40 cases: OprigOpsuite registers no opencl kernel for Softmax
// under a heading; empty when every case was tested.
std::string not_tested_text(const RunResults& results);

}  // namespace oprig::reports
