// results.json and results.jsonl writers.
#include "reports/json/json_reporter.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "reports/atomic_file.hpp"
#include "reports/coverage.hpp"
#include "reports/summary.hpp"

namespace oprig::reports {

std::string render_results_json(const RunResults& results) {
  nlohmann::json j = results;
  const VerdictCounts counts = count_verdicts(results);
  nlohmann::json verdicts = nlohmann::json::object();
  for (Verdict v : kAllVerdicts)
    if (counts[v] > 0) verdicts[std::string(verdict_name(v))] = counts[v];
  j["summary"] = {{"total", counts.total()},
                  {"verdicts", verdicts},
                  {"exit_code", exit_code_for(results)},
                  {"headline", headline(results)}};
  return dump_json(j, 2) + "\n";
}

void JsonReporter::finish(const RunResults& results) {
  write_file_atomically(path_, render_results_json(results));
}

JsonLinesReporter::~JsonLinesReporter() {
  if (fd_ >= 0) ::close(fd_);
}

void JsonLinesReporter::begin_run(const Environment& environment) {
  (void)environment;
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (append_ ? 0 : O_TRUNC), 0644);
  if (fd_ < 0) throw ReportWriteError("cannot open " + path_.string() + ": " + std::strerror(errno));
}

void JsonLinesReporter::report_case(const CaseResult& result) {
  if (fd_ < 0) begin_run(Environment{});
  const std::string line = to_jsonl_line(result);
  std::string_view rest = line;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd_, rest.data(), rest.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw ReportWriteError("cannot append to " + path_.string() + ": " + std::strerror(errno));
    }
    rest.remove_prefix(static_cast<size_t>(n));
  }
}

void JsonLinesReporter::finish(const RunResults& results) {
  (void)results;
  if (fd_ >= 0) {
    ::fsync(fd_);
    ::close(fd_);
    fd_ = -1;
  }
}

}  // namespace oprig::reports
