// report.html: one self-contained page (inline CSS and SVG, no script, no
// network) rendered from the results model; every string from the data is
// escaped, and a Content-Security-Policy forbids loading anything.
#pragma once

#include <filesystem>
#include <string>

#include "reports/perf_baseline.hpp"
#include "reports/reporter.hpp"

namespace oprig::reports {

// With a baseline, the performance table compares each timed case with it
// and lists the worst regression first.
std::string render_html(const RunResults& results, const PerfBaseline* baseline = nullptr);

class HtmlReporter : public Reporter {
 public:
  explicit HtmlReporter(std::filesystem::path path, const PerfBaseline* baseline = nullptr)
      : path_(std::move(path)), baseline_(baseline) {}
  void finish(const RunResults& results) override;

 private:
  std::filesystem::path path_;
  const PerfBaseline* baseline_;
};

}  // namespace oprig::reports
