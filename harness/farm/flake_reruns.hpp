// Flake detection: a case that fails unexpectedly runs again, up to N more
// times, each time in a fresh worker process on the same inputs (its seed
// comes from its id), until its verdict changes or the re-runs are spent. A
// case whose verdict changed is FLAKY (expectations.hpp judges it); one that
// failed the same way every time is a plain failure, confirmed. Each
// attempt's verdict lands in the case's outcome.attempts, and every re-run's
// record is streamed to OUT/reruns.jsonl.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "reports/results.hpp"
#include "runner/supervisor.hpp"

namespace oprig::harness::farm {

struct RerunRequest {
  const Selection* selection = nullptr;
  const std::vector<CaseGroup>* groups = nullptr;  // every planned case, in run order (ids and records)
  SupervisorOptions supervisor;  // jobs and timeout of the run; jsonl and log folder are set here
  std::filesystem::path out;     // the run's --out
  int reruns = 0;
};

// Re-runs the cases of `results` for which `wanted` says so and appends
// each attempt to their outcome.attempts (the first attempt included).
// Returns how many cases were re-run. A SIGINT/SIGTERM stops the re-runs and
// sets *stopped_by_signal.
size_t rerun_failures(std::map<std::string, reports::CaseResult>& results, const RerunRequest& request,
                      const std::function<bool(const reports::CaseResult&)>& wanted, int* stopped_by_signal);

}  // namespace oprig::harness::farm
