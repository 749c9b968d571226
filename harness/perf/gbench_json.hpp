// Reading Google Benchmark's JSON output (--benchmark_out_format=json, the
// schema of libbenchmark 1.7: a "context" object and a "benchmarks" array):
// what `oprig bench` writes into OUT/benchmark.json, and what any Google
// Benchmark binary writes.
//
// Per-repetition entries ("run_type": "iteration", one per repetition, with
// "repetition_index") are the samples; aggregates ("run_type": "aggregate":
// mean, median, stddev, cv, ...) are kept for display only. Entries of the
// pre-1.5 schema without "run_type" count as iterations, as compare.py does.
// Every time is converted to nanoseconds from its entry's "time_unit".
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace oprig::perf {

enum class TimeMetric { kRealTime, kCpuTime };
const char* time_metric_field(TimeMetric metric);  // "real_time", "cpu_time"

struct BenchmarkSamples {
  std::string name;       // the identity used to match runs: run_name without "/repeats:N"
  std::string run_name;   // as written
  std::string time_unit;  // of its entries, e.g. "ms"
  std::vector<double> real_ns, cpu_ns;            // one per repetition, by repetition_index
  std::map<std::string, double> aggregates_real_ns;  // "mean", "median", ... (time aggregates)
  std::map<std::string, double> aggregates_cpu_ns;
  std::map<std::string, double> counters;         // user counters of the first repetition
  // Every numeric user counter per repetition, by repetition_index (a counter
  // missing from some repetition is left out for those).
  std::map<std::string, std::vector<double>> counter_samples;
  std::vector<std::string> errors;                // error messages of repetitions that failed
  const std::vector<double>& samples(TimeMetric metric) const {
    return metric == TimeMetric::kRealTime ? real_ns : cpu_ns;
  }
};

struct BenchmarkFile {
  std::filesystem::path path;  // the JSON file read
  nlohmann::json context;      // the "context" object (empty when absent)
  std::vector<BenchmarkSamples> benchmarks;  // in the order of their first entry
  const BenchmarkSamples* find(const std::string& name) const;
};

// `path` is a JSON file, or a folder holding benchmark.json (an `oprig bench`
// output folder). Throws PerfInputError naming the file and the problem: not
// found, not JSON, no "benchmarks" array, an entry without a name, a time
// field that is not a number, an unknown time_unit.
BenchmarkFile read_benchmark_file(const std::filesystem::path& path);
BenchmarkFile parse_benchmark_json(const nlohmann::json& document, const std::filesystem::path& path_for_messages);

// Multiplier from a Google Benchmark time_unit ("ns", "us", "ms", "s") to
// nanoseconds; 0 for anything else.
double nanoseconds_per(const std::string& time_unit);

// "BM_x/repeats:9/manual_time" -> "BM_x/manual_time": the repetition count is
// how a run was measured, not what, so runs with 9 and 15 repetitions match.
std::string benchmark_identity(const std::string& run_name);

}  // namespace oprig::perf
