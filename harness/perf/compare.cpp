#include "perf/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "oprig/verdict.hpp"
#include "perf/family_correction.hpp"
#include "reports/text.hpp"

namespace oprig::perf {
namespace {

std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return reports::format_number(value);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string p_text(double p) {
  if (p < 1e-4) return "<1e-4";
  return fixed(p, 4);
}

std::string pad_right(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}
std::string pad_left(std::string s, size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

// The p-value shown: the one-sided test in the direction of the estimate.
double p_shown(const SampleComparison& c) { return c.ratio.ratio >= 1 ? c.p_slower_used : c.p_faster_used; }


int verdict_order(ChangeVerdict v) { return v == ChangeVerdict::kNotEnoughSamples ? 1 : 0; }

}  // namespace

size_t CompareReport::count(ChangeVerdict verdict) const {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(),
                                           [verdict](const CompareRow& r) { return r.comparison.verdict == verdict; }));
}

size_t CompareReport::tested() const { return rows.size() - count(ChangeVerdict::kNotEnoughSamples); }

bool CompareRow::unconfirmed() const {
  return comparison.verdict != ChangeVerdict::kRegressed &&
         std::any_of(reruns.begin(), reruns.end(), [](const RerunCheck& c) { return c.retimed; });
}

size_t CompareReport::unconfirmed() const {
  return static_cast<size_t>(
      std::count_if(rows.begin(), rows.end(), [](const CompareRow& r) { return r.unconfirmed(); }));
}

CompareReport compare_runs(const BenchmarkFile& base, const BenchmarkFile& next, const CompareOptions& options) {
  check_rule(options.rule);
  CompareReport report;
  report.base_path = base.path.string();
  report.new_path = next.path.string();
  report.options = options;
  for (const BenchmarkSamples& b : base.benchmarks) {
    const BenchmarkSamples* n = next.find(b.name);
    if (n == nullptr) {
      report.only_in_base.push_back(b.name);
      continue;
    }
    CompareRow row{b.name, compare_samples(b.samples(options.metric), n->samples(options.metric), options.rule), {}};
    if (options.machine_controls) row.machine = machine_shift(b, *n, options.rule);
    std::string errors;
    if (!b.errors.empty()) errors += std::to_string(b.errors.size()) + " failed repetitions in BASE (" + b.errors.front() + ")";
    if (!n->errors.empty()) {
      if (!errors.empty()) errors += ", ";
      errors += std::to_string(n->errors.size()) + " failed repetitions in NEW (" + n->errors.front() + ")";
    }
    if (b.samples(options.metric).empty() && n->samples(options.metric).empty() &&
        (!b.aggregates_real_ns.empty() || !n->aggregates_real_ns.empty()) && errors.empty())
      errors = "only aggregates in the files (written with --benchmark_report_aggregates_only?): "
               "per-repetition entries are needed";
    if (!errors.empty()) row.comparison.note = errors + (row.comparison.note.empty() ? "" : "; " + row.comparison.note);
    report.rows.push_back(std::move(row));
  }
  for (const BenchmarkSamples& n : next.benchmarks)
    if (base.find(n.name) == nullptr) report.only_in_new.push_back(n.name);
  if (options.family_correction) {
    std::vector<SampleComparison*> family;
    for (CompareRow& row : report.rows) family.push_back(&row.comparison);
    correct_for_family(family, options.rule);
  }
  if (options.machine_controls)
    for (CompareRow& row : report.rows) allow_for_machine(row.comparison, row.machine, options.rule);
  std::stable_sort(report.rows.begin(), report.rows.end(), [](const CompareRow& a, const CompareRow& b) {
    const int oa = verdict_order(a.comparison.verdict), ob = verdict_order(b.comparison.verdict);
    if (oa != ob) return oa < ob;
    if (oa == 1) return false;
    return a.comparison.ratio.ratio > b.comparison.ratio.ratio;
  });
  return report;
}

std::string mismatch_reason(const CompareReport& report) {
  if (report.rows.empty())
    return "no benchmark is in both " + report.base_path + " and " + report.new_path + " (mismatched runs)";
  if (report.tested() == 0)
    return "none of the " + std::to_string(report.rows.size()) +
           " benchmarks in both runs has enough repetitions to test (at least " +
           std::to_string(report.options.rule.min_samples) + " per side)";
  return "";
}

int compare_exit_code(const CompareReport& report) {
  if (!mismatch_reason(report).empty()) return kExitBadInput;
  return report.count(ChangeVerdict::kRegressed) > 0 ? kExitFailure : kExitOk;
}

