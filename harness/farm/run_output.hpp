// One output folder of `oprig run` or `oprig bench` as `oprig merge` reads
// it: run.json (what the run was: run_identity.hpp plus run_farm.hpp's keys)
// and its results: results.json when the run finished, else the
// results.jsonl stream of a run that was killed or is still going. A
// results.json older than run.json (an earlier run in the same folder) is
// never taken for the later run's results.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/results.hpp"

namespace oprig::harness::farm {

struct RunOutput {
  std::filesystem::path dir;
  nlohmann::json identity;  // run.json; null when the folder has none
  reports::RunResults results;
  bool finished = false;    // results.json of this very run
  std::vector<std::string> planned;   // the cases this run (shard) planned
  std::vector<std::string> selected;  // the cases of the whole selection (every shard's)
  std::string kind;                   // "run" or "bench"
  std::string shard;                  // "2/3", "" unsharded
  int shard_index = 0, shard_count = 0;
};

// `path` is an output folder or a results.json in one. Throws InputError
// naming the path when nothing readable is there.
RunOutput read_run_output(const std::filesystem::path& path);

// What must agree between shards of one run: the packages' SHA-256, the
// selected cases, the digest of their ids and seeds, and the options that
// change verdicts (strict, reference backend, golden only); never paths,
// which differ between machines.
nlohmann::json merge_identity(const RunOutput& output);

// Lines naming how two merge identities differ, for people.
std::vector<std::string> merge_identity_differences(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace oprig::harness::farm
