// What a case's outcome (farm_record.hpp) means for its run and how reports
// name it: an expected failure does not fail the run, an unexpected pass
// fails it only under --strict-expectations, a flaky case only under
// --fail-on-flakes. The harness records that decision in the case
// (CaseOutcome::fails_run), so every report and a later merge agree with the
// run's exit code.
#pragma once

#include <string>

#include "reports/results.hpp"

namespace oprig::reports {

inline constexpr const char* kExpectedFailure = "EXPECTED_FAILURE";
inline constexpr const char* kUnexpectedPass = "UNEXPECTED_PASS";
inline constexpr const char* kFlaky = "FLAKY";

// The recorded decision, else verdict_is_failure(verdict).
bool counts_as_failure(const CaseResult& c);

// What fails the run, counted by name: the failing verdicts (FAILED, CRASH,
// ...) of cases the outcome does not excuse, then UNEXPECTED_PASS and FLAKY
// where the policy made them fail. Sets *total to the number of cases.
std::string failing_counts_text(const RunResults& results, uint64_t* total);

// The outcomes that did not fail the run: "3 EXPECTED_FAILURE, 1 FLAKY,
// 1 UNEXPECTED_PASS"; "" when none.
std::string excused_counts_text(const RunResults& results);

// Each attempt's verdict in order, "FAILED > PASSED > PASSED"; "" without re-runs.
std::string attempts_text(const CaseOutcome& outcome);

// One line for people: "FLAKY (FAILED > PASSED)", "EXPECTED_FAILURE (FAILED: reason)",
// "UNEXPECTED_PASS (expected FAILED)"; "" when the outcome adds nothing.
std::string outcome_text(const CaseResult& c);

}  // namespace oprig::reports
