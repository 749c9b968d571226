// Verdict counting: the summary table printed at the end of every command and
// the exit code derived from the verdicts.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "oprig/verdict.hpp"
#include "reports/results.hpp"

namespace oprig::reports {

struct VerdictCounts {
  std::string backend;
  std::array<uint64_t, kAllVerdicts.size()> by_verdict{};

  uint64_t operator[](Verdict v) const { return by_verdict[static_cast<size_t>(v)]; }
  uint64_t& operator[](Verdict v) { return by_verdict[static_cast<size_t>(v)]; }
  uint64_t total() const;
  uint64_t failures() const;  // cases whose verdict fails a run
};

// One entry per backend that has cases: in the order the environment lists the
// backends, then any others in order of first appearance.
std::vector<VerdictCounts> count_verdicts_by_backend(const RunResults& results);

// Counts over every case of the run (backend left empty).
VerdictCounts count_verdicts(const RunResults& results);

// Rank of a verdict by how much attention it needs: PASSED lowest, the failing
// verdicts highest. Used to colour a group by its worst case.
int verdict_severity(Verdict v);

// Fixed-width text table: one row per backend (plus "all" when there are
// several), one column per verdict that occurs anywhere in the run, then total.
std::string summary_table(const RunResults& results);

// kExitFailure when some case fails the run (a failing verdict, unless its
// outcome excuses it: outcome.hpp); else kExitNothingTested when no case was
// judged (every case SKIPPED or UNIMPLEMENTED, or none); else kExitOk.
int exit_code_for(const RunResults& results);

}  // namespace oprig::reports
