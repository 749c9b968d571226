// Which cases a shard runs: a deterministic 1/N of the selection, balanced by
// expected cost rather than by count (a 1024x1024 case costs what hundreds of
// small ones do). The selection, in run order, is cut into N contiguous parts
// of near-equal cost, so each op x backend group is split at most where a cut
// falls (few extra worker start-ups), and a lifecycle anchor goes to one
// shard together with its companions (runner/lifecycle_plan.hpp): the
// anchor's passes then see exactly the companions' verdicts an unsharded run
// gives them. The plan depends only on the selected cases, so every task of
// an array job computes the same cut on any machine.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "farm/shard.hpp"
#include "reports/results.hpp"
#include "runner/supervisor.hpp"

namespace oprig::harness::farm {

// Expected cost of a case in element-equivalents: a fixed share per case
// (worker protocol, reference, two poisoned executes: about 0.5 ms on the
// machines measured, the time of 10,000 elements) plus the elements of every
// tensor it has; an anchor's lifecycle passes make it about kAnchorFactor
// times dearer.
inline constexpr double kCaseOverhead = 10000;
inline constexpr double kAnchorFactor = 4;
double expected_cost(const reports::CaseResult& planned);

// Cases that must go to one shard, and their cost.
struct ShardUnit {
  std::vector<std::string> ids;
  double cost = 0;
};

// Unit i goes to the part that holds the middle of its span of the running
// cost total; parts are numbered from 0. Contiguous and deterministic; every
// part's cost is within one unit's cost of total / count.
std::vector<int> split_by_cost(const std::vector<double>& costs, int count);

// The units of a run: each case of `groups` (in order) on its own, except a
// lifecycle anchor with its companions (`anchor_of`: companion id -> anchor
// id), which form one unit at the anchor's place.
std::vector<ShardUnit> run_units(const std::vector<CaseGroup>& groups, const std::map<std::string, std::string>& anchor_of);

struct ShardCut {
  std::set<std::string> ids;  // the shard's cases
  double cost = 0, total_cost = 0;
};
ShardCut cut_shard(const std::vector<ShardUnit>& units, const ShardSpec& shard);

}  // namespace oprig::harness::farm