std::string render_compare_table(const CompareReport& report) {
  const RegressionRule& rule = report.options.rule;
  // 99.8 at alpha 0.001: rounded to a whole percent it would read "100% CI".
  const double ci_level = 100 * (1 - 2 * rule.alpha);
  char ci_percent[32];
  std::snprintf(ci_percent, sizeof ci_percent, "%.6g", ci_level);  // 90, 99.8, 99.95
  std::string out = "BASE " + report.base_path + "\nNEW  " + report.new_path + "\n";
  const size_t tested = report.tested();
  const std::string level = report.options.family_correction
                                ? "at family level alpha " + fixed(rule.alpha, 3) + " (Holm over " +
                                      std::to_string(tested) + " benchmarks: p below is adjusted)"
                                : "at alpha " + fixed(rule.alpha, 3) + " per benchmark (no family correction)";
  out += "rule: REGRESSED when NEW is slower than BASE x " + fixed(1 + rule.min_effect, 3) +
         " by the one-sided Mann-Whitney test " + level + " and the ratio NEW/BASE > " + fixed(1 + rule.min_effect, 3) + " (IMPROVED: faster and < " +
         fixed(1 / (1 + rule.min_effect), 3) + "); " + time_metric_field(report.options.metric) + ", at least " +
         std::to_string(rule.min_samples) + " repetitions per side\n";
  const size_t controlled = static_cast<size_t>(std::count_if(
      report.rows.begin(), report.rows.end(), [](const CompareRow& r) { return r.machine.measured; }));
  if (report.options.machine_controls)
    out += "machine: " + std::to_string(controlled) + " of " + std::to_string(report.rows.size()) +
           " benchmarks carry bench's controls; where the machine itself was slower (faster) at the same moment, the "
           "ratio must exceed that shift times " + fixed(1 + rule.min_effect, 3) + " (see notes)\n";
  if (!report.rerun_paths.empty()) {
    out += "confirm: a benchmark REGRESSED in NEW stands only if it is REGRESSED again in every rerun that re-timed "
           "it (" + (report.options.family_correction ? "p multiplied by the " + std::to_string(tested) + " benchmarks tested"
                                                       : std::string("p per benchmark")) + "):";
    for (const std::string& p : report.rerun_paths) out += " " + p;
    out += "\n";
  }
  out += "\n";

  const std::vector<std::string> header = {"benchmark", "base median", "new median", "ratio",
                                           std::string(ci_percent) + "% CI", "p", "n", "verdict"};
  std::vector<std::vector<std::string>> cells;
  for (const CompareRow& row : report.rows) {
    const SampleComparison& c = row.comparison;
    const bool tested = c.verdict != ChangeVerdict::kNotEnoughSamples;
    cells.push_back({row.name,
                     c.base_count ? reports::format_duration_ns(c.base_median) : "-",
                     c.new_count ? reports::format_duration_ns(c.new_median) : "-",
                     tested ? fixed(c.ratio.ratio, 3) : "-",
                     tested ? "[" + fixed(c.ratio.low, 3) + ", " + fixed(c.ratio.high, 3) + "]" : "-",
                     tested ? p_text(p_shown(c)) : "-",
                     std::to_string(c.base_count) + "/" + std::to_string(c.new_count),
                     row.unconfirmed() ? "SAME (NEW's REGRESSED not confirmed)"
                                       : std::string(change_verdict_name(c.verdict))});
  }
  std::vector<size_t> width(header.size());
  for (size_t k = 0; k < header.size(); ++k) {
    width[k] = header[k].size();
    for (const auto& r : cells) width[k] = std::max(width[k], r[k].size());
  }
  auto line = [&](const std::vector<std::string>& r) {
    std::string s = pad_right(r[0], width[0]);
    for (size_t k = 1; k < r.size(); ++k) {
      s += "  ";
      s += (k == r.size() - 1) ? r[k] : pad_left(r[k], width[k]);
    }
    return s + "\n";
  };
  out += line(header);
  for (const auto& r : cells) out += line(r);

  bool any_note = false;
  for (const CompareRow& row : report.rows) {
    if (row.comparison.note.empty()) continue;
    if (!any_note) out += "\nnotes:\n";
    any_note = true;
    out += "  " + row.name + ": " + row.comparison.note + "\n";
  }
  auto list = [&out](const char* title, const std::vector<std::string>& names) {
    out += std::string("\n") + title + " (" + std::to_string(names.size()) + ")" + (names.empty() ? "\n" : ":\n");
    for (const std::string& n : names) out += "  " + n + "\n";
  };
  list("only in BASE", report.only_in_base);
  list("only in NEW", report.only_in_new);

  out += "\n" + std::to_string(report.count(ChangeVerdict::kRegressed)) + " REGRESSED, " +
         std::to_string(report.count(ChangeVerdict::kImproved)) + " IMPROVED, " +
         std::to_string(report.count(ChangeVerdict::kSame)) + " SAME, " +
         std::to_string(report.count(ChangeVerdict::kNotEnoughSamples)) + " NOT_ENOUGH_SAMPLES";
  if (!report.rerun_paths.empty())
    out += " (" + std::to_string(report.unconfirmed()) + " REGRESSED in NEW not confirmed by the rerun)";
  const std::string reason = mismatch_reason(report);
  out += " -> exit " + std::to_string(compare_exit_code(report)) + (reason.empty() ? "" : " (" + reason + ")") + "\n";
  return out;
}

