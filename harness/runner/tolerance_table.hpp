// A table of tolerances as plan.json, a fill and a golden manifest write it:
// keys are data type names ("FLOAT_32", "f32") or output names of the spec.
// Apart from the case executor so that what reads these tables (plans,
// golden manifests) links without it.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"
#include "compare/tolerance.hpp"

namespace oprig::harness {

// The plan's tolerances: by output name first, then by data type.
struct ToleranceTable {
  std::map<oprig_dtype, compare::Tolerance> by_dtype;
  std::map<std::string, compare::Tolerance> by_output;
  const compare::Tolerance* find(const std::string& output_name, oprig_dtype dtype) const;
};
// Throws std::runtime_error naming the key.
ToleranceTable parse_tolerance_table(const nlohmann::json& table, const OpCaseSpace& space);

}  // namespace oprig::harness
