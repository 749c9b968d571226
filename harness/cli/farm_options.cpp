#include "cli/farm_options.hpp"

namespace oprig::cli {

void add_shard_flags(CLI::App& command, harness::farm::FarmOptions& options) {
  options.shard_from_environment = true;
  command.add_option("--shard", options.shard,
                     "Run shard K of N (K from 1): a deterministic 1/N of the selected cases, cut by their expected "
                     "cost (sizes\nfrom the plans), each lifecycle anchor with its companions; `oprig merge` joins "
                     "the shards' folders.\nWithout it, the first of these that is set decides: "
                     "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT,\nJOB_COMPLETION_INDEX (with --shard-count), "
                     "CI_NODE_INDEX/CI_NODE_TOTAL, GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS,\n"
                     "TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (touching TEST_SHARD_STATUS_FILE); --shard 1/1 runs "
                     "everything")
      ->type_name("K/N");
  command.add_option("--shard-count", options.shard_count,
                     "How many tasks a Kubernetes Indexed Job has (its .spec.completions): the count that "
                     "JOB_COMPLETION_INDEX\nis an index of, which Kubernetes does not put in the environment")
      ->check(CLI::Range(1, 100000));
}

void add_outcome_flags(CLI::App& command, harness::farm::FarmOptions& options) {
  command.add_option("--expectations", options.expectation_files,
                     "Expected results, one CASE_ID_GLOB,VERDICT[,reason] per line (# comments; VERDICT a verdict, "
                     "FLAKY or SKIP);\nrepeatable, the last matching line decides. A run whose every result is "
                     "as expected exits 0; an\nexpected failure that passes is UNEXPECTED_PASS. `oprig expectations "
                     "update` writes the file from a run")
      ->check(CLI::ExistingFile);
  command.add_flag("--strict-expectations", options.strict_expectations,
                   "An UNEXPECTED_PASS fails the run (exit 1), so the expectations file is kept up to date");
  command.add_option("--flake-reruns", options.flake_reruns,
                     "Re-run a case that fails unexpectedly (FAILED, CRASH, TIMEOUT) up to N times, each in a fresh "
                     "worker on the\nsame inputs; one whose verdict changes is FLAKY (listed in OUT/flakes.txt) and "
                     "does not fail the run")
      ->check(CLI::Range(0, 20))
      ->capture_default_str();
  command.add_flag("--fail-on-flakes", options.fail_on_flakes, "A FLAKY case fails the run (exit 1)");
}

}  // namespace oprig::cli
