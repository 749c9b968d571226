#include "perf/history.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "perf/perf_error.hpp"
#include "perf/regression_rule.hpp"

namespace oprig::perf {
namespace {

constexpr const char* kSchema = "oprig-history/1";

std::string safe_part(const std::string& text, const char* fallback) {
  std::string out;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
    out += ok ? c : '-';
  }
  return out.empty() ? fallback : out;
}

std::string system_error(const std::string& what) { return what + ": " + std::strerror(errno); }

void write_all(int fd, const std::string& content, const std::filesystem::path& path) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw PerfInputError(system_error("cannot write " + path.string()));
    }
    done += static_cast<size_t>(n);
  }
}

template <typename T>
T get_field(const nlohmann::json& j, const char* key, const std::filesystem::path& file, bool required, T fallback) {
  if (!j.contains(key)) {
    if (required) throw PerfInputError(file.string() + ": not an oprig history record (no \"" + key + "\")");
    return fallback;
  }
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw PerfInputError(file.string() + ": \"" + key + "\" has the wrong type");
  }
}

}  // namespace

std::string to_utc_iso8601(const std::string& date) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, consumed = 0;
  if (std::sscanf(date.c_str(), "%4d-%2d-%2d%*1[T ]%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &consumed) != 6)
    return "";
  std::string rest = date.substr(static_cast<size_t>(consumed));
  if (!rest.empty() && rest[0] == '.') {  // fractional seconds
    size_t k = 1;
    while (k < rest.size() && std::isdigit(static_cast<unsigned char>(rest[k]))) ++k;
    rest = rest.substr(k);
  }
  long offset_s = 0;
  if (rest == "Z" || rest.empty()) {
    offset_s = 0;
  } else {
    int oh = 0, om = 0;
    char sign = 0;
    if (std::sscanf(rest.c_str(), "%c%2d:%2d", &sign, &oh, &om) != 3 || (sign != '+' && sign != '-')) return "";
    offset_s = (sign == '-' ? -1 : 1) * (oh * 3600L + om * 60L);
  }
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  const std::time_t utc = ::timegm(&tm) - offset_s;
  std::tm out{};
  ::gmtime_r(&utc, &out);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &out);
  return text;
}

HistoryRecord make_history_record(const BenchmarkFile& run, const MachineInfo& machine,
                                  const std::string& machine_source, const std::string& git_revision,
                                  const std::string& git_revision_source, const std::string& now_utc) {
  HistoryRecord r;
  const std::string context_date = run.context.is_object() ? run.context.value("date", std::string()) : "";
  r.run_date = to_utc_iso8601(context_date);
  if (r.run_date.empty()) r.run_date = now_utc;
  r.added_at = now_utc;
  r.git_revision = git_revision;
  r.git_revision_source = git_revision_source;
  r.machine = machine;
  r.machine_source = machine_source;
  r.source = run.path.string();
  r.gbench_context = run.context.is_null() ? nlohmann::json::object() : run.context;
  for (const BenchmarkSamples& b : run.benchmarks)
    r.benchmarks.push_back({b.name, b.real_ns, b.cpu_ns, b.counters, b.errors.size()});
  return r;
}

std::string history_file_stem(const HistoryRecord& r) {
  return safe_part(r.run_date.substr(0, 10), "undated") + "_" + safe_part(r.git_revision, "unknown") + "_" +
         safe_part(r.machine.fingerprint, "nomachine");
}

nlohmann::json history_record_to_json(const HistoryRecord& r) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const HistoryBenchmark& b : r.benchmarks) {
    nlohmann::json entry = {{"name", b.name}, {"real_time_ns", b.real_ns}, {"cpu_time_ns", b.cpu_ns}};
    if (!b.counters.empty()) entry["counters"] = b.counters;
    if (b.failed_repetitions) entry["failed_repetitions"] = b.failed_repetitions;
    benchmarks.push_back(std::move(entry));
  }
  return {{"schema", kSchema},
          {"run_date", r.run_date},
          {"added_at", r.added_at},
          {"git_revision", r.git_revision},
          {"git_revision_source", r.git_revision_source},
          {"machine", machine_to_json(r.machine)},
          {"machine_source", r.machine_source},
          {"source", r.source},
          {"gbench_context", r.gbench_context},
          {"benchmarks", benchmarks}};
}

