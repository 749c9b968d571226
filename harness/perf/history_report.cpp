#include "perf/history_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/text.hpp"

namespace oprig::perf {
namespace {

std::string percent(double ratio, int decimals = 1) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.*f %%", decimals, 100 * (ratio - 1));
  return text;
}

std::string short_rev(const std::string& rev) { return rev.substr(0, 12); }

std::string describe_changes(const SeriesReport& s) {
  const SeriesAnalysis& a = s.analysis;
  const Trend& t = a.trend;
  const std::string trend = percent(t.ratio_per_point, 2) + "/night [" + percent(t.ratio_low, 2) + ", " +
                            percent(t.ratio_high, 2) + "], " + percent(t.total_ratio) + " over " +
                            std::to_string(s.series.points.size()) + " nights";
  switch (a.kind) {
    case SeriesKind::kTooShort:
      return "fewer nights than the analysis needs";
    case SeriesKind::kDrift:
      return "drift " + trend;
    case SeriesKind::kFlat:
      return "no change point; trend " + percent(t.ratio_per_point, 2) + "/night" +
             (t.significant ? "" : " (not significant)");
    case SeriesKind::kSteps:
      break;
  }
  std::string out;
  for (const StepChange& c : s.steps) {
    if (!out.empty()) out += "; ";
    out += percent(c.ratio) + " at " + c.run_date.substr(0, 10) + " (" + short_rev(c.git_revision) + ")";
  }
  return out;
}

std::string pad(std::string s, size_t width, bool left) {
  if (s.size() >= width) return s;
  return left ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

std::string header_text(const HistoryReport& r) {
  std::string out = "history " + r.history_dir + ": " + std::to_string(r.selection.records_used) + " nights";
  if (r.selection.fingerprint.empty()) {
    out += " of any machine (--any-machine: timings of different machines side by side)\n";
  } else {
    out += " of machine " + r.selection.fingerprint + " (" + machine_summary(r.machine) + ")\n";
  }
  if (r.selection.records_other_machines > 0)
    out += std::to_string(r.selection.records_other_machines) +
           " records of other machines left out (--machine FP to pick one, --any-machine for all)\n";
  out += std::string("metric ") + time_metric_field(r.metric) + "; per night the median of its repetitions\n";
  return out;
}

}  // namespace

HistoryReport analyse_history(const std::string& history_dir, const std::vector<HistoryRecord>& records,
                              const SeriesSelection& selection, TimeMetric metric,
                              const ChangePointOptions& options) {
  HistoryReport report;
  report.history_dir = history_dir;
  report.selection = selection;
  report.metric = metric;
  for (auto it = records.rbegin(); it != records.rend(); ++it)
    if (selection.fingerprint.empty() || it->machine.fingerprint == selection.fingerprint) {
      report.machine = it->machine;
      break;
    }
  for (const BenchmarkSeries& series : selection.series) {
    SeriesReport s;
    s.series = series;
    std::vector<double> medians;
    for (const NightPoint& p : series.points) medians.push_back(p.median_ns);
    s.analysis = analyse_series(medians, options);
    for (size_t k = 1; k < s.analysis.segments.size(); ++k) {
      const size_t index = s.analysis.segments[k].begin;
      s.steps.push_back({index, series.points[index].run_date, series.points[index].git_revision,
                         s.analysis.segments[k].level / s.analysis.segments[k - 1].level});
    }
    report.benchmarks.push_back(std::move(s));
  }
  return report;
}

std::string render_history_text(const HistoryReport& r) {
  std::string out = header_text(r) + "\n";
  size_t width = 9;
  for (const SeriesReport& s : r.benchmarks) width = std::max(width, s.series.name.size());
  out += pad("benchmark", width, false) + "  nights  last median  kind       changes\n";
  for (const SeriesReport& s : r.benchmarks) {
    const NightPoint& last = s.series.points.back();
    out += pad(s.series.name, width, false) + "  " + pad(std::to_string(s.series.points.size()), 6, true) + "  " +
           pad(reports::format_duration_ns(last.median_ns), 11, true) + "  " +
           pad(std::string(series_kind_name(s.analysis.kind)), 9, false) + "  " + describe_changes(s) + "\n";
  }
  if (r.benchmarks.empty()) out += "(no benchmark with usable repetitions)\n";
  return out;
}

}  // namespace oprig::perf
