// results.json (the source of truth) and the results.jsonl stream.
#pragma once

#include <filesystem>
#include <string>

#include "reports/reporter.hpp"

namespace oprig::reports {

// The results as pretty-printed JSON, plus a derived "summary" object (verdict
// counts, exit code) for quick inspection with jq; readers ignore it.
std::string render_results_json(const RunResults& results);

// Writes results.json atomically in finish().
class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(std::filesystem::path path) : path_(std::move(path)) {}
  void finish(const RunResults& results) override;

 private:
  std::filesystem::path path_;
};

// Appends one line per finished case (to_jsonl_line) with a single write(2),
// so a run killed at any moment leaves at most a truncated last line, which
// read_jsonl drops. begin_run truncates the file unless `append` (--resume).
class JsonLinesReporter : public Reporter {
 public:
  JsonLinesReporter(std::filesystem::path path, bool append) : path_(std::move(path)), append_(append) {}
  ~JsonLinesReporter() override;
  JsonLinesReporter(const JsonLinesReporter&) = delete;
  JsonLinesReporter& operator=(const JsonLinesReporter&) = delete;

  void begin_run(const Environment& environment) override;
  void report_case(const CaseResult& result) override;
  void finish(const RunResults& results) override;

 private:
  std::filesystem::path path_;
  bool append_;
  int fd_ = -1;
};

}  // namespace oprig::reports
