// Samples and in-memory Google Benchmark runs shared by the perf unit tests.
// kBase9 is the baseline whose scipy values make_reference_values.py prints.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perf/gbench_json.hpp"

namespace oprig::perf::test {

inline const std::vector<double> kBase9 = {4.91, 5.02, 4.87, 5.10, 4.95, 4.99, 5.31, 4.90, 5.05};

inline std::vector<double> scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (double x : v) out.push_back(factor * x);
  return out;
}

// A run as libbenchmark writes it: one "iteration" entry per repetition, times
// in ms, cpu_time = real_time / 100 (so a test can tell the two metrics apart).
inline BenchmarkFile gbench_run(const std::string& path,
                                const std::vector<std::pair<std::string, std::vector<double>>>& benchmarks) {
  nlohmann::json doc = {{"context", nlohmann::json::object()}, {"benchmarks", nlohmann::json::array()}};
  for (const auto& [name, ms] : benchmarks)
    for (size_t i = 0; i < ms.size(); ++i)
      doc["benchmarks"].push_back({{"name", name},
                                   {"run_name", name},
                                   {"run_type", "iteration"},
                                   {"repetitions", ms.size()},
                                   {"repetition_index", i},
                                   {"iterations", 1},
                                   {"real_time", ms[i]},
                                   {"cpu_time", ms[i] / 100},
                                   {"time_unit", "ms"}});
  return parse_benchmark_json(doc, path);
}

}  // namespace oprig::perf::test
