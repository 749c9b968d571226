// report.html: one self-contained page (inline CSS and SVG, no script, no
// network) rendered from the results model; every string from the data is
// escaped, and a Content-Security-Policy forbids loading anything.
#pragma once

#include <filesystem>
#include <string>

#include "reports/reporter.hpp"

namespace oprig::reports {

std::string render_html(const RunResults& results);

class HtmlReporter : public Reporter {
 public:
  explicit HtmlReporter(std::filesystem::path path) : path_(std::move(path)) {}
  void finish(const RunResults& results) override;

 private:
  std::filesystem::path path_;
};

}  // namespace oprig::reports
