#include "perf/gbench_json.hpp"

#include <algorithm>
#include <fstream>
#include <cctype>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

#include "perf/perf_error.hpp"

namespace oprig::perf {
namespace {

// Fields of an entry that are not user counters.
const std::set<std::string> kStandardFields = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
    "aggregate_unit", "error_occurred", "error_message", "skipped", "skip_message", "label",
    "bytes_per_second", "items_per_second", "big_o", "rms"};

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw PerfInputError(path.string() + ": " + what);
}

std::string entry_where(size_t index, const nlohmann::json& entry) {
  std::string where = "benchmarks[" + std::to_string(index) + "]";
  if (entry.is_object() && entry.contains("name") && entry["name"].is_string())
    where += " (\"" + entry["name"].get<std::string>() + "\")";
  return where;
}

bool failed_entry(const nlohmann::json& entry, std::string* message) {
  const bool error = entry.value("error_occurred", false);
  // libbenchmark >= 1.8 writes "skipped" (1 = error, 2 = user skip) instead.
  const bool skipped = entry.contains("skipped") && entry["skipped"].is_number() && entry["skipped"].get<double>() != 0;
  if (!error && !skipped) return false;
  *message = "error_occurred";
  for (const char* key : {"error_message", "skip_message"})
    if (entry.contains(key) && entry[key].is_string()) {
      *message = entry[key].get<std::string>();
      break;
    }
  return true;
}

}  // namespace

const char* time_metric_field(TimeMetric metric) {
  return metric == TimeMetric::kRealTime ? "real_time" : "cpu_time";
}

double nanoseconds_per(const std::string& time_unit) {
  if (time_unit == "ns") return 1;
  if (time_unit == "us") return 1e3;
  if (time_unit == "ms") return 1e6;
  if (time_unit == "s") return 1e9;
  return 0;
}

std::string benchmark_identity(const std::string& run_name) {
  // By hand rather than std::regex: GCC 12's <regex> trips -Wmaybe-uninitialized under ASan.
  static constexpr std::string_view kMarker = "/repeats:";
  std::string out;
  size_t from = 0;
  for (size_t at = run_name.find(kMarker); at != std::string::npos; at = run_name.find(kMarker, from)) {
    size_t end = at + kMarker.size();
    while (end < run_name.size() && std::isdigit(static_cast<unsigned char>(run_name[end]))) ++end;
    if (end == at + kMarker.size()) {  // no digits: not the marker
      out += run_name.substr(from, end - from);
    } else {
      out += run_name.substr(from, at - from);
    }
    from = end;
  }
  return out + run_name.substr(from);
}

const BenchmarkSamples* BenchmarkFile::find(const std::string& name) const {
  for (const BenchmarkSamples& b : benchmarks)
    if (b.name == name) return &b;
  return nullptr;
}

