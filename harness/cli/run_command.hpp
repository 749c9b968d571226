#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "farm/run_farm.hpp"
#include "runner/suite.hpp"

namespace oprig::cli {

struct RunOptions {
  std::string out = "oprig-out";
  bool resume = false;
  int jobs = 1;
  double case_timeout_s = 60;
  harness::farm::FarmOptions farm;  // shard, expectations, flake re-runs
};

// `oprig run` and the hidden `oprig __worker` it starts.
void add_run_command(CLI::App& root, int* exit_code);

// The conformance run behind `oprig run` and `oprig validate`: every case of
// the selection through worker processes, results streamed and reported.
// Returns the exit code. `explicit_backends`: the user named the backends, so
// one that is unavailable means nothing was tested of what was asked.
int run_conformance(const harness::Selection& selection, const RunOptions& options, bool explicit_backends,
                    const std::string& command_line);

}  // namespace oprig::cli
