#include "perf/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "perf/perf_error.hpp"
#include "perf/regression_rule.hpp"
#include "reports/atomic_file.hpp"
#include "reports/text.hpp"

namespace oprig::perf {
namespace {

constexpr const char* kSchema = "oprig-calibration/1";

nlohmann::json figure_json(const Figure& f) {
  return {{"median", f.median}, {"min", f.min}, {"max", f.max}, {"spread", f.spread()}, {"samples", f.samples}};
}

Figure figure_from(const nlohmann::json& j, const std::string& where) {
  if (j.is_null()) return {};
  if (!j.is_object() || !j.contains("samples") || !j["samples"].is_array())
    throw PerfInputError(where + ": a figure without \"samples\"");
  try {
    return Figure::of(j["samples"].get<std::vector<double>>());
  } catch (const nlohmann::json::exception&) {
    throw PerfInputError(where + ": figure samples are not numbers");
  }
}

template <typename T>
T get(const nlohmann::json& j, const char* key, const std::string& where, T fallback) {
  if (!j.contains(key)) return fallback;
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw PerfInputError(where + ": \"" + key + "\" has the wrong type");
  }
}

std::string bytes_text(uint64_t bytes) {
  char text[32];
  if (bytes >= (1ull << 30)) std::snprintf(text, sizeof text, "%g GiB", static_cast<double>(bytes) / (1ull << 30));
  else if (bytes >= (1ull << 20)) std::snprintf(text, sizeof text, "%g MiB", static_cast<double>(bytes) / (1ull << 20));
  else std::snprintf(text, sizeof text, "%g KiB", static_cast<double>(bytes) / 1024);
  return text;
}

std::string figure_text(const Figure& f, const char* unit) {
  if (!f.measured()) return "-";
  char text[96];
  std::snprintf(text, sizeof text, "%.4g %s (%.4g..%.4g)", f.median, unit, f.min, f.max);
  return text;
}

}  // namespace

Figure Figure::of(std::vector<double> samples) {
  Figure f;
  f.samples = std::move(samples);
  if (f.samples.empty()) return f;
  f.median = perf::median(f.samples);
  f.min = *std::min_element(f.samples.begin(), f.samples.end());
  f.max = *std::max_element(f.samples.begin(), f.samples.end());
  return f;
}

double BandwidthPoint::best_median() const { return std::max(copy_gbps.median, triad_gbps.median); }
double BandwidthPoint::best_max() const { return std::max(copy_gbps.max, triad_gbps.max); }

const BackendPeaks* Calibration::find(const std::string& backend) const {
  for (const BackendPeaks& b : backends)
    if (b.backend == backend) return &b;
  return nullptr;
}

nlohmann::json calibration_to_json(const Calibration& c) {
  nlohmann::json backends = nlohmann::json::array();
  for (const BackendPeaks& b : c.backends) {
    nlohmann::json bw = nlohmann::json::array();
    for (const BandwidthPoint& p : b.bandwidth) {
      nlohmann::json point = {{"working_set_bytes", p.working_set_bytes}};
      if (p.skipped.empty()) {
        point["copy_gbps"] = figure_json(p.copy_gbps);
        point["triad_gbps"] = figure_json(p.triad_gbps);
      } else {
        point["skipped"] = p.skipped;
      }
      bw.push_back(std::move(point));
    }
    nlohmann::json j = {{"backend", b.backend}, {"available", b.available}};
    if (!b.available) j["unavailable_reason"] = b.unavailable_reason;
    j["simulated"] = b.simulated;
    j["device"] = b.device;
    j["driver"] = b.driver;
    j["timer"] = b.timer;
    j["method"] = b.method;
    j["bandwidth"] = std::move(bw);
    if (b.fma_gflops.measured()) j["fma_gflops"] = figure_json(b.fma_gflops);
    j["fma_kernel"] = b.fma_kernel;
    if (b.launch_host_us.measured()) j["launch_host_us"] = figure_json(b.launch_host_us);
    if (b.launch_device_us.measured()) j["launch_device_us"] = figure_json(b.launch_device_us);
    j["notes"] = b.notes;
    backends.push_back(std::move(j));
  }
  return {{"schema", kSchema},
          {"created_at", c.created_at},
          {"oprig_version", c.oprig_version},
          {"git_revision", c.git_revision},
          {"machine", machine_to_json(c.machine)},
          {"repetitions", c.repetitions},
          {"batch_seconds", c.batch_seconds},
          {"quick", c.quick},
          {"backends", std::move(backends)}};
}

