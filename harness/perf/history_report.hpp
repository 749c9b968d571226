// `oprig history show`: each benchmark's nightly series analysed for steps
// and drift (perf/change_points.hpp), as a text table and as a
// self-contained HTML page with one trend chart per benchmark.
#pragma once

#include <string>
#include <vector>

#include "perf/change_points.hpp"
#include "perf/history.hpp"

namespace oprig::perf {

struct StepChange {
  size_t index = 0;        // first night of the new level
  std::string run_date, git_revision;  // of that night
  double ratio = 1;        // new level / previous level: 1.05 = 5 % slower
};

struct SeriesReport {
  BenchmarkSeries series;
  SeriesAnalysis analysis;
  std::vector<StepChange> steps;
};

struct HistoryReport {
  std::string history_dir;
  SeriesSelection selection;
  MachineInfo machine;  // of the newest record used (empty fingerprint when none)
  TimeMetric metric = TimeMetric::kRealTime;
  std::vector<SeriesReport> benchmarks;
};

HistoryReport analyse_history(const std::string& history_dir, const std::vector<HistoryRecord>& records,
                              const SeriesSelection& selection, TimeMetric metric,
                              const ChangePointOptions& options);

std::string render_history_text(const HistoryReport& report);
std::string render_history_html(const HistoryReport& report);

}  // namespace oprig::perf
