// The worker side of the safety net: `oprig __worker` runs the cases of one
// op on one backend, reading case ids from stdin (one per line, plus
// "NOT_PASSED <id>" lines naming cases of the group that ended badly in an
// earlier worker) and writing one protocol line per event to file
// descriptor 3 (stdout and stderr stay free for whatever a kernel prints, and
// go to a log file):
//   START <case id>
//   PHASE <what runs now>
//   RESULT <one-line CaseResult JSON>
// A worker that dies between START and RESULT crashed on that case. It runs
// the cases in LifecyclePlan::run_order (anchors last); the supervisor hands
// them in that order.
#pragma once

#include "runner/suite.hpp"

namespace oprig::harness {

inline constexpr int kProtocolFd = 3;
inline constexpr const char* kNotPassedPrefix = "NOT_PASSED ";

// Returns the process exit code.
int run_worker(const Selection& selection, const std::string& op, const std::string& backend);

}  // namespace oprig::harness
