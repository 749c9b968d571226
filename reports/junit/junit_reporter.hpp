// junit.xml for CI systems: one <testsuite> per op x backend, one <testcase>
// per case; failing verdicts are <failure> (message + repro), SKIPPED and
// UNIMPLEMENTED are <skipped>; every case carries its stats in <system-out>.
#pragma once

#include <filesystem>
#include <string>

#include "reports/reporter.hpp"

namespace oprig::reports {

std::string render_junit_xml(const RunResults& results);

class JUnitReporter : public Reporter {
 public:
  explicit JUnitReporter(std::filesystem::path path) : path_(std::move(path)) {}
  void finish(const RunResults& results) override;

 private:
  std::filesystem::path path_;
};

}  // namespace oprig::reports
