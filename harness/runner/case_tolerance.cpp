#include "runner/case_tolerance.hpp"

#include <map>

#include "cases/derive_plan.hpp"
#include "core/dtype.hpp"

namespace oprig::harness {
namespace {

// The table entry for an output and the key that found it (output name first).
std::optional<std::pair<compare::Tolerance, std::string>> find_in(const ToleranceTable& table,
                                                                  const CaseTensor& output) {
  if (const auto it = table.by_output.find(output.name); it != table.by_output.end())
    return std::make_pair(it->second, "output " + output.name);
  if (const auto it = table.by_dtype.find(output.type.dtype); it != table.by_dtype.end())
    return std::make_pair(it->second, std::string(dtype_name(output.type.dtype)));
  return std::nullopt;
}

// The published default of a data type (cases/derive_plan.hpp), parsed once.
const compare::Tolerance* default_tolerance_of(oprig_dtype dtype) {
  static const std::map<oprig_dtype, compare::Tolerance> defaults = [] {
    std::map<oprig_dtype, compare::Tolerance> m;
    for (int d = OPRIG_DTYPE_FLOAT_16; d <= OPRIG_DTYPE_BOOL_8; ++d)
      if (const auto j = default_tolerance(std::string(dtype_name(static_cast<oprig_dtype>(d)))))
        m[static_cast<oprig_dtype>(d)] = compare::parse_tolerance(*j);
    return m;
  }();
  const auto it = defaults.find(dtype);
  return it == defaults.end() ? nullptr : &it->second;
}

}  // namespace

bool is_single_tolerance(const nlohmann::json& tolerance) {
  if (!tolerance.is_object()) return true;  // parse_tolerance says what is wrong with it
  for (const char* key : {"reason", "ulp", "lsb", "atol", "rtol", "relaxed", "nan", "mistrust_zero_fraction"})
    if (tolerance.contains(key)) return true;
  return false;
}

std::optional<JudgingTolerance> judging_tolerance(const Case& c, const OpContext& op, const CaseTensor& output) {
  if (!c.tolerance.is_null()) {
    if (is_single_tolerance(c.tolerance)) return JudgingTolerance{compare::parse_tolerance(c.tolerance), "golden manifest"};
    if (auto found = find_in(parse_tolerance_table(c.tolerance, *op.space), output))
      return JudgingTolerance{found->first, "golden manifest " + found->second};
  }
  if (const auto fill = op.fill_tolerances.find(c.fill); fill != op.fill_tolerances.end())
    if (auto found = find_in(fill->second, output))
      return JudgingTolerance{found->first, "plan fill " + c.fill + " " + found->second};
  if (auto found = find_in(op.tolerances, output))
    return JudgingTolerance{found->first, (op.plan != nullptr && op.plan->derived ? "derived plan " : "plan ") + found->second};
  // A golden case may bring a type the plan has no figure for.
  if (!c.golden_dir.empty())
    if (const compare::Tolerance* t = default_tolerance_of(output.type.dtype))
      return JudgingTolerance{*t, "default for " + std::string(dtype_name(output.type.dtype)) + " (the plan has none)"};
  return std::nullopt;
}

}  // namespace oprig::harness
