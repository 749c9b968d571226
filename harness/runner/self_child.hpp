// This executable run again as a throwaway child (/proc/self/exe, a hidden
// `oprig __…` command) whose output the parent reads through pipes, for work
// that runs a vendor's code that may crash or hang: package_probe.cpp loads
// a package in one (`__load-package`), node_judges.cpp derives a test plan in
// one (`__derive-plan`). The child's death then takes no more than itself.
// The worker processes are spawned otherwise (supervisor.cpp: their own
// process group, a log file, a protocol pipe), but name a signal as here.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace oprig::harness {

enum class ChildStderr {
  kWithStdout,  // one pipe: stdout and stderr interleaved as written, in `out`
  kApart,       // two pipes: stdout in `out`, stderr in `err`
};

struct SelfChild {
  std::string out, err;
  bool timed_out = false;  // still running at the deadline: killed with SIGKILL
  int status = 0;          // as waitpid() gives it

  // Exited, with code 0, before the deadline.
  bool succeeded() const;
};

// Runs this executable with `args` (args[0] the name it is given), reads its
// output until it closes both pipes, and waits for it; at `timeout` it is
// killed. Throws std::runtime_error when no pipe or process can be made:
// "cannot start a process to <purpose>: <why>".
SelfChild run_self_child(std::vector<std::string> args, ChildStderr stderr_mode, std::chrono::milliseconds timeout,
                         const std::string& purpose);

// "signal 11 (Segmentation fault)".
std::string signal_text(int sig);

// The end of a child's output: enough to show the vendor's own message, not
// a flood.
std::string output_tail(const std::string& text, size_t limit = 2000);

}  // namespace oprig::harness
