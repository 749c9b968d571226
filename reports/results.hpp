// The results model: what one run of oprig found. results.json is this model
// serialised, and it is the source of truth: junit.xml, report.html and the
// summary table are all rendered from it (and can be re-rendered later by
// `oprig report`). The harness fills it; nothing in reports/ computes verdicts.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oprig/verdict.hpp"
#include "reports/farm_record.hpp"

namespace oprig::reports {

// Bumped whenever a field changes meaning or a required field is added.
// 2: per-tensor records (inputs, outputs with their own stats), variant,
//    oracle; the seed is written as a decimal string (it exceeds 2^53).
inline constexpr int kSchemaVersion = 2;

// One element that failed the comparison. got/expected/ulp may be NaN or
// infinite (edge-set inputs); JSON has no such numbers, so they are written as
// the strings "NaN", "Infinity", "-Infinity".
struct Mismatch {
  uint64_t index = 0;           // flat (row-major) element index
  std::vector<int64_t> coords;  // the same element as per-dimension coordinates
  double got = 0;
  double expected = 0;
  double ulp = 0;  // distance in units in the last place (or LSB for quantised types)
  bool operator==(const Mismatch&) const = default;
};

struct CompareStats {
  uint64_t count = 0;       // elements compared
  uint64_t mismatches = 0;  // elements outside tolerance
  double max_abs = 0, max_rel = 0, max_ulp = 0;
  double zero_fraction = 0;  // share of the reference output that is zero (MISTRUSTED evidence)
  std::string tolerance;     // as the plan states it, e.g. "ulp<=3" or "lsb<=1"
  std::vector<Mismatch> first_mismatches;
  // Which rule judged this output and why: its source ("plan FLOAT_32",
  // "golden manifest", ...) and the tolerance's reason. Empty in older results.
  std::string tolerance_source;
  bool operator==(const CompareStats&) const = default;
};

struct PerfStats {
  bool device_timer = false;  // compute times come from the device clock (or the DSP cost model)
  double compute_ns_median = 0;
  double compute_ns_min = 0;
  std::vector<double> compute_ns_samples;
  double create_ns = 0, prepare_ns = 0, h2d_ns = 0, d2h_ns = 0;
  uint64_t sim_cycles = 0;  // DSP simulator cycles; 0 elsewhere
  uint64_t elements = 0;        // output elements of one op execution; 0 for model cases
  uint64_t loop_iterations = 0; // model cases: WHILE body runs, all loops together
  uint64_t bytes = 0;  // bytes read + written by one execution
  double gelem_per_s = 0, gbytes_per_s = 0;
  // bench: the median is under 1.5x the backend's calibrated launch-plus-
  // readback overhead (launch_overhead_ns), so the figure is mostly launch
  // cost, not kernel speed (harness/bench/launch_bound.hpp).
  bool launch_bound = false;
  double launch_overhead_ns = 0;  // the calibrated overhead it was judged against; 0 unknown
  bool operator==(const PerfStats&) const = default;
};

// One input or output tensor of a case. Outputs carry their own comparison.
struct TensorRecord {
  std::string name;   // the spec's tensor name
  std::string dtype;  // canonical name, e.g. FLOAT_32
  std::vector<int64_t> shape;
  double scale = 0;   // quantisation (0: none)
  int32_t zero_point = 0;
  bool present = true;    // false: an optional input the case leaves out
  bool is_static = false; // a static input (weights known when the graph is built)
  std::optional<CompareStats> stats;  // outputs
  bool operator==(const TensorRecord&) const = default;
};

struct CaseResult {
  std::string id;         // run id, e.g. atan__f32__1x3x5x7__uniform__p0__cpu
  std::string golden_id;  // the id without the backend, e.g. f32__1x3x5x7__uniform__p0
  std::string package, op, backend, dtype;
  std::vector<int64_t> shape;
  std::string fill;
  std::string variant;  // p0, p1, relu_p0, lit, golden ...
  nlohmann::json params = nlohmann::json::object();
  uint64_t seed = 0;
  std::string oracle;   // what judged the outputs: "reference" (fp64), "golden", ...
  std::vector<TensorRecord> inputs, outputs;
  Verdict verdict = Verdict::kPassed;
  CaseOutcome outcome;  // expectations, re-runs, device (farm_record.hpp); empty in a plain run
  std::string message;  // why the verdict is what it is; empty for a plain pass
  std::string repro;    // one-line command that re-runs exactly this case
  std::optional<CompareStats> stats;  // the output that decided the verdict (the first one when all pass)
  std::optional<PerfStats> perf;
  double wall_ms = 0;
  // --keep-outputs: the folder holding this case's inputs, the kernel's and
  // the expected outputs (a golden case of its own); or why they were not kept.
  std::string kept_dir;
  std::string kept_note;
  bool operator==(const CaseResult&) const = default;
};

struct BackendRecord {
  std::string name;
  bool available = false;
  std::string reason;  // why it is unavailable; empty when available
  std::string device, vendor, driver_version, api_version;
  bool operator==(const BackendRecord&) const = default;
};

// A package a run loaded: what it was (name, version) and exactly which file
// (absolute path, SHA-256 of its content).
struct PackageRecord {
  std::string path, name, version, sha256;
  bool operator==(const PackageRecord&) const = default;
};

struct Environment {
  std::string oprig_version, git_revision, cpu_model, os, hostname, command_line;
  std::string build_type;  // CMAKE_BUILD_TYPE of oprig (Release, Debug, ...)
  std::string started_at, finished_at;  // ISO 8601, UTC
  unsigned cores = 0;
  std::vector<BackendRecord> backends;
  std::vector<PackageRecord> packages;
  bool operator==(const Environment&) const = default;
};

struct RunResults {
  int schema_version = kSchemaVersion;
  Environment environment;
  std::vector<CaseResult> cases;
  // Not every planned case has a result (the run was stopped, killed, or is
  // still going): reports say INCOMPLETE and why.
  bool complete = true;
  std::string incomplete_reason;
  FarmRecord farm;  // shard, expectations, merge (farm_record.hpp); empty in a plain run
  bool operator==(const RunResults&) const = default;
};

// Thrown for input that does not match the schema. what() names the field
// path, e.g. "cases[3].stats.max_ulp: expected a number, got string".
class ResultsFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// nlohmann ADL hooks. from_json throws ResultsFormatError on malformed input.
void to_json(nlohmann::json& j, const Mismatch& m);
void to_json(nlohmann::json& j, const CompareStats& s);
void to_json(nlohmann::json& j, const PerfStats& p);
void to_json(nlohmann::json& j, const TensorRecord& t);
void to_json(nlohmann::json& j, const CaseResult& c);
void to_json(nlohmann::json& j, const BackendRecord& b);
void to_json(nlohmann::json& j, const PackageRecord& p);
void to_json(nlohmann::json& j, const Environment& e);
void to_json(nlohmann::json& j, const RunResults& r);
void to_json(nlohmann::json& j, const ShardRecord& s);
void to_json(nlohmann::json& j, const MergeInput& m);
void to_json(nlohmann::json& j, const DeviceRecord& d);
void to_json(nlohmann::json& j, const FarmRecord& f);
void from_json(const nlohmann::json& j, Mismatch& m);
void from_json(const nlohmann::json& j, CompareStats& s);
void from_json(const nlohmann::json& j, PerfStats& p);
void from_json(const nlohmann::json& j, TensorRecord& t);
void from_json(const nlohmann::json& j, CaseResult& c);
void from_json(const nlohmann::json& j, BackendRecord& b);
void from_json(const nlohmann::json& j, PackageRecord& p);
void from_json(const nlohmann::json& j, Environment& e);
void from_json(const nlohmann::json& j, RunResults& r);
void from_json(const nlohmann::json& j, ShardRecord& s);
void from_json(const nlohmann::json& j, MergeInput& m);
void from_json(const nlohmann::json& j, DeviceRecord& d);
void from_json(const nlohmann::json& j, FarmRecord& f);

// Serialises with invalid UTF-8 replaced by U+FFFD instead of throwing: case
// messages can carry whatever bytes a crashing worker printed.
std::string dump_json(const nlohmann::json& j, int indent = -1);

// One results.jsonl line for a finished case, newline included. The harness
// appends these while a run is in progress so a killed run loses nothing.
std::string to_jsonl_line(const CaseResult& c);

// Reads results.jsonl. A last line without its newline that does not parse is
// the trace of a killed run and is dropped; any other bad line throws
// ResultsFormatError naming the file and line.
std::vector<CaseResult> read_jsonl(const std::filesystem::path& path);

// Reads results.json, or results.jsonl (by extension; environment left empty).
// Throws ResultsFormatError naming the file on unreadable or malformed input.
RunResults read_results_file(const std::filesystem::path& path);

}  // namespace oprig::reports
