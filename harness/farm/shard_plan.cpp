#include "farm/shard_plan.hpp"

#include <algorithm>
#include <cmath>

namespace oprig::harness::farm {
namespace {

double elements_of(const std::vector<reports::TensorRecord>& tensors) {
  double n = 0;
  for (const reports::TensorRecord& t : tensors) {
    if (!t.present) continue;
    double e = 1;
    for (int64_t d : t.shape) e *= static_cast<double>(std::max<int64_t>(d, 0));
    n += e;
  }
  return n;
}

}  // namespace

double expected_cost(const reports::CaseResult& planned) {
  return kCaseOverhead + elements_of(planned.inputs) + elements_of(planned.outputs);
}

std::vector<int> split_by_cost(const std::vector<double>& costs, int count) {
  std::vector<int> part(costs.size(), 0);
  if (count <= 1 || costs.empty()) return part;
  double total = 0;
  for (double c : costs) total += std::max(c, 0.0);
  double before = 0;
  for (size_t i = 0; i < costs.size(); ++i) {
    const double cost = std::max(costs[i], 0.0);
    // Zero cost everywhere: cut by position instead.
    const double middle = total > 0 ? (before + cost / 2) / total
                                    : (static_cast<double>(i) + 0.5) / static_cast<double>(costs.size());
    part[i] = std::min(count - 1, static_cast<int>(std::floor(middle * count)));
    before += cost;
  }
  return part;
}

std::vector<ShardUnit> run_units(const std::vector<CaseGroup>& groups,
                                 const std::map<std::string, std::string>& anchor_of) {
  std::vector<ShardUnit> units;
  std::set<std::string> present;
  for (const CaseGroup& g : groups)
    for (const reports::CaseResult& c : g.cases) present.insert(c.id);
  // A companion whose anchor is not selected (--case) is a case like any other.
  auto anchor_here = [&](const std::string& id) -> const std::string* {
    const auto it = anchor_of.find(id);
    return it != anchor_of.end() && present.count(it->second) ? &it->second : nullptr;
  };
  std::map<std::string, std::vector<const reports::CaseResult*>> companions;  // anchor id -> its companions
  for (const CaseGroup& g : groups)
    for (const reports::CaseResult& c : g.cases)
      if (const std::string* anchor = anchor_here(c.id)) companions[*anchor].push_back(&c);
  std::set<std::string> anchors;
  for (const auto& [companion, anchor] : anchor_of) anchors.insert(anchor);
  for (const CaseGroup& g : groups)
    for (const reports::CaseResult& c : g.cases) {
      if (anchor_here(c.id)) continue;  // goes with its anchor
      ShardUnit unit{{c.id}, expected_cost(c) * (anchors.count(c.id) ? kAnchorFactor : 1)};
      for (const reports::CaseResult* companion : companions[c.id]) {
        unit.ids.push_back(companion->id);
        unit.cost += expected_cost(*companion);
      }
      units.push_back(std::move(unit));
    }
  return units;
}

ShardCut cut_shard(const std::vector<ShardUnit>& units, const ShardSpec& shard) {
  std::vector<double> costs;
  for (const ShardUnit& u : units) costs.push_back(u.cost);
  const std::vector<int> part = split_by_cost(costs, shard.count);
  ShardCut cut;
  for (size_t i = 0; i < units.size(); ++i) {
    cut.total_cost += units[i].cost;
    if (part[i] != shard.index - 1) continue;
    cut.cost += units[i].cost;
    cut.ids.insert(units[i].ids.begin(), units[i].ids.end());
  }
  return cut;
}

}  // namespace oprig::harness::farm
