#include "bench/launch_bound.hpp"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "reports/atomic_file.hpp"

namespace oprig::harness {

double launch_overhead_ns(const perf::BackendPeaks& peaks) {
  if (peaks.simulated || !peaks.launch_host_us.measured()) return 0;
  return peaks.launch_host_us.median * 1e3;
}

bool is_launch_bound(double median_ns, double overhead_ns) {
  return overhead_ns > 0 && median_ns < kLaunchBoundFactor * overhead_ns;
}

void mark_launch_bound(const std::filesystem::path& benchmark_json, const std::set<std::string>& case_ids) {
  if (case_ids.empty()) return;
  std::ifstream in(benchmark_json);
  if (!in) throw std::runtime_error(benchmark_json.string() + ": cannot open");
  nlohmann::json all;
  try {
    all = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(benchmark_json.string() + ": " + e.what());
  }
  in.close();
  for (nlohmann::json& entry : all["benchmarks"]) {
    // Rows are named "<case id>/<libbenchmark's suffixes>".
    const std::string name = entry.value("run_name", entry.value("name", std::string()));
    const std::string id = name.substr(0, name.find('/'));
    if (case_ids.count(id)) entry["oprig_launch_bound"] = true;
  }
  reports::write_file_atomically(benchmark_json, all.dump(2));
}

}  // namespace oprig::harness
