// `oprig bench`: each op × backend × dtype × bench shape of the plans runs
// under Google Benchmark. Device backends report device time (profiling
// events, timestamp queries, the DSP cost model) through manual timing; the
// cpu backend reports host wall time. Counters: elements/s, bytes/s, GB/s.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "reports/results.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {

struct BenchOptions {
  std::filesystem::path out_dir;
  int repetitions = 0;  // 0: the plan's
  double min_time_s = 0.2;
  std::string filter;   // --benchmark_filter
};

// Returns the cases with perf filled (and the correctness verdict of one run).
// Writes Google Benchmark's JSON to out_dir/benchmark.json.
std::vector<reports::CaseResult> run_benchmarks(const Suite& suite, const Selection& selection,
                                                const BenchOptions& options);

}  // namespace oprig::harness
