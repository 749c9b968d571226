// The history page: machine, a summary table, and one trend chart per
// benchmark. Self-contained (reports/html/page.hpp), every string escaped.
#include <cmath>
#include <cstdio>

#include "perf/history_report.hpp"
#include "reports/html/page.hpp"
#include "reports/html/svg_trend_chart.hpp"
#include "reports/text.hpp"

namespace oprig::perf {
namespace {

using reports::html_escape;

std::string percent(double ratio, int decimals = 1) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.*f %%", decimals, 100 * (ratio - 1));
  return text;
}

std::string kind_cell(const SeriesAnalysis& a) {
  const std::string name(series_kind_name(a.kind));
  const char* css = a.kind == SeriesKind::kSteps ? "kind-steps" : a.kind == SeriesKind::kDrift ? "kind-drift" : "muted";
  return std::string("<span class=\"") + css + "\">" + name + "</span>";
}

std::string changes_cell(const SeriesReport& s) {
  const Trend& t = s.analysis.trend;
  if (s.analysis.kind == SeriesKind::kTooShort) return "too few nights";
  if (s.analysis.kind == SeriesKind::kDrift)
    return html_escape(percent(t.ratio_per_point, 2) + " per night (95 % CI " + percent(t.ratio_low, 2) + " to " +
                       percent(t.ratio_high, 2) + "), " + percent(t.total_ratio) + " over the window");
  std::string out;
  for (const StepChange& c : s.steps)
    out += (out.empty() ? "" : "<br>") + html_escape(percent(c.ratio) + " from " + c.run_date.substr(0, 10) + " (" +
                                                     c.git_revision.substr(0, 12) + ")");
  return out.empty() ? "none" : out;
}

reports::TrendChart chart_of(const SeriesReport& s) {
  reports::TrendChart chart;
  chart.title = s.series.name;
  chart.format_value = [](double ns) { return reports::format_duration_ns(ns); };
  for (const NightPoint& p : s.series.points)
    chart.points.push_back({p.run_date.substr(5, 5),
                            p.run_date.substr(0, 10) + " " + p.git_revision.substr(0, 12) + ": median " +
                                reports::format_duration_ns(p.median_ns) + ", " + std::to_string(p.samples) +
                                " repetitions " + reports::format_duration_ns(p.min_ns) + " .. " +
                                reports::format_duration_ns(p.max_ns),
                            p.median_ns, p.min_ns, p.max_ns});
  if (s.analysis.kind == SeriesKind::kDrift) {
    const double n = static_cast<double>(s.series.points.size());
    const double slope = std::log(s.analysis.trend.ratio_per_point);
    chart.line = {std::exp(s.analysis.trend.intercept), std::exp(s.analysis.trend.intercept + slope * (n - 1))};
  } else if (s.analysis.kind != SeriesKind::kTooShort) {
    for (const Segment& seg : s.analysis.segments) chart.levels.push_back({seg.begin, seg.end, seg.level});
    for (const StepChange& c : s.steps)
      chart.markers.push_back({c.index, percent(c.ratio), c.ratio > 1 ? "trend-up" : "trend-down"});
  }
  return chart;
}

}  // namespace

std::string render_history_html(const HistoryReport& r) {
  std::string page = reports::html_page_begin("oprig history \xE2\x80\x94 " + r.history_dir);
  page += "<h1>Performance history</h1>\n<div class=\"card\"><table class=\"kv\">\n";
  auto kv = [&page](const char* key, const std::string& escaped) {
    page += std::string("<tr><th>") + key + "</th><td>" + escaped + "</td></tr>\n";
  };
  kv("history", "<code>" + html_escape(r.history_dir) + "</code>");
  if (r.selection.fingerprint.empty()) {
    kv("machine", "any (--any-machine): timings of different machines side by side");
  } else {
    kv("machine", "<code>" + html_escape(r.selection.fingerprint) + "</code> " + html_escape(machine_summary(r.machine)));
    std::string backends;
    for (const BackendIdentity& b : r.machine.backends)
      backends += html_escape(b.name + ": " + (b.available ? b.device + " (" + b.driver + ")" : "unavailable")) + "<br>";
    kv("backends", backends);
  }
  kv("nights", std::to_string(r.selection.records_used) +
                   (r.selection.records_other_machines
                        ? " (" + std::to_string(r.selection.records_other_machines) + " records of other machines left out)"
                        : ""));
  kv("metric", std::string(time_metric_field(r.metric)) +
                   ": per night the median of its repetitions (line) and their range (band)");
  kv("change points",
     "steps: least-L1 piecewise-constant fit with a penalty per step from the series' own noise (dashed levels, "
     "markers); drift: a Theil-Sen line that explains the series more cheaply than steps (dashed line)");
  page += "</table></div>\n";

  page += "<h2>Benchmarks</h2>\n<table class=\"perf\">\n<tr><th>benchmark</th><th class=\"num\">nights</th>"
          "<th class=\"num\">last median</th><th>kind</th><th>changes</th></tr>\n";
  for (const SeriesReport& s : r.benchmarks)
    page += "<tr><td><code>" + html_escape(s.series.name) + "</code></td><td class=\"num\">" +
            std::to_string(s.series.points.size()) + "</td><td class=\"num\">" +
            html_escape(reports::format_duration_ns(s.series.points.back().median_ns)) + "</td><td>" +
            kind_cell(s.analysis) + "</td><td>" + changes_cell(s) + "</td></tr>\n";
  page += "</table>\n<h2>Trends</h2>\n";
  for (const SeriesReport& s : r.benchmarks) page += reports::svg_trend_chart(chart_of(s));
  if (r.benchmarks.empty()) page += "<p class=\"muted\">No benchmark with usable repetitions.</p>\n";
  return page + reports::html_page_end("Rendered by oprig history show from the records in " + r.history_dir +
                                       ". Self-contained: opens offline.");
}

}  // namespace oprig::perf
