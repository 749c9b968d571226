// JSON (de)serialisation of the results model. Reading is strict about types
// and names every offending field by its path, because results files are
// hand-edited, truncated by killed runs and produced by older versions.
#include "reports/results.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <type_traits>

namespace oprig::reports {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ResultsFormatError((path.empty() ? std::string("(top level)") : path) + ": " + what);
}

std::string child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string element(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

[[noreturn]] void wrong_type(const std::string& path, const char* expected, const json& j) {
  fail(path, std::string("expected ") + expected + ", got " + j.type_name());
}

// Non-finite doubles are legitimate results (atan(NaN) must be NaN) but JSON
// cannot hold them; they travel as strings.
json number_to_json(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  return d;
}

json numbers_to_json(const std::vector<double>& values) {
  json out = json::array();
  for (double d : values) out.push_back(number_to_json(d));
  return out;
}

// ---- typed readers: one overload per field type --------------------------

void read_struct(const json& j, const std::string& path, Mismatch& m);
void read_struct(const json& j, const std::string& path, CompareStats& s);
void read_struct(const json& j, const std::string& path, PerfStats& p);
void read_struct(const json& j, const std::string& path, TensorRecord& t);
void read_struct(const json& j, const std::string& path, CaseResult& c);
void read_struct(const json& j, const std::string& path, BackendRecord& b);
void read_struct(const json& j, const std::string& path, PackageRecord& p);
void read_struct(const json& j, const std::string& path, Environment& e);
void read_struct(const json& j, const std::string& path, RunResults& r);
void read_struct(const json& j, const std::string& path, ShardRecord& s);
void read_struct(const json& j, const std::string& path, MergeInput& m);
void read_struct(const json& j, const std::string& path, DeviceRecord& d);
void read_struct(const json& j, const std::string& path, FarmRecord& f);

template <class T>
concept ResultsStruct = requires(const json& j, const std::string& path, T& out) {
  read_struct(j, path, out);
};

void read_value(const json& j, const std::string& path, std::string& out) {
  if (!j.is_string()) wrong_type(path, "a string", j);
  out = j.get<std::string>();
}

void read_value(const json& j, const std::string& path, bool& out) {
  if (!j.is_boolean()) wrong_type(path, "true or false", j);
  out = j.get<bool>();
}

void read_value(const json& j, const std::string& path, uint64_t& out) {
  if (j.is_number_unsigned()) {
    out = j.get<uint64_t>();
  } else if (j.is_number_integer()) {
    if (j.get<int64_t>() >= 0) {
      out = static_cast<uint64_t>(j.get<int64_t>());
      return;
    }
    fail(path, "expected a non-negative integer, got " + std::to_string(j.get<int64_t>()));
  } else {
    wrong_type(path, "a non-negative integer", j);
  }
}

void read_value(const json& j, const std::string& path, int64_t& out) {
  if (j.is_number_unsigned()) {
    if (j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail(path, "integer out of range");
    out = j.get<int64_t>();
  } else if (j.is_number_integer()) {
    out = j.get<int64_t>();
  } else {
    wrong_type(path, "an integer", j);
  }
}

void read_value(const json& j, const std::string& path, int& out) {
  int64_t wide = 0;
  read_value(j, path, wide);
  if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max())
    fail(path, "integer out of range");
  out = static_cast<int>(wide);
}

void read_value(const json& j, const std::string& path, unsigned& out) {
  uint64_t wide = 0;
  read_value(j, path, wide);
  if (wide > std::numeric_limits<unsigned>::max()) fail(path, "integer out of range");
  out = static_cast<unsigned>(wide);
}

void read_value(const json& j, const std::string& path, double& out) {
  if (j.is_number()) {
    out = j.get<double>();
    return;
  }
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "NaN") { out = std::numeric_limits<double>::quiet_NaN(); return; }
    if (s == "Infinity") { out = std::numeric_limits<double>::infinity(); return; }
    if (s == "-Infinity") { out = -std::numeric_limits<double>::infinity(); return; }
  }
  wrong_type(path, "a number (or \"NaN\", \"Infinity\", \"-Infinity\")", j);
}

