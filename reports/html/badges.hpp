// Verdict and outcome badges, shared by report.html's sections
// (html_reporter.cpp, farm_sections.cpp). Text is escaped here.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

#include "reports/outcome.hpp"
#include "reports/results.hpp"
#include "reports/text.hpp"

namespace oprig::reports {

inline std::string verdict_class(Verdict v) {
  std::string name(verdict_name(v));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return "v-" + name;
}

inline std::string badge(Verdict v) {
  return "<span class=\"badge " + verdict_class(v) + "\">" + std::string(verdict_name(v)) + "</span>";
}

// EXPECTED_FAILURE, UNEXPECTED_PASS, FLAKY beside the verdict, with what
// stands behind it as a tooltip; "" for a case without a status.
inline std::string outcome_badge(const CaseResult& c) {
  if (c.outcome.status.empty()) return "";
  std::string name = c.outcome.status;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return " <span class=\"badge o-" + name + "\" title=\"" + html_escape(outcome_text(c)) + "\">" +
         html_escape(c.outcome.status) + (counts_as_failure(c) ? " (fails the run)" : "") + "</span>";
}

}  // namespace oprig::reports
