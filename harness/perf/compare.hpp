// `oprig compare BASE NEW`: every benchmark present in both runs is judged
// by the regression rule (perf/regression_rule.hpp) over its repetitions,
// its p-values adjusted for the number of benchmarks (Holm); with
// --machine-controls a change the machine's controls measured at the same
// moment is not blamed on the kernel (perf/machine_control.hpp), and with
// --confirm a regression must come back in a rerun
// (perf/rerun_confirmation.hpp); benchmarks present in only one run are
// listed, never dropped silently.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perf/gbench_json.hpp"
#include "perf/machine_control.hpp"
#include "perf/regression_rule.hpp"

namespace oprig::perf {

struct CompareOptions {
  RegressionRule rule;
  TimeMetric metric = TimeMetric::kRealTime;
  // Holm over the benchmarks compared: alpha bounds the chance that an
  // unchanged build flags ANY benchmark. Off: alpha per benchmark.
  bool family_correction = true;
  // Allow for the machine's shift measured by bench's controls. Off by
  // default: in a 20-run proof a fast copy control in BASE made 18 of 20
  // real 10 % slowdowns of a compute-bound kernel "not blamed on the kernel".
  bool machine_controls = false;
};

// What one rerun said about a benchmark that NEW flagged
// (perf/rerun_confirmation.hpp).
struct RerunCheck {
  std::string path;           // the rerun's file
  bool retimed = false;       // the rerun timed it with enough repetitions
  SampleComparison comparison;  // BASE against the rerun, p adjusted over the first family
};

struct CompareRow {
  std::string name;
  SampleComparison comparison;
  MachineShift machine;  // from the controls bench times beside each repetition (--machine-controls)
  // Filled for benchmarks NEW flagged as REGRESSED when reruns were given:
  // the verdict stays REGRESSED only when every rerun that re-timed it agrees.
  std::vector<RerunCheck> reruns;
  bool unconfirmed() const;  // NEW flagged it and a rerun cleared it
};

struct CompareReport {
  std::string base_path, new_path;
  CompareOptions options;
  std::vector<CompareRow> rows;  // worst first: by ratio, descending; NOT_ENOUGH_SAMPLES last
  std::vector<std::string> only_in_base, only_in_new;
  std::vector<std::string> rerun_paths;  // --confirm files, in order
  size_t count(ChangeVerdict verdict) const;
  size_t tested() const;  // rows with enough repetitions: the family Holm adjusts over
  size_t unconfirmed() const;
};

CompareReport compare_runs(const BenchmarkFile& base, const BenchmarkFile& next, const CompareOptions& options);

// 1 when a benchmark regressed; 2 when no benchmark is in both runs or none
// of those in both has enough repetitions to test (the runs cannot be
// compared: a CI gate must not pass on that); 0 otherwise.
int compare_exit_code(const CompareReport& report);
// One line saying why compare_exit_code is 2 (empty when it is not).
std::string mismatch_reason(const CompareReport& report);

// The table for a terminal: a header with the rule, one row per benchmark,
// the benchmarks found on one side only, and a summary line.
std::string render_compare_table(const CompareReport& report);
// compare.json: schema "oprig-compare/1"; times in ns.
nlohmann::json compare_to_json(const CompareReport& report);

}  // namespace oprig::perf