void read_value(const json& j, const std::string& path, Verdict& out) {
  if (!j.is_string()) wrong_type(path, "a verdict name", j);
  const auto& name = j.get_ref<const std::string&>();
  if (auto v = verdict_from_name(name)) {
    out = *v;
    return;
  }
  std::string known;
  for (Verdict v : kAllVerdicts) known += (known.empty() ? "" : ", ") + std::string(verdict_name(v));
  fail(path, "unknown verdict \"" + name + "\" (expected one of " + known + ")");
}

void read_value(const json& j, const std::string& path, json& out) {
  (void)path;
  out = j;
}

template <ResultsStruct T>
void read_value(const json& j, const std::string& path, T& out) {
  read_struct(j, path, out);
}

template <class T>
void read_value(const json& j, const std::string& path, std::vector<T>& out) {
  if (!j.is_array()) wrong_type(path, "an array", j);
  out.clear();
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    T item{};
    read_value(j[i], element(path, i), item);
    out.push_back(std::move(item));
  }
}

template <class T>
void read_value(const json& j, const std::string& path, std::optional<T>& out) {
  if (j.is_null()) {
    out.reset();
    return;
  }
  T value{};
  read_value(j, path, value);
  out = std::move(value);
}

// A JSON object with its path; unknown keys are ignored so newer writers stay
// readable, missing required keys are errors.
class ObjectReader {
 public:
  ObjectReader(const json& j, const std::string& path) : j_(j), path_(path) {
    if (!j.is_object()) wrong_type(path, "an object", j);
  }
  template <class T>
  void required(const char* key, T& out) const {
    auto it = j_.find(key);
    if (it == j_.end()) fail(child(path_, key), "missing required field");
    read_value(*it, child(path_, key), out);
  }
  // Absent and null both leave the default.
  template <class T>
  void optional(const char* key, T& out) const {
    auto it = j_.find(key);
    if (it == j_.end() || (it->is_null() && !std::is_same_v<T, json>)) return;
    read_value(*it, child(path_, key), out);
  }

 private:
  const json& j_;
  const std::string& path_;
};

void read_struct(const json& j, const std::string& path, Mismatch& m) {
  ObjectReader r(j, path);
  r.required("index", m.index);
  r.optional("coords", m.coords);
  r.required("got", m.got);
  r.required("expected", m.expected);
  r.optional("ulp", m.ulp);
}

void read_struct(const json& j, const std::string& path, CompareStats& s) {
  ObjectReader r(j, path);
  r.required("count", s.count);
  r.required("mismatches", s.mismatches);
  r.optional("max_abs", s.max_abs);
  r.optional("max_rel", s.max_rel);
  r.optional("max_ulp", s.max_ulp);
  r.optional("zero_fraction", s.zero_fraction);
  r.optional("tolerance", s.tolerance);
  r.optional("first_mismatches", s.first_mismatches);
  r.optional("tolerance_source", s.tolerance_source);
}

void read_struct(const json& j, const std::string& path, PerfStats& p) {
  ObjectReader r(j, path);
  r.optional("device_timer", p.device_timer);
  r.required("compute_ns_median", p.compute_ns_median);
  r.optional("compute_ns_min", p.compute_ns_min);
  r.optional("compute_ns_samples", p.compute_ns_samples);
  r.optional("create_ns", p.create_ns);
  r.optional("prepare_ns", p.prepare_ns);
  r.optional("h2d_ns", p.h2d_ns);
  r.optional("d2h_ns", p.d2h_ns);
  r.optional("sim_cycles", p.sim_cycles);
  r.optional("elements", p.elements);
  r.optional("loop_iterations", p.loop_iterations);
  r.optional("bytes", p.bytes);
  r.optional("gelem_per_s", p.gelem_per_s);
  r.optional("gbytes_per_s", p.gbytes_per_s);
  r.optional("launch_bound", p.launch_bound);
  r.optional("launch_overhead_ns", p.launch_overhead_ns);
}

