// Which shard a run is (farm/shard.hpp) and how the selection is cut
// (farm/shard_plan.hpp). Expected shards and parts are derived by hand from
// each engine's documented numbering (Slurm from SLURM_ARRAY_TASK_MIN in
// steps, Kubernetes/GoogleTest/Bazel from 0, GitLab from 1).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <string>

#include "farm/shard.hpp"
#include "farm/shard_plan.hpp"
#include "runner/suite.hpp"

namespace oprig::harness::farm {
namespace {

using Variables = std::map<std::string, std::string>;

Environment env_of(const Variables& variables) {
  return [variables](const char* name) -> const char* {
    const auto it = variables.find(name);
    return it == variables.end() ? nullptr : it->second.c_str();
  };
}

std::pair<int, int> resolved(const Variables& variables, const std::string& flag = "", int count = 0) {
  const std::optional<ShardSpec> s = resolve_shard(flag, count, env_of(variables));
  if (!s) return {0, 0};
  return {s->index, s->count};
}

TEST(ParseShard, AcceptsKOfNFromOne) {
  EXPECT_EQ(parse_shard("2/3").index, 2);
  EXPECT_EQ(parse_shard("2/3").count, 3);
  EXPECT_EQ(parse_shard("1/1").count, 1);
  for (const char* bad : {"0/3", "4/3", "3", "a/3", "2/", "/3", "2/3/4", "-1/3", "1/0"})
    EXPECT_THROW(parse_shard(bad), InputError) << bad;
}

TEST(ResolveShard, NothingSetIsNoShard) { EXPECT_EQ(resolved({}), std::make_pair(0, 0)); }

TEST(ResolveShard, TheFlagWinsOverTheEnvironment) {
  EXPECT_EQ(resolved({{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "4"}}, "3/5"), std::make_pair(3, 5));
}

TEST(ResolveShard, SlurmCountsFromTheArraysMinimumInSteps) {
  // sbatch --array=1-3: ids 1..3, MIN 1.
  EXPECT_EQ(resolved({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}}),
            std::make_pair(1, 3));
  // sbatch --array=0-2: ids 0..2.
  EXPECT_EQ(resolved({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MIN", "0"}}),
            std::make_pair(3, 3));
  // sbatch --array=10-14:2: ids 10, 12, 14; 12 is the second.
  EXPECT_EQ(resolved({{"SLURM_ARRAY_TASK_ID", "12"},
                      {"SLURM_ARRAY_TASK_COUNT", "3"},
                      {"SLURM_ARRAY_TASK_MIN", "10"},
                      {"SLURM_ARRAY_TASK_STEP", "2"}}),
            std::make_pair(2, 3));
}

TEST(ResolveShard, SaysWhichVariablesItUsed) {
  const auto s = resolve_shard(
      "", 0, env_of({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}}));
  ASSERT_TRUE(s);
  EXPECT_NE(s->source.find("SLURM_ARRAY_TASK_ID=2"), std::string::npos) << s->source;
  EXPECT_NE(s->source.find("SLURM_ARRAY_TASK_COUNT=3"), std::string::npos) << s->source;
}

TEST(ResolveShard, KubernetesIndexNeedsTheCountGiven) {
  EXPECT_EQ(resolved({{"JOB_COMPLETION_INDEX", "0"}}, "", 3), std::make_pair(1, 3));
  EXPECT_EQ(resolved({{"JOB_COMPLETION_INDEX", "2"}}, "", 3), std::make_pair(3, 3));
  EXPECT_THROW(resolved({{"JOB_COMPLETION_INDEX", "0"}}), InputError);
  EXPECT_THROW(resolved({{"JOB_COMPLETION_INDEX", "3"}}, "", 3), InputError);
}

TEST(ResolveShard, GitLabCountsFromOne) {
  EXPECT_EQ(resolved({{"CI_NODE_INDEX", "4"}, {"CI_NODE_TOTAL", "4"}}), std::make_pair(4, 4));
  EXPECT_THROW(resolved({{"CI_NODE_INDEX", "5"}, {"CI_NODE_TOTAL", "4"}}), InputError);
  EXPECT_THROW(resolved({{"CI_NODE_INDEX", "0"}, {"CI_NODE_TOTAL", "4"}}), InputError);
  EXPECT_THROW(resolved({{"CI_NODE_INDEX", "two"}, {"CI_NODE_TOTAL", "4"}}), InputError);
}

TEST(ResolveShard, GoogleTestAndBazelCountFromZeroAndTouchTheStatusFile) {
  const std::filesystem::path status =
      std::filesystem::temp_directory_path() / ("oprig_shard_status_" + std::to_string(::getpid()));
  std::filesystem::remove(status);
  EXPECT_EQ(resolved({{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", "2"}}), std::make_pair(1, 2));
  EXPECT_EQ(resolved({{"TEST_SHARD_INDEX", "1"}, {"TEST_TOTAL_SHARDS", "2"}, {"TEST_SHARD_STATUS_FILE", status}}),
            std::make_pair(2, 2));
  EXPECT_TRUE(std::filesystem::exists(status));
  std::filesystem::remove(status);
}

TEST(ResolveShard, SlurmComesBeforeGitLab) {
  EXPECT_EQ(resolved({{"SLURM_ARRAY_TASK_ID", "2"},
                      {"SLURM_ARRAY_TASK_COUNT", "2"},
                      {"SLURM_ARRAY_TASK_MIN", "1"},
                      {"CI_NODE_INDEX", "1"},
                      {"CI_NODE_TOTAL", "5"}}),
            std::make_pair(2, 2));
}

TEST(SplitByCost, EqualCostsSplitEvenly) {
  EXPECT_EQ(split_by_cost({1, 1, 1, 1, 1, 1}, 3), (std::vector<int>{0, 0, 1, 1, 2, 2}));
}

TEST(SplitByCost, ADearUnitTakesItsPartAlone) {
  // Total 14, parts of 7: the first unit spans 0..10 (middle 5, part 0), the
  // others' middles lie at 10.5..13.5 (part 1).
  EXPECT_EQ(split_by_cost({10, 1, 1, 1, 1}, 2), (std::vector<int>{0, 1, 1, 1, 1}));
  // Cost, not count: 4 cheap cases then 1 as dear as all of them together.
  EXPECT_EQ(split_by_cost({1, 1, 1, 1, 4}, 2), (std::vector<int>{0, 0, 0, 0, 1}));
}

TEST(SplitByCost, EveryPartWithinOneUnitOfItsShare) {
  std::vector<double> costs;
  for (int i = 0; i < 200; ++i) costs.push_back(1 + (i * 37) % 11);
  const double total = std::accumulate(costs.begin(), costs.end(), 0.0);
  for (int n = 1; n <= 7; ++n) {
    const std::vector<int> part = split_by_cost(costs, n);
    std::vector<double> sum(n, 0);
    for (size_t i = 0; i < costs.size(); ++i) {
      if (i > 0) {
        EXPECT_GE(part[i], part[i - 1]) << "contiguous";
      }
      sum[part[i]] += costs[i];
    }
    for (int k = 0; k < n; ++k) EXPECT_LE(std::abs(sum[k] - total / n), 11) << k << " of " << n;
  }
}

TEST(CutShard, ShardsAreDisjointCoverEverythingAndKeepUnitsWhole) {
  std::vector<ShardUnit> units;
  std::set<std::string> all;
  for (int i = 0; i < 30; ++i) {
    ShardUnit u{{"case" + std::to_string(i)}, 1.0 + i % 4};
    if (i % 5 == 0) u.ids.push_back("companion" + std::to_string(i));  // an anchor and its companion
    for (const auto& id : u.ids) all.insert(id);
    units.push_back(u);
  }
  for (int n = 1; n <= 4; ++n) {
    std::set<std::string> seen;
    for (int k = 1; k <= n; ++k) {
      const ShardCut cut = cut_shard(units, ShardSpec{k, n, "test"});
      for (const auto& id : cut.ids) EXPECT_TRUE(seen.insert(id).second) << id << " in two shards";
      for (int i = 0; i < 30; i += 5)
        EXPECT_EQ(cut.ids.count("case" + std::to_string(i)), cut.ids.count("companion" + std::to_string(i)));
      // The same cut every time (every task of an array computes it alone).
      EXPECT_EQ(cut.ids, cut_shard(units, ShardSpec{k, n, "again"}).ids);
    }
    EXPECT_EQ(seen, all) << n << " shards";
  }
}

TEST(RunUnits, AnAnchorTakesItsCompanionsAtItsPlace) {
  std::vector<CaseGroup> groups(1);
  for (const char* id : {"a", "b", "c", "d"}) {
    reports::CaseResult c;
    c.id = id;
    c.shape = {4};
    groups[0].cases.push_back(c);
  }
  const std::vector<ShardUnit> units = run_units(groups, {{"c", "b"}, {"d", "b"}});
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].ids, std::vector<std::string>{"a"});
  EXPECT_EQ(std::set<std::string>(units[1].ids.begin(), units[1].ids.end()), (std::set<std::string>{"b", "c", "d"}));
  EXPECT_GT(units[1].cost, units[0].cost);
}

}  // namespace
}  // namespace oprig::harness::farm
