// Which shard of a selection this process runs: `--shard K/N`, or else the
// variables the job engines people use set for each task of a parallel job.
// oprig only reads them; the engine decides what runs where.
//   --shard K/N                                   K from 1 (GitLab's and deqp-runner's count)
//   SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT  sbatch --array=A-B[:S]: (ID - MIN) / STEP from 0
//   JOB_COMPLETION_INDEX                          Kubernetes Indexed Job, from 0; the count is not in the
//                                                 environment: --shard-count N (.spec.completions)
//   CI_NODE_INDEX / CI_NODE_TOTAL                 GitLab `parallel:`, from 1
//   GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS        GoogleTest, from 0
//   TEST_SHARD_INDEX / TEST_TOTAL_SHARDS          Bazel, from 0; oprig touches TEST_SHARD_STATUS_FILE to say
//                                                 it shards (as a GoogleTest binary does)
// The first of these that is set decides, in this order; the run says which.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace oprig::harness::farm {

struct ShardSpec {
  int index = 1;  // K, from 1
  int count = 1;  // N
  std::string source;  // "--shard 2/3", or the variables with their values
  bool operator==(const ShardSpec&) const = default;
};

// A variable's value, or null when unset (std::getenv in the real run).
using Environment = std::function<const char*(const char*)>;

// "K/N" with 1 <= K <= N <= 100000; throws InputError naming what is wrong.
ShardSpec parse_shard(const std::string& text);

// The shard --shard gives, else the one the environment gives, else nullopt.
// `count_given` is --shard-count (0: not given), the count of an indexed job
// whose engine does not export it. Throws InputError for a variable that is
// not a number, an index outside its count, or JOB_COMPLETION_INDEX without
// --shard-count. Touches $TEST_SHARD_STATUS_FILE when the Bazel or GoogleTest
// variables decide.
std::optional<ShardSpec> resolve_shard(const std::string& flag, int count_given, const Environment& env);

// The real environment.
Environment process_environment();

// Every variable resolve_shard reads (tests clear them around a run).
inline constexpr const char* kShardVariables[] = {
    "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX", "CI_NODE_INDEX", "CI_NODE_TOTAL", "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS",
    "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", "TEST_SHARD_STATUS_FILE"};

}  // namespace oprig::harness::farm
