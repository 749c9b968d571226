#include "farm/shard.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "runner/suite.hpp"

namespace oprig::harness::farm {
namespace {

constexpr long kMaxShards = 100000;

// A whole decimal number, or nullopt.
std::optional<long> whole_number(const std::string& text) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stol(text);
}

long number_of(const Environment& env, const char* name) {
  const char* value = env(name);
  const std::optional<long> n = whole_number(value ? value : "");
  if (!n) throw InputError(std::string(name) + "='" + (value ? value : "") + "' is not a whole number");
  return *n;
}

std::string shown(const Environment& env, const char* name) {
  const char* value = env(name);
  return std::string(name) + "=" + (value ? value : "");
}

ShardSpec checked(long index_from_1, long count, std::string source) {
  if (count < 1 || count > kMaxShards)
    throw InputError(source + ": the shard count must be 1.." + std::to_string(kMaxShards));
  if (index_from_1 < 1 || index_from_1 > count)
    throw InputError(source + ": shard " + std::to_string(index_from_1) + " is outside 1.." + std::to_string(count));
  return {static_cast<int>(index_from_1), static_cast<int>(count), std::move(source)};
}

// Bazel asks a test to touch this file to say it understood the shard
// variables (otherwise it runs every shard's test whole and warns).
void touch_status_file(const Environment& env) {
  const char* path = env("TEST_SHARD_STATUS_FILE");
  if (path == nullptr || *path == '\0') return;
  const int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(std::string("cannot touch TEST_SHARD_STATUS_FILE=") + path + ": " + std::strerror(errno));
  close(fd);
}

std::optional<ShardSpec> from_slurm(const Environment& env) {
  if (env("SLURM_ARRAY_TASK_ID") == nullptr) return std::nullopt;
  const long id = number_of(env, "SLURM_ARRAY_TASK_ID");
  const long count = number_of(env, "SLURM_ARRAY_TASK_COUNT");
  const long min = env("SLURM_ARRAY_TASK_MIN") ? number_of(env, "SLURM_ARRAY_TASK_MIN") : 0;
  const long step = env("SLURM_ARRAY_TASK_STEP") ? number_of(env, "SLURM_ARRAY_TASK_STEP") : 1;
  std::string source = shown(env, "SLURM_ARRAY_TASK_ID") + ", " + shown(env, "SLURM_ARRAY_TASK_COUNT") +
                       (env("SLURM_ARRAY_TASK_MIN") ? ", " + shown(env, "SLURM_ARRAY_TASK_MIN") : "") +
                       (env("SLURM_ARRAY_TASK_STEP") ? ", " + shown(env, "SLURM_ARRAY_TASK_STEP") : "");
  // The ids of one array must be a range (--array=1-3, 0-2, 0-10:2): a list
  // like 1,5,9 numbers its tasks with gaps no shard could fill.
  if (step < 1 || id < min || (id - min) % step != 0 || (id - min) / step >= count)
    throw InputError(source + ": the array's task ids are not a range of SLURM_ARRAY_TASK_COUNT ids (submit it as "
                              "--array=1-N or 0-(N-1), a step allowed), or give --shard K/N");
  return checked((id - min) / step + 1, count, std::move(source));
}

std::optional<ShardSpec> from_zero_based(const Environment& env, const char* index_name, const char* count_name) {
  if (env(index_name) == nullptr && env(count_name) == nullptr) return std::nullopt;
  if (env(index_name) == nullptr || env(count_name) == nullptr)
    throw InputError(shown(env, index_name) + " and " + shown(env, count_name) + ": set both or neither");
  return checked(number_of(env, index_name) + 1, number_of(env, count_name),
                 shown(env, index_name) + ", " + shown(env, count_name));
}

}  // namespace

ShardSpec parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  const std::optional<long> k = whole_number(text.substr(0, slash));
  const std::optional<long> n = slash == std::string::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!k || !n) throw InputError("--shard '" + text + "': expected K/N, e.g. 2/3 (K from 1)");
  return checked(*k, *n, "--shard " + text);
}

std::optional<ShardSpec> resolve_shard(const std::string& flag, int count_given, const Environment& env) {
  if (!flag.empty()) return parse_shard(flag);
  if (auto slurm = from_slurm(env)) return slurm;
  if (env("JOB_COMPLETION_INDEX") != nullptr) {
    if (count_given < 1)
      throw InputError(shown(env, "JOB_COMPLETION_INDEX") + " (a Kubernetes Indexed Job) needs the Job's completion "
                       "count: give --shard-count N (its .spec.completions), or --shard K/N");
    return checked(number_of(env, "JOB_COMPLETION_INDEX") + 1, count_given,
                   shown(env, "JOB_COMPLETION_INDEX") + ", --shard-count " + std::to_string(count_given));
  }
  if (env("CI_NODE_INDEX") != nullptr) {
    // GitLab sets CI_NODE_TOTAL=1 on every job; CI_NODE_INDEX only under `parallel:`.
    return checked(number_of(env, "CI_NODE_INDEX"), number_of(env, "CI_NODE_TOTAL"),
                   shown(env, "CI_NODE_INDEX") + ", " + shown(env, "CI_NODE_TOTAL"));
  }
  for (const auto& [index_name, count_name] : {std::pair{"GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS"},
                                               std::pair{"TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS"}}) {
    if (auto spec = from_zero_based(env, index_name, count_name)) {
      touch_status_file(env);
      return spec;
    }
  }
  return std::nullopt;
}

Environment process_environment() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

}  // namespace oprig::harness::farm
