// The worker side of the safety net: `oprig __worker` runs the cases of one
// op on one backend, reading case ids from stdin and writing one protocol
// line per event to file descriptor 3 (stdout and stderr stay free for
// whatever a kernel prints, and go to a log file):
//   START <case id>
//   RESULT <one-line CaseResult JSON>
// A worker that dies between START and RESULT crashed on that case.
#pragma once

#include "runner/suite.hpp"

namespace oprig::harness {

inline constexpr int kProtocolFd = 3;

// Returns the process exit code.
int run_worker(const Selection& selection, const std::string& op, const std::string& backend);

}  // namespace oprig::harness
