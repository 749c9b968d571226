// What a run at farm scale adds to the results model (harness/farm/): the
// shard a run was, the outcome of a case against an expectations file and its
// flake re-runs, and, for `oprig merge`, the inputs merged, the devices of a
// device matrix and the planned cases no input ran. Every field is empty in a
// plain run, and results.json carries it only when set.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "oprig/verdict.hpp"

namespace oprig::reports {

// How a case's verdict stands against the expectations and its re-runs. The
// verdict itself stays the kernel's (the first attempt's); this says what it
// means for the run.
struct CaseOutcome {
  // "" (nothing to add), EXPECTED_FAILURE (a failing verdict the expectations
  // name), UNEXPECTED_PASS (an expected failure, or another expected verdict,
  // that now passes), FLAKY (the verdict changed between attempts, or an
  // expectation says FLAKY).
  std::string status;
  std::string expected;         // the verdict an expectations file gives the case ("SKIP": not run); "" none
  std::string expected_reason;  // that line's reason
  std::string expected_from;    // FILE:LINE of the line
  std::vector<Verdict> attempts;  // each run of the case, the first one first, when it was re-run
  // Whether the case fails the run, decided with the run's policy
  // (--strict-expectations, --fail-on-flakes); unset: verdict_is_failure(verdict).
  std::optional<bool> fails_run;
  std::string device;  // oprig merge --devices: the DeviceRecord id of the run it came from
  bool empty() const { return status.empty() && expected.empty() && attempts.empty() && !fails_run && device.empty(); }
  bool operator==(const CaseOutcome&) const = default;
};

// The part of the selection a sharded run ran (oprig run|bench --shard K/N).
struct ShardRecord {
  int index = 0;  // K, from 1
  int count = 0;  // N
  std::string source;  // "--shard", or the variables it came from, e.g. "SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=3"
  uint64_t selected_cases = 0;  // cases of the whole selection
  bool operator==(const ShardRecord&) const = default;
};

// One output folder `oprig merge` read.
struct MergeInput {
  std::string path;
  std::string device;   // DeviceRecord id (device merges)
  std::string shard;    // "2/3", or "" for an unsharded run
  std::string hostname, started_at, finished_at;
  uint64_t planned = 0, results = 0;  // cases the input planned, and those it has a result for
  bool complete = true;  // false: the run did not finish (a killed shard: results.jsonl only)
  bool operator==(const MergeInput&) const = default;
};

// A device of a device matrix: the environment of its runs.
struct DeviceRecord {
  std::string id;     // "d1", "d2", ... as cases name it
  std::string label;  // what sets it apart from the other devices (backend devices, drivers, host)
  std::vector<std::string> description;  // every line that describes it: host, CPU, each backend's device and driver
  bool operator==(const DeviceRecord&) const = default;
};

struct FarmRecord {
  std::optional<ShardRecord> shard;
  std::vector<std::string> expectations;  // the expectations files the run applied
  int flake_reruns = 0;                   // re-runs allowed per unexpected failure
  bool strict_expectations = false, fail_on_flakes = false;
  std::vector<MergeInput> inputs;     // oprig merge
  std::vector<DeviceRecord> devices;  // oprig merge --devices: one per device
  std::vector<std::string> missing;   // oprig merge: planned cases no input has a result for (MISSING)
  bool empty() const {
    return !shard && expectations.empty() && flake_reruns == 0 && !strict_expectations && !fail_on_flakes &&
           inputs.empty() && devices.empty() && missing.empty();
  }
  bool operator==(const FarmRecord&) const = default;
};

}  // namespace oprig::reports
