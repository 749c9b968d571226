// --keep-outputs [failed|all] and --keep-outputs-cap on run and validate, and
// the hidden flags that hand the same policy to each worker.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "runner/keep_policy.hpp"

namespace oprig::cli {

struct KeepFlags {
  std::string mode;       // "", "failed", "all"
  double cap_mib = 256;   // all kept files of the run together
};

void add_keep_outputs_flags(CLI::App& command, KeepFlags& flags);
// OUT/kept under the run's --out folder.
harness::KeepPolicy keep_policy(const KeepFlags& flags, const std::filesystem::path& out);

// `oprig __worker`: the policy as harness::selection_args writes it.
struct WorkerKeepFlags {
  std::string mode, dir;
  uint64_t cap_bytes = 0;
};
void add_worker_keep_flags(CLI::App& worker, WorkerKeepFlags& flags);
harness::KeepPolicy keep_policy(const WorkerKeepFlags& flags);

}  // namespace oprig::cli
