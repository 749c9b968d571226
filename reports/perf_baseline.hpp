// A baseline for the performance table of report.html: for each case id of
// the new run that the baseline also timed, how its time changed. The
// comparison itself (Mann-Whitney U plus a minimum effect, as `oprig
// compare` judges) is computed in harness/perf; reports only renders it.
#pragma once

#include <cstddef>
#include <map>
#include <string>

namespace oprig::reports {

struct BaselineRow {
  std::string verdict;        // REGRESSED, IMPROVED, SAME, NOT_ENOUGH_SAMPLES
  double ratio = 1;           // new / base (Hodges-Lehmann); > 1: slower
  double low = 1, high = 1;   // its confidence interval
  double base_median_ns = 0;
  size_t base_samples = 0;
  std::string note;           // why there are not enough samples
};

struct PerfBaseline {
  std::string label;  // what the baseline is, e.g. its path
  std::string rule;   // the rule in words, e.g. "alpha 0.05, min effect 5 %"
  std::map<std::string, BaselineRow> rows;  // by case id
  size_t only_in_baseline = 0;              // timed there, not in this run
  size_t count(const std::string& verdict) const {
    size_t n = 0;
    for (const auto& [id, row] : rows) n += row.verdict == verdict;
    return n;
  }
};

}  // namespace oprig::reports
