// The farm flags of `oprig run` and `oprig bench` (harness/farm/): the shard,
// and for run the expectations files and flake re-runs.
#pragma once

#include <CLI/CLI.hpp>

#include "farm/run_farm.hpp"

namespace oprig::cli {

// --shard K/N, --shard-count N; the job engines' variables decide without --shard.
void add_shard_flags(CLI::App& command, harness::farm::FarmOptions& options);
// --expectations FILE, --strict-expectations, --flake-reruns N, --fail-on-flakes.
void add_outcome_flags(CLI::App& command, harness::farm::FarmOptions& options);

}  // namespace oprig::cli
