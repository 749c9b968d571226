#include "perf/rerun_confirmation.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace oprig::perf {
namespace {

std::string brief(const SampleComparison& c) {
  char text[96];
  std::snprintf(text, sizeof text, "ratio %.3f, p %.2g", c.ratio.ratio, c.p_slower_used);
  return text;
}

// The metacharacters of a POSIX extended regex (what bench's --filter takes).
std::string escape_regex(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    if (std::string_view(".[]{}()\\*+?|^$").find(ch) != std::string_view::npos) out += '\\';
    out += ch;
  }
  return out;
}

}  // namespace

void confirm_regressions(CompareReport& report, const BenchmarkFile& base, std::span<const BenchmarkFile> reruns) {
  for (const BenchmarkFile& rerun : reruns) report.rerun_paths.push_back(rerun.path.string());
  const CompareOptions& options = report.options;
  const double family = options.family_correction ? static_cast<double>(report.tested()) : 1.0;
  for (CompareRow& row : report.rows) {
    if (row.comparison.verdict != ChangeVerdict::kRegressed) continue;
    const BenchmarkSamples* b = base.find(row.name);
    if (b == nullptr) continue;  // cannot happen: the row came from base
    bool cleared = false;
    std::string said;
    for (const BenchmarkFile& rerun : reruns) {
      RerunCheck check;
      check.path = rerun.path.string();
      if (const BenchmarkSamples* r = rerun.find(row.name)) {
        check.comparison = compare_samples(b->samples(options.metric), r->samples(options.metric), options.rule);
        check.retimed = check.comparison.verdict != ChangeVerdict::kNotEnoughSamples;
        if (check.retimed) {
          check.comparison.p_slower_used = std::min(1.0, check.comparison.p_slower_margin * family);
          check.comparison.p_faster_used = std::min(1.0, check.comparison.p_faster_margin * family);
          judge(check.comparison, options.rule);
          if (check.comparison.verdict != ChangeVerdict::kRegressed) cleared = true;
        }
      }
      said += (said.empty() ? "" : "; ") + check.path + ": " +
              (check.retimed ? std::string(change_verdict_name(check.comparison.verdict)) + " (" +
                                   brief(check.comparison) + ")"
                             : std::string("not re-timed"));
      row.reruns.push_back(std::move(check));
    }
    const bool any_retimed =
        std::any_of(row.reruns.begin(), row.reruns.end(), [](const RerunCheck& c) { return c.retimed; });
    std::string note;
    if (cleared) {
      note = "REGRESSED in NEW (" + brief(row.comparison) + ") but not confirmed by the rerun (" + said +
             "): a slowdown that did not come back is the machine's, not the build's";
      row.comparison.verdict = ChangeVerdict::kSame;
    } else if (any_retimed) {
      note = "confirmed by the rerun (" + said + ")";
    } else {
      note = "no rerun re-timed it (" + said + "): the regression stands";
    }
    row.comparison.note = note + (row.comparison.note.empty() ? "" : "; " + row.comparison.note);
  }
}

std::string rerun_filter(const CompareReport& report) {
  std::string alternatives;
  for (const CompareRow& row : report.rows) {
    if (row.comparison.verdict != ChangeVerdict::kRegressed) continue;
    const std::string function_name = row.name.substr(0, row.name.find('/'));
    alternatives += (alternatives.empty() ? "" : "|") + escape_regex(function_name);
  }
  return alternatives.empty() ? "" : "^(" + alternatives + ")(/|$)";
}

}  // namespace oprig::perf
