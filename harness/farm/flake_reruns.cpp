#include "farm/flake_reruns.hpp"

#include <iostream>
#include <set>

#include "runner/lifecycle_plan.hpp"

namespace oprig::harness::farm {

size_t rerun_failures(std::map<std::string, reports::CaseResult>& results, const RerunRequest& request,
                      const std::function<bool(const reports::CaseResult&)>& wanted, int* stopped_by_signal) {
  std::map<std::string, std::vector<Verdict>> attempts;
  for (const auto& [id, r] : results)
    if (wanted(r)) attempts[id] = {r.verdict};
  if (attempts.empty() || request.reruns <= 0) return 0;

  for (int round = 1; round <= request.reruns; ++round) {
    // Only the cases whose verdict has not changed yet: one change makes a flake.
    std::vector<CaseGroup> groups;
    size_t pending = 0;
    for (const CaseGroup& g : *request.groups) {
      CaseGroup again{g.op, g.backend, {}};
      for (const reports::CaseResult& c : g.cases) {
        const auto it = attempts.find(c.id);
        if (it == attempts.end() || it->second.back() != it->second.front()) continue;
        again.cases.push_back(c);
      }
      pending += again.cases.size();
      if (!again.cases.empty()) groups.push_back(std::move(again));
    }
    if (pending == 0) break;
    std::cerr << "flake check: re-running " << pending << " unexpected failure(s) in fresh workers (attempt "
              << round + 1 << " of " << request.reruns + 1 << ")\n";
    SupervisorOptions options = request.supervisor;
    options.jsonl = request.out / "reruns.jsonl";
    options.log_dir = request.out / "logs" / ("rerun-" + std::to_string(round));
    // Never a lifecycle companion: what did not pass in any attempt so far.
    for (const auto& [id, r] : results)
      if (!usable_as_companion(r.verdict)) options.not_passed.insert(id);
    int stopped = 0;
    const std::vector<reports::CaseResult> again =
        run_groups(*request.selection, groups, options, [](const reports::CaseResult&) {}, &stopped);
    for (const reports::CaseResult& r : again)
      if (auto it = attempts.find(r.id); it != attempts.end()) it->second.push_back(r.verdict);
    if (stopped != 0) {
      if (stopped_by_signal) *stopped_by_signal = stopped;
      break;
    }
  }
  size_t rerun = 0;
  for (auto& [id, sequence] : attempts) {
    if (sequence.size() < 2) continue;
    results.at(id).outcome.attempts = std::move(sequence);
    ++rerun;
  }
  return rerun;
}

}  // namespace oprig::harness::farm
