// The one reporter interface every output format implements. The harness
// calls begin_run once, report_case as each case finishes (in completion
// order), and finish with the complete results. Writers that need the whole
// run (results.json, junit.xml, report.html) write in finish(); streaming
// writers (results.jsonl) write in report_case().
#pragma once

#include <filesystem>

#include "reports/perf_baseline.hpp"
#include "reports/results.hpp"

namespace oprig::reports {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void begin_run(const Environment& environment) { (void)environment; }
  virtual void report_case(const CaseResult& result) { (void)result; }
  virtual void finish(const RunResults& results) = 0;
};

// Writes results.json, junit.xml and report.html into out_dir (created if
// missing), each atomically; report.html compares with the baseline when
// one is given. Throws ReportWriteError (atomic_file.hpp).
void write_all_reports(const RunResults& results, const std::filesystem::path& out_dir,
                       const PerfBaseline* baseline = nullptr);

}  // namespace oprig::reports
