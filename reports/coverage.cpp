#include "reports/coverage.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <tuple>

#include "reports/outcome.hpp"
#include "reports/summary.hpp"

namespace oprig::reports {
namespace {

bool not_tested(Verdict v) { return v == Verdict::kSkipped || v == Verdict::kUnimplemented; }

std::string cases_text(uint64_t n) { return std::to_string(n) + (n == 1 ? " case" : " cases"); }

// "5000 UNIMPLEMENTED, 59 SKIPPED" for the verdicts among `verdicts` that occur.
std::string counts_text(const VerdictCounts& counts, std::initializer_list<Verdict> verdicts) {
  std::string text;
  for (Verdict v : verdicts)
    if (counts[v] > 0) text += (text.empty() ? "" : ", ") + std::to_string(counts[v]) + " " + std::string(verdict_name(v));
  return text;
}

// Reasons in order of how many cases give them, then as first seen.
void add_reason(std::vector<ReasonCount>& reasons, Verdict v, const std::string& reason, const std::string& op) {
  auto it = std::find_if(reasons.begin(), reasons.end(),
                         [&](const ReasonCount& r) { return r.verdict == v && r.reason == reason; });
  if (it == reasons.end()) {
    reasons.push_back({v, reason, 1, {op}});
    return;
  }
  ++it->count;
  if (std::find(it->ops.begin(), it->ops.end(), op) == it->ops.end()) it->ops.push_back(op);
}

void sort_reasons(std::vector<ReasonCount>& reasons) {
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const ReasonCount& a, const ReasonCount& b) { return a.count > b.count; });
}

}  // namespace

std::string headline(const RunResults& results) {
  const VerdictCounts all = count_verdicts(results);
  const uint64_t total = all.total();
  if (total == 0) return "NOTHING TESTED: no cases in this run";
  const uint64_t untested = all[Verdict::kUnimplemented] + all[Verdict::kSkipped];
  const std::string untested_text =
      untested == 0 ? ""
                    : "; " + std::to_string(untested) + " not tested (" +
                          counts_text(all, {Verdict::kUnimplemented, Verdict::kSkipped}) + ")";
  const std::string noted = counts_text(all, {Verdict::kQualityWarning, Verdict::kMistrusted});
  // Expected failures and flakes the run's policy excuses (outcome.hpp) are not failures here.
  const std::string excused = excused_counts_text(results);
  uint64_t failing = 0;
  const std::string failing_text = failing_counts_text(results, &failing);
  switch (exit_code_for(results)) {
    case kExitFailure:
      return "FAILED: " + std::to_string(failing) + " of " + cases_text(total) + " failed (" + failing_text + "); " +
             std::to_string(all[Verdict::kPassed]) + " passed" + (noted.empty() ? "" : ", " + noted) +
             (excused.empty() ? "" : ", " + excused + " as the expectations allow") + untested_text;
    case kExitNothingTested:
      return "NOTHING TESTED: none of the " + cases_text(total) + " ran a kernel to a verdict (" +
             counts_text(all, {Verdict::kUnimplemented, Verdict::kSkipped}) + ")";
    default:
      break;
  }
  const std::string passed = all[Verdict::kPassed] == total
                                 ? "all " + cases_text(total) + " passed"
                                 : std::to_string(all[Verdict::kPassed]) + " of " + cases_text(total) + " passed";
  return "PASSED: " + passed + ", none failed" + (excused.empty() ? "" : " unexpectedly (" + excused + ")") +
         (noted.empty() ? "" : " (" + noted + ": not failures)") + untested_text;
}

std::vector<BackendCoverage> coverage_by_backend(const RunResults& results) {
  std::vector<BackendCoverage> out;
  for (const VerdictCounts& counts : count_verdicts_by_backend(results)) {
    BackendCoverage b;
    b.backend = counts.backend;
    b.passed = counts[Verdict::kPassed];
    b.noted = counts[Verdict::kQualityWarning] + counts[Verdict::kMistrusted];
    b.failing = counts.failures();
    b.not_tested = counts[Verdict::kUnimplemented] + counts[Verdict::kSkipped];
    out.push_back(std::move(b));
  }
  for (const CaseResult& c : results.cases) {
    if (!not_tested(c.verdict)) continue;
    for (BackendCoverage& b : out)
      if (b.backend == c.backend) add_reason(b.reasons, c.verdict, c.message, c.op);
  }
  for (BackendCoverage& b : out) sort_reasons(b.reasons);
  return out;
}

std::string not_tested_text(const RunResults& results) {
  using Key = std::tuple<std::string, std::string, std::string, Verdict>;  // op, backend, dtype, verdict
  std::vector<Key> order;
  std::map<Key, std::vector<ReasonCount>> groups;
  for (const CaseResult& c : results.cases) {
    if (!not_tested(c.verdict)) continue;
    const Key key{c.op, c.backend, c.dtype, c.verdict};
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key);
    add_reason(it->second, c.verdict, c.message, c.op);
  }
  if (order.empty()) return "";
  std::string text = "not tested (one line per op x backend x data type; each case is in results.json):\n";
  for (const Key& key : order) {
    std::vector<ReasonCount>& reasons = groups[key];
    sort_reasons(reasons);
    uint64_t count = 0;
    for (const ReasonCount& r : reasons) count += r.count;
    std::string verdict(verdict_name(std::get<3>(key)));
    verdict.resize(std::max<size_t>(verdict.size(), 15), ' ');
    text += verdict + " " + std::get<0>(key) + " on " + std::get<1>(key) + ", " + std::get<2>(key) + ": " +
            cases_text(count) + ": ";
    for (size_t i = 0; i < reasons.size(); ++i) {
      const std::string reason = reasons[i].reason.empty() ? "(no reason given)" : reasons[i].reason;
      text += (i ? "; " : "") + reason + (reasons.size() > 1 ? " (" + std::to_string(reasons[i].count) + ")" : "");
    }
    text += "\n";
  }
  return text;
}

}  // namespace oprig::reports
