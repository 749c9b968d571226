// The sections of report.html about runs at farm scale (harness/farm/),
// each present only when the results have something of it:
//  - the device matrix of `oprig merge --devices`: the cases whose verdict
//    differs between devices first (id="device-differences"), then op x
//    backend rows with one column of verdict counts per device, the rows that
//    differ first (id="device-matrix"); with timings (bench), a time column
//    per device: the geometric mean of the median times of the row's cases
//    timed on every device, and its ratio to the first device's;
//  - expected results and flakes (id="outcomes"): UNEXPECTED_PASS, FLAKY
//    with its verdict sequence, EXPECTED_FAILURE with its reason, apart from
//    the passes;
//  - what was merged (id="merge-inputs") and the MISSING cases
//    (id="missing-cases").
#pragma once

#include <string>

#include "reports/results.hpp"

namespace oprig::reports {

std::string farm_sections(const RunResults& results);

// " on d2" for a case of a device matrix (the matrix's legend names d2); "".
std::string device_note(const CaseResult& c);

}  // namespace oprig::reports