void read_struct(const json& j, const std::string& path, TensorRecord& t) {
  ObjectReader r(j, path);
  r.required("name", t.name);
  r.required("dtype", t.dtype);
  r.optional("shape", t.shape);
  r.optional("scale", t.scale);
  r.optional("zero_point", t.zero_point);
  r.optional("present", t.present);
  r.optional("static", t.is_static);
  r.optional("stats", t.stats);
}

// Seeds exceed 2^53: schema 2 writes them as decimal strings (jq and
// JavaScript would round a number); schema 1 wrote numbers.
void read_seed(const json& j, const std::string& path, uint64_t& out) {
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    size_t used = 0;
    try {
      if (!s.empty() && s[0] != '-') out = std::stoull(s, &used, 10);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != s.size()) fail(path, "expected a decimal seed, got \"" + s + "\"");
    return;
  }
  read_value(j, path, out);
}

void read_struct(const json& j, const std::string& path, CaseResult& c) {
  ObjectReader r(j, path);
  r.required("id", c.id);
  r.optional("golden_id", c.golden_id);
  r.optional("package", c.package);
  r.required("op", c.op);
  r.required("backend", c.backend);
  r.required("dtype", c.dtype);
  r.optional("shape", c.shape);
  r.optional("fill", c.fill);
  r.optional("params", c.params);
  if (!c.params.is_object() && !c.params.is_null()) wrong_type(child(path, "params"), "an object", c.params);
  if (c.params.is_null()) c.params = json::object();
  r.optional("variant", c.variant);
  if (j.contains("seed") && !j.at("seed").is_null()) read_seed(j.at("seed"), child(path, "seed"), c.seed);
  r.optional("oracle", c.oracle);
  r.optional("inputs", c.inputs);
  r.optional("outputs", c.outputs);
  r.required("verdict", c.verdict);
  // The outcome's fields sit beside the verdict they qualify (farm_record.hpp).
  r.optional("status", c.outcome.status);
  r.optional("expected", c.outcome.expected);
  r.optional("expected_reason", c.outcome.expected_reason);
  r.optional("expected_from", c.outcome.expected_from);
  r.optional("attempts", c.outcome.attempts);
  r.optional("fails_run", c.outcome.fails_run);
  r.optional("device", c.outcome.device);
  r.optional("message", c.message);
  r.optional("repro", c.repro);
  r.optional("stats", c.stats);
  r.optional("perf", c.perf);
  r.optional("wall_ms", c.wall_ms);
  r.optional("kept_dir", c.kept_dir);
  r.optional("kept_note", c.kept_note);
}

void read_struct(const json& j, const std::string& path, BackendRecord& b) {
  ObjectReader r(j, path);
  r.required("name", b.name);
  r.required("available", b.available);
  r.optional("reason", b.reason);
  r.optional("device", b.device);
  r.optional("vendor", b.vendor);
  r.optional("driver_version", b.driver_version);
  r.optional("api_version", b.api_version);
}

void read_struct(const json& j, const std::string& path, PackageRecord& p) {
  ObjectReader r(j, path);
  r.required("path", p.path);
  r.optional("name", p.name);
  r.optional("version", p.version);
  r.optional("sha256", p.sha256);
}

void read_struct(const json& j, const std::string& path, ShardRecord& s) {
  ObjectReader r(j, path);
  r.required("index", s.index);
  r.required("count", s.count);
  r.optional("source", s.source);
  r.optional("selected_cases", s.selected_cases);
}

void read_struct(const json& j, const std::string& path, MergeInput& m) {
  ObjectReader r(j, path);
  r.required("path", m.path);
  r.optional("device", m.device);
  r.optional("shard", m.shard);
  r.optional("hostname", m.hostname);
  r.optional("started_at", m.started_at);
  r.optional("finished_at", m.finished_at);
  r.optional("planned", m.planned);
  r.optional("results", m.results);
  r.optional("complete", m.complete);
}

