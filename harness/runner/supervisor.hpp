// The parent side of the safety net: runs each (op, backend) group of cases
// in a worker process, turns a dead worker into CRASH and a stuck one into
// TIMEOUT for the case it was on, restarts a worker for the rest, and streams
// every result to results.jsonl as it arrives.
#pragma once

#include <filesystem>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "reports/results.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {

// The cases of one op (or model suite) on one backend, as result records
// before they run (ids, params, repro lines), in run order.
struct CaseGroup {
  std::string op;
  std::string backend;
  std::vector<reports::CaseResult> cases;
};

struct SupervisorOptions {
  int jobs = 1;
  double case_timeout_s = 60;
  std::filesystem::path jsonl;     // results stream (appended)
  std::filesystem::path log_dir;   // worker stdout/stderr
  // Cases that ended badly before this invocation (--resume): never lifecycle
  // companions (worker.hpp's NOT_PASSED lines); this run's own are added as they come.
  std::set<std::string> not_passed;
};

// Called after each finished case, in the order results arrive.
using ResultSink = std::function<void(const reports::CaseResult&)>;

// results.jsonl could not be written (disk full, ...): the run stops at the
// first failed write, its workers killed, so no result is computed only to be
// lost.
class ResultsStreamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs all groups; returns the results of this invocation. SIGINT and SIGTERM
// stop the run: the workers (in process groups of their own, so a terminal's
// Ctrl-C reaches only oprig) are killed, the case each was on is not
// recorded (it was stopped, not crashed), and *stopped_by_signal is set to
// the signal. Throws ResultsStreamError.
std::vector<reports::CaseResult> run_groups(const Selection& selection,
                                            const std::vector<CaseGroup>& groups,
                                            const SupervisorOptions& options, const ResultSink& sink,
                                            int* stopped_by_signal = nullptr);

}  // namespace oprig::harness