Calibration calibration_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw PerfInputError(where + ": not an oprig calibration (not an object)");
  const std::string schema = get<std::string>(j, "schema", where, "");
  if (schema != kSchema)
    throw PerfInputError(where + ": schema \"" + schema + "\", expected \"" + kSchema + "\" (an oprig calibrate file)");
  Calibration c;
  c.created_at = get<std::string>(j, "created_at", where, "");
  c.oprig_version = get<std::string>(j, "oprig_version", where, "");
  c.git_revision = get<std::string>(j, "git_revision", where, "");
  if (!j.contains("machine")) throw PerfInputError(where + ": no \"machine\"");
  c.machine = machine_from_json(j["machine"], where);
  c.repetitions = get<int>(j, "repetitions", where, 0);
  c.batch_seconds = get<double>(j, "batch_seconds", where, 0);
  c.quick = get<bool>(j, "quick", where, false);
  const nlohmann::json backends = get<nlohmann::json>(j, "backends", where, nlohmann::json::array());
  if (!backends.is_array()) throw PerfInputError(where + ": \"backends\" is not an array");
  for (const nlohmann::json& b : backends) {
    if (!b.is_object()) throw PerfInputError(where + ": a backend entry is not an object");
    BackendPeaks p;
    p.backend = get<std::string>(b, "backend", where, "");
    if (p.backend.empty()) throw PerfInputError(where + ": a backend entry without \"backend\"");
    const std::string at = where + " backend " + p.backend;
    p.available = get<bool>(b, "available", at, true);
    p.unavailable_reason = get<std::string>(b, "unavailable_reason", at, "");
    p.simulated = get<bool>(b, "simulated", at, false);
    p.device = get<std::string>(b, "device", at, "");
    p.driver = get<std::string>(b, "driver", at, "");
    p.timer = get<std::string>(b, "timer", at, "");
    p.method = get<std::string>(b, "method", at, "");
    const nlohmann::json bw = get<nlohmann::json>(b, "bandwidth", at, nlohmann::json::array());
    if (!bw.is_array()) throw PerfInputError(at + ": \"bandwidth\" is not an array");
    for (const nlohmann::json& point : bw) {
      if (!point.is_object()) throw PerfInputError(at + ": a bandwidth point is not an object");
      BandwidthPoint bp;
      bp.working_set_bytes = get<uint64_t>(point, "working_set_bytes", at, 0);
      bp.skipped = get<std::string>(point, "skipped", at, "");
      bp.copy_gbps = figure_from(point.value("copy_gbps", nlohmann::json()), at);
      bp.triad_gbps = figure_from(point.value("triad_gbps", nlohmann::json()), at);
      p.bandwidth.push_back(std::move(bp));
    }
    p.fma_gflops = figure_from(b.value("fma_gflops", nlohmann::json()), at);
    p.fma_kernel = get<std::string>(b, "fma_kernel", at, "");
    p.launch_host_us = figure_from(b.value("launch_host_us", nlohmann::json()), at);
    p.launch_device_us = figure_from(b.value("launch_device_us", nlohmann::json()), at);
    p.notes = get<std::vector<std::string>>(b, "notes", at, {});
    c.backends.push_back(std::move(p));
  }
  return c;
}

Calibration read_calibration_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  if (!in) throw PerfInputError(path.string() + (std::filesystem::exists(path, ec) ? ": cannot be read" : ": does not exist (run `oprig calibrate`)"));
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
    throw PerfInputError(path.string() + ": not valid JSON: " + e.what());
  }
  return calibration_from_json(j, path.string());
}

void write_calibration_file(const std::filesystem::path& path, const Calibration& calibration, bool force) {
  std::error_code ec;
  if (!force && std::filesystem::exists(path, ec))
    throw PerfInputError(path.string() + ": exists already; --force replaces it, --out writes elsewhere");
  try {
    reports::write_file_atomically(path, calibration_to_json(calibration).dump(1) + "\n");
  } catch (const reports::ReportWriteError& e) {
    throw PerfInputError(e.what());
  }
}

std::string calibration_machine_mismatch(const Calibration& c, const MachineInfo& machine) {
  if (c.machine.fingerprint == machine.fingerprint) return "";
  return "the calibration was measured on machine " + c.machine.fingerprint + " (" + machine_summary(c.machine) +
         "), this is " + machine.fingerprint + " (" + machine_summary(machine) +
         "): its peaks do not describe this machine; run `oprig calibrate` here";
}

std::string render_calibration_text(const Calibration& c) {
  std::string out = "machine " + c.machine.fingerprint + ": " + machine_summary(c.machine) + "\n";
  out += std::to_string(c.repetitions) + " repetitions of at least " + reports::format_number(c.batch_seconds * 1e3, 3) +
         " ms each; figures are median (min..max)" + (c.quick ? "; QUICK mode: small sizes only" : "") + "\n";
  for (const BackendPeaks& b : c.backends) {
    out += "\n" + b.backend + ": ";
    if (!b.available) {
      out += "unavailable (" + b.unavailable_reason + ")\n";
      continue;
    }
    out += b.device + " (" + b.driver + "), " + (b.simulated ? "SIMULATED: " : "timer " + b.timer + "; ") + b.method + "\n";
    for (const BandwidthPoint& p : b.bandwidth) {
      out += "  " + std::string(b.simulated ? "bandwidth         " : "working set ") +
             (b.simulated ? "" : bytes_text(p.working_set_bytes) + std::string(10 - std::min<size_t>(10, bytes_text(p.working_set_bytes).size()), ' '));
      if (!p.skipped.empty()) out += "skipped: " + p.skipped + "\n";
      else out += "copy " + figure_text(p.copy_gbps, "GB/s") + "   triad " + figure_text(p.triad_gbps, "GB/s") + "\n";
    }
    if (b.fma_gflops.measured())
      out += "  peak " + figure_text(b.fma_gflops, b.simulated ? "GOP/s" : "GFLOP/s") + (b.fma_kernel.empty() ? "" : "  [" + b.fma_kernel + "]") + "\n";
    if (b.launch_host_us.measured())
      out += "  minimal execute: host " + figure_text(b.launch_host_us, "us") + ", device-reported " +
             figure_text(b.launch_device_us, "us") + "\n";
    for (const std::string& note : b.notes) out += "  note: " + note + "\n";
  }
  return out;
}

}  // namespace oprig::perf