void read_struct(const json& j, const std::string& path, DeviceRecord& d) {
  ObjectReader r(j, path);
  r.required("id", d.id);
  r.optional("label", d.label);
  r.optional("description", d.description);
}

void read_struct(const json& j, const std::string& path, FarmRecord& f) {
  ObjectReader r(j, path);
  r.optional("shard", f.shard);
  r.optional("expectations", f.expectations);
  r.optional("flake_reruns", f.flake_reruns);
  r.optional("strict_expectations", f.strict_expectations);
  r.optional("fail_on_flakes", f.fail_on_flakes);
  r.optional("inputs", f.inputs);
  r.optional("devices", f.devices);
  r.optional("missing", f.missing);
}

void read_struct(const json& j, const std::string& path, Environment& e) {
  ObjectReader r(j, path);
  r.optional("build_type", e.build_type);
  r.optional("packages", e.packages);
  r.optional("oprig_version", e.oprig_version);
  r.optional("git_revision", e.git_revision);
  r.optional("cpu_model", e.cpu_model);
  r.optional("os", e.os);
  r.optional("hostname", e.hostname);
  r.optional("command_line", e.command_line);
  r.optional("started_at", e.started_at);
  r.optional("finished_at", e.finished_at);
  r.optional("cores", e.cores);
  r.optional("backends", e.backends);
}

void read_struct(const json& j, const std::string& path, RunResults& out) {
  ObjectReader r(j, path);
  r.required("schema_version", out.schema_version);
  if (out.schema_version < 1 || out.schema_version > kSchemaVersion)
    fail(child(path, "schema_version"), std::to_string(out.schema_version) +
                                            " is not a schema this oprig reads (1.." +
                                            std::to_string(kSchemaVersion) + ")");
  r.optional("environment", out.environment);
  r.required("cases", out.cases);
  r.optional("complete", out.complete);
  r.optional("incomplete_reason", out.incomplete_reason);
  r.optional("farm", out.farm);
}

std::string read_whole_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ResultsFormatError(path.string() + ": cannot open for reading");
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw ResultsFormatError(path.string() + ": read error");
  return content.str();
}

