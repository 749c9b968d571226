// What a run in an --out folder tested, written to OUT/run.json when it
// starts: the packages (absolute path and SHA-256 of the file), the backends
// and the selection (suite or spec, op, case, golden folders, reference
// backend), plus the ids of every case it planned. `--resume` compares the
// identity of the new invocation with the stored one and refuses a mismatch,
// so the results of two different runs are never mixed into one report; the
// planned ids tell `oprig report` whether a results.jsonl stream is complete.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/results.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {

inline constexpr const char* kRunIdentityFile = "run.json";

// The packages a selection loads (the bundled one when none is given), each
// with its SHA-256, name and version filled from `loaded` where it matches.
std::vector<reports::PackageRecord> package_records(const Selection& selection, const Suite& loaded);

nlohmann::json run_identity(const Selection& selection, const std::vector<reports::PackageRecord>& packages,
                            const std::vector<std::string>& planned_case_ids);

// One line per field that differs ("backends: cpu before, cpu,dsp now"),
// empty when the two identities describe the same run. Planned and selected
// case ids and their inputs' digest are not compared (they follow from the
// rest), nor the environment (harness/farm/run_farm.hpp adds those).
std::vector<std::string> identity_differences(const nlohmann::json& before, const nlohmann::json& now);

}  // namespace oprig::harness
