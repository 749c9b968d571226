// A test plan derived from the spec alone, for an op that comes without
// plan.json (every vendor's first run): data types per backend from the spec,
// shapes from each input's Rank (ND: a spread of ranks), every enumeration
// value, parameter defaults plus a random variant inside each constraint range
// that parses, static tensors filled like the others, optional inputs present
// and absent, quantised inputs over their whole code range, and the published
// default tolerances per data type (see default_tolerances), each with its
// source as the reason. `oprig plan init` writes it for the user to edit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"

namespace oprig::harness {

// plan.json text for `space`; `spec_file` is written as the plan's "spec".
nlohmann::ordered_json derive_plan_json(const OpCaseSpace& space, const std::string& spec_file);

// The default tolerance entry of a data type (canonical name): NNAPI's
// generated-test figures (fp32 atol 1e-5 rtol 5·2^-23; fp16 atol = rtol =
// 5·2^-10; integer and quantised within 1), an ONNX-backend-test relaxed tier
// for floats, torch's for fp64; BOOL_8 exact. nullopt for types without one.
std::optional<nlohmann::json> default_tolerance(const std::string& dtype_name);

// A numeric range from a constraint's text where it parses ("[0, 1]",
// "0 <= x <= 5", "> 0", "must be >= 1"); nullopt otherwise.
struct NumericRange {
  std::optional<double> low, high;
  bool low_open = false, high_open = false;
};
std::optional<NumericRange> parse_constraint_range(const std::string& text);

// Checks the plan's shapes against each input's Rank in the spec (1D..5D,
// SCALAR/0D exact; ND and none: any). Throws std::runtime_error naming the
// shape entry, the input and both ranks.
void check_plan_ranks(const OpCaseSpace& space, const TestPlan& plan);

}  // namespace oprig::harness
