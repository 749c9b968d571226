#include "perf/report_baseline.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "perf/family_correction.hpp"
#include "reports/text.hpp"

namespace oprig::perf {
namespace {

bool real_time_samples(const reports::CaseResult& c) {
  return c.perf && !c.perf->compute_ns_samples.empty() && !(c.backend == "dsp" && c.perf->device_timer);
}

}  // namespace

reports::PerfBaseline compare_with_baseline(const reports::RunResults& base, const reports::RunResults& next,
                                            const RegressionRule& rule, std::string label) {
  check_rule(rule);
  reports::PerfBaseline out;
  out.label = std::move(label);
  out.rule = "Mann-Whitney U at family level alpha " + reports::format_number(rule.alpha, 3) + " (Holm) and a change above " +
             reports::format_number(rule.min_effect * 100, 3) + " %, at least " + std::to_string(rule.min_samples) +
             " samples a side";
  std::map<std::string, const reports::CaseResult*> base_cases;
  for (const reports::CaseResult& c : base.cases)
    if (real_time_samples(c)) base_cases[c.id] = &c;
  std::set<std::string> timed_now;
  std::vector<std::pair<std::string, SampleComparison>> compared;
  for (const reports::CaseResult& c : next.cases) {
    if (!real_time_samples(c)) continue;
    timed_now.insert(c.id);
    const auto it = base_cases.find(c.id);
    if (it == base_cases.end()) continue;
    const std::vector<double>& b = it->second->perf->compute_ns_samples;
    compared.emplace_back(c.id, compare_samples(b, c.perf->compute_ns_samples, rule));
  }
  std::vector<SampleComparison*> family;
  for (auto& [id, cmp] : compared) family.push_back(&cmp);
  correct_for_family(family, rule);
  for (const auto& [id, cmp] : compared) {
    reports::BaselineRow row;
    row.verdict = std::string(change_verdict_name(cmp.verdict));
    row.ratio = cmp.ratio.ratio;
    row.low = cmp.ratio.low;
    row.high = cmp.ratio.high;
    row.base_median_ns = cmp.base_median;
    row.base_samples = cmp.base_count;
    row.note = cmp.note;
    out.rows.emplace(id, std::move(row));
  }
  for (const auto& [id, c] : base_cases) out.only_in_baseline += timed_now.count(id) == 0;
  return out;
}

reports::RunResults read_baseline_results(const std::filesystem::path& base) {
  std::error_code ec;
  if (std::filesystem::is_directory(base, ec)) {
    if (std::filesystem::exists(base / "results.json")) return reports::read_results_file(base / "results.json");
    if (std::filesystem::exists(base / "results.jsonl")) return reports::read_results_file(base / "results.jsonl");
    throw reports::ResultsFormatError(base.string() + ": no results.json or results.jsonl in this folder");
  }
  return reports::read_results_file(base);
}

}  // namespace oprig::perf