bool is_blank(std::string_view s) {
  return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

// ---- writers --------------------------------------------------------------

void to_json(json& j, const Mismatch& m) {
  j = json{{"index", m.index},
           {"coords", m.coords},
           {"got", number_to_json(m.got)},
           {"expected", number_to_json(m.expected)},
           {"ulp", number_to_json(m.ulp)}};
}

void to_json(json& j, const CompareStats& s) {
  j = json{{"count", s.count},
           {"mismatches", s.mismatches},
           {"max_abs", number_to_json(s.max_abs)},
           {"max_rel", number_to_json(s.max_rel)},
           {"max_ulp", number_to_json(s.max_ulp)},
           {"zero_fraction", number_to_json(s.zero_fraction)},
           {"tolerance", s.tolerance},
           {"first_mismatches", s.first_mismatches}};
  if (!s.tolerance_source.empty()) j["tolerance_source"] = s.tolerance_source;
}

void to_json(json& j, const PerfStats& p) {
  j = json{{"device_timer", p.device_timer},
           {"compute_ns_median", number_to_json(p.compute_ns_median)},
           {"compute_ns_min", number_to_json(p.compute_ns_min)},
           {"compute_ns_samples", numbers_to_json(p.compute_ns_samples)},
           {"create_ns", number_to_json(p.create_ns)},
           {"prepare_ns", number_to_json(p.prepare_ns)},
           {"h2d_ns", number_to_json(p.h2d_ns)},
           {"d2h_ns", number_to_json(p.d2h_ns)},
           {"sim_cycles", p.sim_cycles},
           {"elements", p.elements},
           {"loop_iterations", p.loop_iterations},
           {"bytes", p.bytes},
           {"gelem_per_s", number_to_json(p.gelem_per_s)},
           {"gbytes_per_s", number_to_json(p.gbytes_per_s)},
           {"launch_bound", p.launch_bound},
           {"launch_overhead_ns", number_to_json(p.launch_overhead_ns)}};
  // Derived, not read back: the dsp's simulated cycles per output element,
  // the figure its cost model speaks in (0 where nothing was simulated).
  j["sim_cycles_per_element"] =
      number_to_json(p.sim_cycles > 0 && p.elements > 0
                         ? static_cast<double>(p.sim_cycles) / static_cast<double>(p.elements)
                         : 0.0);
}

void to_json(json& j, const TensorRecord& t) {
  j = json{{"name", t.name},       {"dtype", t.dtype},     {"shape", t.shape},
           {"scale", number_to_json(t.scale)}, {"zero_point", t.zero_point}, {"present", t.present},
           {"static", t.is_static}, {"stats", t.stats ? json(*t.stats) : json(nullptr)}};
}

void to_json(json& j, const CaseResult& c) {
  j = json{{"id", c.id},
           {"golden_id", c.golden_id},
           {"package", c.package},
           {"op", c.op},
           {"backend", c.backend},
           {"dtype", c.dtype},
           {"shape", c.shape},
           {"fill", c.fill},
           {"variant", c.variant},
           {"params", c.params.is_null() ? json::object() : c.params},
           {"seed", std::to_string(c.seed)},
           {"oracle", c.oracle},
           {"inputs", c.inputs},
           {"outputs", c.outputs},
           {"verdict", std::string(verdict_name(c.verdict))},
           {"message", c.message},
           {"repro", c.repro},
           {"stats", c.stats ? json(*c.stats) : json(nullptr)},
           {"perf", c.perf ? json(*c.perf) : json(nullptr)},
           {"wall_ms", number_to_json(c.wall_ms)}};
  if (!c.kept_dir.empty()) j["kept_dir"] = c.kept_dir;
  if (!c.kept_note.empty()) j["kept_note"] = c.kept_note;
  const CaseOutcome& o = c.outcome;
  if (!o.status.empty()) j["status"] = o.status;
  if (!o.expected.empty()) j["expected"] = o.expected;
  if (!o.expected_reason.empty()) j["expected_reason"] = o.expected_reason;
  if (!o.expected_from.empty()) j["expected_from"] = o.expected_from;
  if (!o.attempts.empty()) {
    j["attempts"] = json::array();
    for (Verdict v : o.attempts) j["attempts"].push_back(std::string(verdict_name(v)));
  }
  if (o.fails_run) j["fails_run"] = *o.fails_run;
  if (!o.device.empty()) j["device"] = o.device;
}

void to_json(json& j, const BackendRecord& b) {
  j = json{{"name", b.name},
           {"available", b.available},
           {"reason", b.reason},
           {"device", b.device},
           {"vendor", b.vendor},
           {"driver_version", b.driver_version},
           {"api_version", b.api_version}};
}

void to_json(json& j, const PackageRecord& p) {
  j = json{{"path", p.path}, {"name", p.name}, {"version", p.version}, {"sha256", p.sha256}};
}

void to_json(json& j, const Environment& e) {
  j = json{{"oprig_version", e.oprig_version},
           {"build_type", e.build_type},
           {"git_revision", e.git_revision},
           {"cpu_model", e.cpu_model},
           {"os", e.os},
           {"hostname", e.hostname},
           {"command_line", e.command_line},
           {"started_at", e.started_at},
           {"finished_at", e.finished_at},
           {"cores", e.cores},
           {"backends", e.backends},
           {"packages", e.packages}};
}

void to_json(json& j, const ShardRecord& s) {
  j = json{{"index", s.index}, {"count", s.count}, {"source", s.source}, {"selected_cases", s.selected_cases}};
}

void to_json(json& j, const MergeInput& m) {
  j = json{{"path", m.path},         {"device", m.device},     {"shard", m.shard},
           {"hostname", m.hostname}, {"started_at", m.started_at}, {"finished_at", m.finished_at},
           {"planned", m.planned},   {"results", m.results},   {"complete", m.complete}};
}

void to_json(json& j, const DeviceRecord& d) {
  j = json{{"id", d.id}, {"label", d.label}, {"description", d.description}};
}

void to_json(json& j, const FarmRecord& f) {
  j = json::object();
  if (f.shard) j["shard"] = *f.shard;
  if (!f.expectations.empty()) j["expectations"] = f.expectations;
  if (f.flake_reruns != 0) j["flake_reruns"] = f.flake_reruns;
  if (f.strict_expectations) j["strict_expectations"] = true;
  if (f.fail_on_flakes) j["fail_on_flakes"] = true;
  if (!f.inputs.empty()) j["inputs"] = f.inputs;
  if (!f.devices.empty()) j["devices"] = f.devices;
  if (!f.missing.empty()) j["missing"] = f.missing;
}

void to_json(json& j, const RunResults& r) {
  j = json{{"schema_version", r.schema_version}, {"environment", r.environment}, {"complete", r.complete}};
  if (!r.complete) j["incomplete_reason"] = r.incomplete_reason;
  if (!r.farm.empty()) j["farm"] = r.farm;
  j["cases"] = r.cases;
}

// ---- readers --------------------------------------------------------------

void from_json(const json& j, Mismatch& m) { read_struct(j, "", m); }
void from_json(const json& j, CompareStats& s) { read_struct(j, "", s); }
void from_json(const json& j, PerfStats& p) { read_struct(j, "", p); }
void from_json(const json& j, TensorRecord& t) { read_struct(j, "", t); }
void from_json(const json& j, CaseResult& c) { read_struct(j, "", c); }
void from_json(const json& j, BackendRecord& b) { read_struct(j, "", b); }
void from_json(const json& j, PackageRecord& p) { read_struct(j, "", p); }
void from_json(const json& j, Environment& e) { read_struct(j, "", e); }
void from_json(const json& j, RunResults& r) { read_struct(j, "", r); }
void from_json(const json& j, ShardRecord& s) { read_struct(j, "", s); }
void from_json(const json& j, MergeInput& m) { read_struct(j, "", m); }
void from_json(const json& j, DeviceRecord& d) { read_struct(j, "", d); }
void from_json(const json& j, FarmRecord& f) { read_struct(j, "", f); }

std::string dump_json(const json& j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string to_jsonl_line(const CaseResult& c) { return dump_json(json(c)) + "\n"; }

std::vector<CaseResult> read_jsonl(const std::filesystem::path& path) {
  const std::string content = read_whole_file(path);
  std::vector<CaseResult> cases;
  size_t line_start = 0;
  size_t line_number = 0;
  while (line_start < content.size()) {
    ++line_number;
    const size_t newline = content.find('\n', line_start);
    const bool complete = newline != std::string::npos;
    const std::string_view line(content.data() + line_start,
                                (complete ? newline : content.size()) - line_start);
    line_start = complete ? newline + 1 : content.size();
    if (is_blank(line)) continue;

    const std::string where = path.string() + ":" + std::to_string(line_number);
    json parsed = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
      // The writer appends whole lines ending in '\n'; an unterminated one
      // that does not parse is a run killed mid-write, not corruption.
      if (!complete) break;
      throw ResultsFormatError(where + ": not a valid JSON line");
    }
    CaseResult c;
    try {
      read_struct(parsed, "", c);
    } catch (const ResultsFormatError& e) {
      throw ResultsFormatError(where + ": " + e.what());
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

RunResults read_results_file(const std::filesystem::path& path) {
  if (path.extension() == ".jsonl") {
    RunResults results;
    results.cases = read_jsonl(path);
    return results;
  }
  const std::string content = read_whole_file(path);
  json parsed;
  try {
    parsed = json::parse(content);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
    throw ResultsFormatError(path.string() + ": not valid JSON (" + e.what() + ")");
  }
  RunResults results;
  try {
    read_struct(parsed, "", results);
  } catch (const ResultsFormatError& e) {
    throw ResultsFormatError(path.string() + ": " + e.what());
  }
  return results;
}

}  // namespace oprig::reports
