// What `oprig run` does at farm scale, around the plain run of
// cli/run_command.cpp: before the workers start, it cuts the selection to
// this shard (shard.hpp, shard_plan.hpp) and takes out the cases an
// expectations file skips; it writes into run.json what `oprig merge` needs
// (the shard, the whole selection, a digest of every selected case's id and
// seed, the environment); after the first attempts it re-runs unexpected
// failures (flake_reruns.hpp) and judges every case against the expectations
// (expectations.hpp).
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "farm/expectations.hpp"
#include "farm/flake_reruns.hpp"
#include "farm/shard.hpp"
#include "reports/results.hpp"
#include "runner/supervisor.hpp"

namespace oprig::harness::farm {

inline constexpr int kDefaultFlakeReruns = 2;

struct FarmOptions {
  std::string shard;    // --shard K/N
  int shard_count = 0;  // --shard-count N (JOB_COMPLETION_INDEX)
  // Whether the job engines' variables may pick the shard (run and bench;
  // validate never shards).
  bool shard_from_environment = false;
  std::vector<std::string> expectation_files;
  bool strict_expectations = false;
  int flake_reruns = kDefaultFlakeReruns;
  bool fail_on_flakes = false;
};

// run.json keys beyond runner/run_identity.hpp's: never compared by --resume
// (they follow from the rest), read by `oprig merge`.
inline constexpr const char* kSelectedCasesKey = "selected_cases";
inline constexpr const char* kInputsDigestKey = "inputs_digest";
inline constexpr const char* kEnvironmentKey = "environment";
inline constexpr const char* kShardKey = "shard";

// FNV-1a 64 over each case's id and seed, in order: two runs with one
// digest ran the same cases on the same inputs.
std::string inputs_digest(const std::vector<std::pair<std::string, uint64_t>>& ids_and_seeds);

// Adds those keys to a run.json identity (run and bench): `selected` is
// every case of the selection, unsharded, with its seed; the shard and the
// selected ids only when sharded.
void annotate_identity(nlohmann::json& identity, const std::optional<ShardSpec>& shard,
                       const std::vector<std::pair<std::string, uint64_t>>& selected,
                       const reports::Environment& environment);

class RunFarm {
 public:
  // Resolves the shard and reads the expectations files; throws InputError.
  RunFarm(const FarmOptions& options, const Environment& environment);

  const std::optional<ShardSpec>& shard() const { return shard_; }

  // Cuts `groups` to this shard, takes out the cases the expectations SKIP
  // (they are recorded as SKIPPED), and makes `order` the cases this run
  // plans. `anchor_of`: lifecycle companion id -> its anchor's id. Says on
  // `log` which shard this is and where that came from.
  void plan(std::vector<CaseGroup>& groups, std::vector<std::string>& order,
            const std::map<std::string, std::string>& anchor_of, std::ostream& log);

  // The run.json keys above; `shard` only for a sharded run.
  void annotate_identity(nlohmann::json& identity, const reports::Environment& environment) const;

  // After the first attempts: re-runs unexpected failures, adds the skipped
  // cases, judges every case. `rerun` carries the run's selection and
  // supervisor options; `stopped_by_signal` as in run_groups.
  void settle(std::map<std::string, reports::CaseResult>& results, RerunRequest rerun, int* stopped_by_signal) const;

  // results.farm: shard, expectations files, policy.
  void describe(reports::RunResults& results) const;

  // For the console after the summary table: expected failures, unexpected
  // passes, flaky cases (written to OUT/flakes.txt in the expectations format).
  std::string summary(const reports::RunResults& results, const std::filesystem::path& out) const;

 private:
  FarmOptions options_;
  std::optional<ShardSpec> shard_;
  Expectations expectations_;
  std::vector<std::pair<std::string, uint64_t>> selected_;  // every case of the selection, unsharded, with its seed
  std::vector<CaseGroup> planned_;     // this run's cases, for re-runs (before --resume drops any)
  std::vector<reports::CaseResult> skipped_;  // SKIP by the expectations
};

}  // namespace oprig::harness::farm
