#include "reports/outcome.hpp"

#include <map>
#include <vector>

namespace oprig::reports {

bool counts_as_failure(const CaseResult& c) {
  return c.outcome.fails_run.value_or(verdict_is_failure(c.verdict));
}

namespace {

// "4 FAILED, 1 UNEXPECTED_PASS": names in order of first appearance.
std::string counted(const std::vector<std::string>& names) {
  std::vector<std::string> order;
  std::map<std::string, uint64_t> counts;
  for (const std::string& name : names)
    if (counts[name]++ == 0) order.push_back(name);
  std::string text;
  for (const std::string& name : order) text += (text.empty() ? "" : ", ") + std::to_string(counts[name]) + " " + name;
  return text;
}

}  // namespace

std::string failing_counts_text(const RunResults& results, uint64_t* total) {
  std::vector<std::string> names;
  for (const CaseResult& c : results.cases)
    if (counts_as_failure(c))
      names.push_back(verdict_is_failure(c.verdict) && c.outcome.status.empty() ? std::string(verdict_name(c.verdict))
                                                                                : c.outcome.status);
  if (total) *total = names.size();
  return counted(names);
}

std::string excused_counts_text(const RunResults& results) {
  std::vector<std::string> names;
  for (const CaseResult& c : results.cases)
    if (!c.outcome.status.empty() && !counts_as_failure(c)) names.push_back(c.outcome.status);
  return counted(names);
}

std::string attempts_text(const CaseOutcome& outcome) {
  std::string text;
  for (Verdict v : outcome.attempts) text += (text.empty() ? "" : " > ") + std::string(verdict_name(v));
  return text;
}

std::string outcome_text(const CaseResult& c) {
  const CaseOutcome& o = c.outcome;
  if (o.status.empty()) return "";
  std::string detail;
  if (o.status == kFlaky) {
    detail = o.attempts.size() > 1 ? attempts_text(o) : "known flake";
    if (!o.expected_reason.empty()) detail += ": " + o.expected_reason;
  } else if (o.status == kExpectedFailure) {
    detail = std::string(verdict_name(c.verdict)) + (o.expected_reason.empty() ? "" : ": " + o.expected_reason);
  } else if (o.status == kUnexpectedPass) {
    detail = "expected " + o.expected + ", got " + std::string(verdict_name(c.verdict));
  }
  return o.status + (detail.empty() ? "" : " (" + detail + ")");
}

}  // namespace oprig::reports
