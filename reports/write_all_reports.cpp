// The three files every command leaves behind.
#include <system_error>

#include "reports/atomic_file.hpp"
#include "reports/html/html_reporter.hpp"
#include "reports/json/json_reporter.hpp"
#include "reports/junit/junit_reporter.hpp"
#include "reports/reporter.hpp"

namespace oprig::reports {

void write_all_reports(const RunResults& results, const std::filesystem::path& out_dir,
                       const PerfBaseline* baseline) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) throw ReportWriteError("cannot create " + out_dir.string() + ": " + ec.message());
  // results.json first: it is the source of truth if a later writer fails.
  JsonReporter(out_dir / "results.json").finish(results);
  JUnitReporter(out_dir / "junit.xml").finish(results);
  HtmlReporter(out_dir / "report.html", baseline).finish(results);
}

}  // namespace oprig::reports