BenchmarkFile parse_benchmark_json(const nlohmann::json& document, const std::filesystem::path& path) {
  BenchmarkFile file;
  file.path = path;
  if (!document.is_object()) fail(path, "not a Google Benchmark JSON file (the top level is not an object)");
  if (!document.contains("benchmarks") || !document["benchmarks"].is_array())
    fail(path, "no \"benchmarks\" array: not Google Benchmark JSON output (--benchmark_out_format=json)");
  if (document.contains("context")) {
    if (!document["context"].is_object()) fail(path, "\"context\" is not an object");
    file.context = document["context"];
  }
  std::map<std::string, size_t> index_of;
  // Repetition values with their index, sorted at the end.
  std::map<std::string, std::vector<std::tuple<long, double, double>>> repetitions;
  std::map<std::string, std::map<std::string, std::vector<std::pair<long, double>>>> counter_reps;
  const nlohmann::json& entries = document["benchmarks"];
  for (size_t i = 0; i < entries.size(); ++i) {
    const nlohmann::json& e = entries[i];
    const std::string where = entry_where(i, e);
    if (!e.is_object()) fail(path, where + " is not an object");
    if (!e.contains("name") || !e["name"].is_string() || e["name"].get<std::string>().empty())
      fail(path, where + " has no \"name\"");
    // An empty run_name would make a benchmark without a name: "name" stands in.
    const std::string run_name = e.contains("run_name") && e["run_name"].is_string() &&
                                         !e["run_name"].get<std::string>().empty()
                                     ? e["run_name"].get<std::string>()
                                     : e["name"].get<std::string>();
    const std::string run_type = e.contains("run_type") && e["run_type"].is_string() ? e["run_type"].get<std::string>() : "iteration";
    if (run_type != "iteration" && run_type != "aggregate")
      fail(path, where + ": unknown run_type \"" + run_type + "\" (expected iteration or aggregate)");
    const std::string name = benchmark_identity(run_name);
    if (name.empty()) fail(path, where + ": run_name \"" + run_name + "\" names no benchmark once /repeats:N is dropped");
    auto [it, inserted] = index_of.try_emplace(name, file.benchmarks.size());
    if (inserted) {
      file.benchmarks.emplace_back();
      file.benchmarks.back().name = name;
      file.benchmarks.back().run_name = run_name;
    }
    BenchmarkSamples& b = file.benchmarks[it->second];

    std::string error;
    if (failed_entry(e, &error)) {
      if (run_type == "iteration") b.errors.push_back(error);
      continue;
    }
    // Aggregates that are not times: cv (a percentage), BigO and RMS (complexity fits).
    if (run_type == "aggregate" && (e.value("aggregate_unit", std::string("time")) != "time" ||
                                    !e.contains("real_time") || !e.contains("cpu_time")))
      continue;
    if (!e.contains("time_unit") || !e["time_unit"].is_string())
      fail(path, where + " has no \"time_unit\"");
    const std::string unit = e["time_unit"].get<std::string>();
    const double scale = nanoseconds_per(unit);
    if (scale == 0) fail(path, where + ": unknown time_unit \"" + unit + "\" (expected ns, us, ms or s)");
    for (const char* field : {"real_time", "cpu_time"})
      if (!e.contains(field) || !e[field].is_number())
        fail(path, where + ": \"" + field + "\" is missing or not a number");
    const double real_ns = e["real_time"].get<double>() * scale;
    const double cpu_ns = e["cpu_time"].get<double>() * scale;
    if (b.time_unit.empty()) b.time_unit = unit;
    if (run_type == "aggregate") {
      const std::string aggregate = e.value("aggregate_name", std::string("aggregate"));
      b.aggregates_real_ns[aggregate] = real_ns;
      b.aggregates_cpu_ns[aggregate] = cpu_ns;
      continue;
    }
    const long rep = e.contains("repetition_index") && e["repetition_index"].is_number_integer()
                         ? e["repetition_index"].get<long>()
                         : static_cast<long>(repetitions[name].size());
    repetitions[name].emplace_back(rep, real_ns, cpu_ns);
    for (const auto& [key, value] : e.items())
      if (!kStandardFields.count(key) && value.is_number())
        counter_reps[name][key].emplace_back(rep, value.get<double>());
    if (b.counters.empty())
      for (const auto& [key, value] : e.items())
        if (!kStandardFields.count(key) && value.is_number()) b.counters[key] = value.get<double>();
  }
  for (BenchmarkSamples& b : file.benchmarks) {
    auto& reps = repetitions[b.name];
    std::stable_sort(reps.begin(), reps.end(),
                     [](const auto& a, const auto& c) { return std::get<0>(a) < std::get<0>(c); });
    for (const auto& [rep, real_ns, cpu_ns] : reps) {
      b.real_ns.push_back(real_ns);
      b.cpu_ns.push_back(cpu_ns);
    }
    for (auto& [key, values] : counter_reps[b.name]) {
      std::stable_sort(values.begin(), values.end(),
                       [](const auto& a, const auto& c) { return a.first < c.first; });
      for (const auto& [rep, value] : values) b.counter_samples[key].push_back(value);
    }
  }
  return file;
}

BenchmarkFile read_benchmark_file(const std::filesystem::path& given) {
  std::filesystem::path path = given;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    path /= "benchmark.json";
    if (!std::filesystem::exists(path, ec))
      fail(given, "is a folder without benchmark.json (expected an `oprig bench` output folder or a JSON file)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::filesystem::exists(path, ec) ? "cannot be read" : "does not exist");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
    fail(path, std::string("not valid JSON: ") + e.what());
  }
  try {
    return parse_benchmark_json(document, path);
  } catch (const nlohmann::json::exception& e) {  // a field of another type than libbenchmark writes
    fail(path, std::string("not Google Benchmark JSON: ") + e.what());
  }
}

}  // namespace oprig::perf
