// The baseline of report.html's performance table: each case the new run
// timed is judged against the same case id in an earlier run by the rule of
// `oprig compare` (regression_rule.hpp) over the per-execution samples
// (bench: one per repetition). A dsp run's simulated times are never
// compared with anything: they are not real time.
#pragma once

#include <filesystem>

#include "perf/regression_rule.hpp"
#include "reports/perf_baseline.hpp"
#include "reports/results.hpp"

namespace oprig::perf {

reports::PerfBaseline compare_with_baseline(const reports::RunResults& base, const reports::RunResults& next,
                                            const RegressionRule& rule, std::string label);

// BASE may be a results.json (or .jsonl) or the folder of a run or bench that
// holds one. Throws reports::ResultsFormatError naming the file.
reports::RunResults read_baseline_results(const std::filesystem::path& base);

}  // namespace oprig::perf
