// Which tolerance judges one output of a case, and where it comes from, so
// results say which rule judged each case. In order: the golden manifest's
// own "tolerance" (a suite's vectors judged by that suite's rule, e.g. ONNX's
// rtol 1e-3 atol 1e-7), the case's fill's table, the plan's table (by output
// name, then data type), and for a golden case of a type the plan has no
// figure for, the published default of that type.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"
#include "compare/tolerance.hpp"
#include "runner/case_executor.hpp"

namespace oprig::harness {

struct JudgingTolerance {
  compare::Tolerance tolerance;
  // "golden manifest", "plan FLOAT_32", "plan output out", "plan fill edge
  // FLOAT_32", "default for FLOAT_16 (the plan has none)".
  std::string source;
  // source and the tolerance's reason, as reports show it.
  std::string described() const { return source + ": " + tolerance.reason; }
};

// A manifest's "tolerance" is one tolerance (it has a reason or a bound) or a
// table keyed by data type or output name, as plan.json's.
bool is_single_tolerance(const nlohmann::json& tolerance);

// nullopt when nothing gives this output a tolerance. Throws
// std::runtime_error for a malformed manifest tolerance.
std::optional<JudgingTolerance> judging_tolerance(const Case& c, const OpContext& op, const CaseTensor& output);

}  // namespace oprig::harness