nlohmann::json compare_to_json(const CompareReport& report) {
  nlohmann::json j;
  j["schema"] = "oprig-compare/1";
  j["base"] = report.base_path;
  j["new"] = report.new_path;
  const RegressionRule& rule = report.options.rule;
  j["rule"] = {{"alpha", rule.alpha},
               {"min_effect", rule.min_effect},
               {"min_samples", rule.min_samples},
               {"metric", time_metric_field(report.options.metric)},
               {"confidence", 1 - 2 * rule.alpha},
               {"family_correction", report.options.family_correction ? "holm" : "none"},
               {"machine_controls", report.options.machine_controls}};
  nlohmann::json rows = nlohmann::json::array();
  for (const CompareRow& row : report.rows) {
    const SampleComparison& c = row.comparison;
    nlohmann::json r = {{"name", row.name},
                        {"verdict", change_verdict_name(c.verdict)},
                        {"base_count", c.base_count},
                        {"new_count", c.new_count}};
    if (c.base_count) r["base_median_ns"] = c.base_median;
    if (c.new_count) r["new_median_ns"] = c.new_median;
    if (c.verdict != ChangeVerdict::kNotEnoughSamples) {
      r["ratio"] = c.ratio.ratio;
      r["ci_low"] = c.ratio.low;
      r["ci_high"] = c.ratio.high;
      r["ci_coverage"] = c.ratio.confidence;
      r["p_slower"] = c.p_slower;
      r["p_faster"] = c.p_faster;
      r["p_two_sided"] = c.p_two_sided;
      r["p_slower_margin"] = c.p_slower_margin;
      r["p_faster_margin"] = c.p_faster_margin;
      r["p_slower_adjusted"] = c.p_slower_used;
      r["p_faster_adjusted"] = c.p_faster_used;
      r["p_exact"] = c.exact;
    }
    if (!row.reruns.empty()) {
      nlohmann::json checks = nlohmann::json::array();
      for (const RerunCheck& check : row.reruns) {
        nlohmann::json cj = {{"path", check.path}, {"retimed", check.retimed}};
        if (check.retimed)
          cj.update({{"verdict", change_verdict_name(check.comparison.verdict)},
                     {"ratio", check.comparison.ratio.ratio},
                     {"new_median_ns", check.comparison.new_median},
                     {"p_slower_margin", check.comparison.p_slower_margin},
                     {"p_slower_adjusted", check.comparison.p_slower_used}});
        checks.push_back(std::move(cj));
      }
      r["reruns"] = std::move(checks);
      r["confirmed"] = !row.unconfirmed();
    }
    if (row.machine.measured) r["machine"] = {{"slower", row.machine.slower}, {"faster", row.machine.faster}};
    if (!c.note.empty()) r["note"] = c.note;
    rows.push_back(std::move(r));
  }
  j["benchmarks"] = std::move(rows);
  j["only_in_base"] = report.only_in_base;
  j["only_in_new"] = report.only_in_new;
  j["summary"] = {{"regressed", report.count(ChangeVerdict::kRegressed)},
                  {"improved", report.count(ChangeVerdict::kImproved)},
                  {"same", report.count(ChangeVerdict::kSame)},
                  {"not_enough_samples", report.count(ChangeVerdict::kNotEnoughSamples)},
                  {"not_confirmed", report.unconfirmed()}};
  j["reruns"] = report.rerun_paths;
  j["exit_code"] = compare_exit_code(report);
  const std::string reason = mismatch_reason(report);
  if (!reason.empty()) j["error"] = reason;
  return j;
}

}  // namespace oprig::perf
