// The nightly history: one JSON file per bench run in a folder,
// HIST/<UTC date>_<git revision>_<machine fingerprint>.json (a second run the
// same night gets "_2", "_3", ...; a file is never overwritten). Each record
// (schema "oprig-history/1") holds the run's date, git revision, machine and
// every repetition of every benchmark, so a trend can be redrawn from the
// folder alone.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perf/gbench_json.hpp"
#include "perf/machine.hpp"

namespace oprig::perf {

struct HistoryBenchmark {
  std::string name;
  std::vector<double> real_ns, cpu_ns;  // per repetition
  std::map<std::string, double> counters;
  size_t failed_repetitions = 0;
  const std::vector<double>& samples(TimeMetric metric) const {
    return metric == TimeMetric::kRealTime ? real_ns : cpu_ns;
  }
};

struct HistoryRecord {
  std::string run_date;        // ISO 8601 UTC, "2026-11-23T07:49:48Z": when the bench ran
  std::string added_at;        // ISO 8601 UTC: when it entered the history
  std::string git_revision;
  std::string git_revision_source;  // "--git-rev", "benchmark.json context", "results.json", "this oprig build"
  MachineInfo machine;
  std::string machine_source;  // "benchmark.json context" or "described at history add"
  std::string source;          // the benchmark file it came from
  nlohmann::json gbench_context;
  std::vector<HistoryBenchmark> benchmarks;
  std::filesystem::path file;  // set when read from or written to a folder
};

// A record from a bench run. The date is the context's "date" converted to
// UTC (libbenchmark writes local time with its offset); `now_utc` when the
// context has none.
HistoryRecord make_history_record(const BenchmarkFile& run, const MachineInfo& machine,
                                  const std::string& machine_source, const std::string& git_revision,
                                  const std::string& git_revision_source, const std::string& now_utc);

// "2026-11-23_1a2b3c4d5e6f_0123456789ab": date, revision and fingerprint, each
// reduced to [A-Za-z0-9.-] so the name is safe in any shell and file system.
std::string history_file_stem(const HistoryRecord& record);

// Writes the record into `dir` (created if missing) under its stem, adding
// "_2", "_3", ... when that name exists; the file appears complete or not at
// all (written aside, then linked into place, which fails rather than
// replace an existing file). Returns the path written. Throws PerfInputError.
std::filesystem::path write_history_record(const std::filesystem::path& dir, HistoryRecord record);

nlohmann::json history_record_to_json(const HistoryRecord& record);
HistoryRecord history_record_from_json(const nlohmann::json& json, const std::filesystem::path& file);

// Every *.json in `dir`, oldest run first (by run_date, then file name).
// Throws PerfInputError for a missing folder or a malformed record (naming it).
std::vector<HistoryRecord> read_history(const std::filesystem::path& dir);

// "2026-11-23T08:49:48+01:00" -> "2026-11-23T07:49:48Z". A date without an
// offset ("2016-08-02 17:44:46", libbenchmark before 1.6) is taken as UTC.
// Empty for text that is not such a date.
std::string to_utc_iso8601(const std::string& date);

// Nightly series of one benchmark, oldest first.
struct NightPoint {
  std::string run_date;
  std::string git_revision;
  double median_ns = 0, min_ns = 0, max_ns = 0;
  size_t samples = 0;
};
struct BenchmarkSeries {
  std::string name;
  std::vector<NightPoint> points;
};

struct SeriesSelection {
  std::string fingerprint;   // the machine the series belong to ("" with any_machine)
  size_t records_used = 0;
  size_t records_other_machines = 0;
  std::vector<BenchmarkSeries> series;  // in order of first appearance
};

// Series from the records of one machine: `fingerprint`, or when empty the
// newest record's; every record with any_machine. Only the last `last_nights`
// records are used (0: all). Nights where a benchmark has no usable repetition
// are left out of its series.
SeriesSelection select_series(const std::vector<HistoryRecord>& records, TimeMetric metric,
                              const std::string& fingerprint, bool any_machine, size_t last_nights);

}  // namespace oprig::perf