HistoryRecord history_record_from_json(const nlohmann::json& j, const std::filesystem::path& file) {
  if (!j.is_object()) throw PerfInputError(file.string() + ": not an oprig history record (not an object)");
  const std::string schema = get_field<std::string>(j, "schema", file, true, "");
  if (schema != kSchema)
    throw PerfInputError(file.string() + ": schema \"" + schema + "\", expected \"" + kSchema + "\"");
  HistoryRecord r;
  r.file = file;
  r.run_date = get_field<std::string>(j, "run_date", file, true, "");
  if (to_utc_iso8601(r.run_date).empty())
    throw PerfInputError(file.string() + ": run_date \"" + r.run_date + "\" is not an ISO 8601 date");
  r.added_at = get_field<std::string>(j, "added_at", file, false, "");
  r.git_revision = get_field<std::string>(j, "git_revision", file, true, "");
  r.git_revision_source = get_field<std::string>(j, "git_revision_source", file, false, "");
  if (!j.contains("machine")) throw PerfInputError(file.string() + ": not an oprig history record (no \"machine\")");
  r.machine = machine_from_json(j["machine"], file.string());
  r.machine_source = get_field<std::string>(j, "machine_source", file, false, "");
  r.source = get_field<std::string>(j, "source", file, false, "");
  r.gbench_context = j.value("gbench_context", nlohmann::json::object());
  const nlohmann::json benchmarks = get_field<nlohmann::json>(j, "benchmarks", file, true, {});
  if (!benchmarks.is_array()) throw PerfInputError(file.string() + ": \"benchmarks\" is not an array");
  for (const nlohmann::json& b : benchmarks) {
    if (!b.is_object()) throw PerfInputError(file.string() + ": a benchmark entry is not an object");
    HistoryBenchmark hb;
    hb.name = get_field<std::string>(b, "name", file, true, "");
    hb.real_ns = get_field<std::vector<double>>(b, "real_time_ns", file, true, {});
    hb.cpu_ns = get_field<std::vector<double>>(b, "cpu_time_ns", file, false, {});
    hb.counters = get_field<std::map<std::string, double>>(b, "counters", file, false, {});
    hb.failed_repetitions = get_field<size_t>(b, "failed_repetitions", file, false, 0);
    r.benchmarks.push_back(std::move(hb));
  }
  return r;
}

std::filesystem::path write_history_record(const std::filesystem::path& dir, HistoryRecord record) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw PerfInputError(dir.string() + ": cannot create the history folder: " + ec.message());
  const std::string stem = history_file_stem(record);
  std::string temp = (dir / ("." + stem + ".XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw PerfInputError(system_error("cannot create a file in " + dir.string()));
  struct Cleanup {
    std::string path;
    int fd;
    ~Cleanup() {
      if (fd >= 0) ::close(fd);
      ::unlink(path.c_str());
    }
  } cleanup{temp, fd};
  for (int n = 1; n < 1000; ++n) {
    const std::filesystem::path target = dir / (stem + (n == 1 ? "" : "_" + std::to_string(n)) + ".json");
    record.file = target;
    // The content does not name its own file, so it is the same for every try.
    if (n == 1) {
      write_all(fd, history_record_to_json(record).dump(1) + "\n", temp);
      if (::fsync(fd) != 0) throw PerfInputError(system_error("cannot sync " + temp));
    }
    if (::link(temp.c_str(), target.c_str()) == 0) {
      const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
      if (dir_fd >= 0) {
        ::fsync(dir_fd);
        ::close(dir_fd);
      }
      return target;
    }
    if (errno != EEXIST) throw PerfInputError(system_error("cannot create " + target.string()));
  }
  throw PerfInputError(dir.string() + ": 999 records named " + stem + " already");
}

std::vector<HistoryRecord> read_history(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw PerfInputError(dir.string() + ": no such history folder");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && entry.path().extension() == ".json" && name[0] != '.') files.push_back(entry.path());
  }
  if (ec) throw PerfInputError(dir.string() + ": cannot list the folder: " + ec.message());
  std::vector<HistoryRecord> records;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw PerfInputError(file.string() + ": cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
      throw PerfInputError(file.string() + ": not valid JSON: " + e.what());
    }
    records.push_back(history_record_from_json(j, file));
  }
  std::sort(records.begin(), records.end(), [](const HistoryRecord& a, const HistoryRecord& b) {
    const std::string da = to_utc_iso8601(a.run_date), db = to_utc_iso8601(b.run_date);
    if (da != db) return da < db;
    return a.file.filename() < b.file.filename();
  });
  return records;
}

SeriesSelection select_series(const std::vector<HistoryRecord>& records, TimeMetric metric,
                              const std::string& fingerprint, bool any_machine, size_t last_nights) {
  SeriesSelection selection;
  if (!any_machine) {
    selection.fingerprint = fingerprint;
    if (selection.fingerprint.empty() && !records.empty()) selection.fingerprint = records.back().machine.fingerprint;
  }
  std::vector<const HistoryRecord*> used;
  for (const HistoryRecord& r : records) {
    if (any_machine || r.machine.fingerprint == selection.fingerprint) used.push_back(&r);
    else ++selection.records_other_machines;
  }
  if (last_nights > 0 && used.size() > last_nights) used.erase(used.begin(), used.end() - static_cast<std::ptrdiff_t>(last_nights));
  selection.records_used = used.size();
  std::map<std::string, size_t> index_of;
  for (const HistoryRecord* r : used) {
    for (const HistoryBenchmark& b : r->benchmarks) {
      std::vector<double> values;
      for (double v : b.samples(metric))
        if (v > 0 && std::isfinite(v)) values.push_back(v);
      if (values.empty()) continue;
      auto [it, inserted] = index_of.try_emplace(b.name, selection.series.size());
      if (inserted) selection.series.push_back({b.name, {}});
      NightPoint p;
      p.run_date = r->run_date;
      p.git_revision = r->git_revision;
      p.median_ns = median(values);
      p.min_ns = *std::min_element(values.begin(), values.end());
      p.max_ns = *std::max_element(values.begin(), values.end());
      p.samples = values.size();
      selection.series[it->second].points.push_back(p);
    }
  }
  return selection;
}

}  // namespace oprig::perf
