// A test plan derived from the spec alone, for an op that comes without
// plan.json (every vendor's first run): valid nodes from the spec's shape
// texts and constraints, checked by the op's judge (derive_nodes.hpp), with
// every parameter swept and the sizes and fills where kernels break, and
// tolerances from the types and the work. `oprig plan init` writes it for
// the user to edit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"

namespace oprig::harness {

class NodeJudge;

// The judge of the nodes of one layout of input 0 (ops whose activation
// layout differs by backend, NHWC on cpu and NCHW on GPUs, are derived once
// per layout; "" when the backends agree).
struct LayoutJudge {
  std::string layout;
  NodeJudge* judge = nullptr;  // nullptr: the spec's constraints alone
};

// plan.json text for `space`; `spec_file` is written as the plan's "spec".
// Shape entries are the nodes of derive_nodes.hpp, each with its parameters
// and reduction length; fills uniform (every node), small_int, huge,
// specials and ties (selections) on the nodes they suit; tolerances from
// derived_tolerance; "signed_zero" where the reference keeps -0;
// "order_insensitive" where a parameter leaves the order open. Without any
// valid node, the plan from the Ranks alone, saying so in "about".
nlohmann::ordered_json derive_plan_json(const OpCaseSpace& space, const std::string& spec_file,
                                        const std::vector<LayoutJudge>& judges = {});

// A derived plan's tolerance of a data type: floats 4 ulp plus the work
// term of compare/tolerance.hpp with sums in FLOAT_32 (FLOAT_64 for fp64
// data); booleans exact; other integer types (quantised codes) within 1.
// Plain integer outputs are exact by output name (derive_plan_json).
nlohmann::ordered_json derived_tolerance(const std::string& dtype_name, bool quantized_or_integer_output);

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
