// The parent side of the safety net: runs each (op, backend) group of cases
// in a worker process, turns a dead worker into CRASH and a stuck one into
// TIMEOUT for the case it was on, restarts a worker for the rest, and streams
// every result to results.jsonl as it arrives.
#pragma once

#include <filesystem>
#include <functional>
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
};

// Called after each finished case, in the order results arrive.
using ResultSink = std::function<void(const reports::CaseResult&)>;

// Runs all groups; returns the results of this invocation.
std::vector<reports::CaseResult> run_groups(const Selection& selection,
                                            const std::vector<CaseGroup>& groups,
                                            const SupervisorOptions& options, const ResultSink& sink);

}  // namespace oprig::harness
