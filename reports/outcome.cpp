#include "reports/outcome.hpp"

namespace oprig::reports {

bool counts_as_failure(const CaseResult& c) {
  return c.outcome.fails_run.value_or(verdict_is_failure(c.verdict));
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
