// `oprig merge`: the output folders of a run's shards (or of runs of one
// selection on several devices) collated into one results model.
//  - Shards: every input must have the same run identity (run_output.hpp's
//    merge_identity: packages' SHA-256, selection, inputs digest). A case in
//    two inputs must have one verdict there; a case of the selection no input
//    has a result for is MISSING (results.farm.missing, the run INCOMPLETE).
//  - Devices (`--devices`): inputs are grouped by device (device_key.hpp);
//    each group is merged as shards of one run, and the groups become the
//    columns of a device matrix: every case names its device
//    (outcome.device), results.farm.devices describes them. A case run on
//    several devices must have had the same seed everywhere (the same
//    inputs), or comparing its verdicts would mean nothing.
// Nothing about where or how the shards ran is assumed: the inputs say it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/results.hpp"

namespace oprig::harness::farm {

struct MergeRequest {
  std::vector<std::filesystem::path> inputs;
  bool devices = false;
  std::string command_line;
};

struct Merged {
  reports::RunResults results;
  nlohmann::json identity;    // run.json of the merged folder (null for a device matrix)
  nlohmann::json benchmarks;  // benchmark.json joined from bench shards (null otherwise)
  std::vector<std::string> notes;  // for the console: shards missing, inputs unfinished
};

// Throws InputError: unreadable input, identities that differ (without
// --devices), a case with two verdicts (named, with both inputs).
Merged merge_outputs(const MergeRequest& request);

}  // namespace oprig::harness::farm
