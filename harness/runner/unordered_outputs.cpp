#include "runner/unordered_outputs.hpp"

#include <stdexcept>

#include "cases/tensor_data.hpp"
#include "compare/unordered.hpp"
#include "core/dtype.hpp"
#include "runner/case_executor.hpp"

namespace oprig::harness {

std::vector<UnorderedGroup> unordered_groups(const Case& c, const OpContext& op) {
  std::vector<UnorderedGroup> out;
  if (op.plan == nullptr || op.plan->order_insensitive.empty() || !c.golden_dir.empty()) return out;
  const nlohmann::json params = reference_params(c, *op.space);
  for (const OrderInsensitive& o : op.plan->order_insensitive) {
    bool applies = true;
    for (const auto& [name, value] : o.when.items()) {
      const nlohmann::json got = params.contains(name) ? params.at(name) : nlohmann::json();
      // Booleans may arrive as 0/1 (a Default written as a number).
      const bool same = got == value || (value.is_boolean() && got.is_number() && (got.get<double>() != 0) == value.get<bool>());
      if (!same) applies = false;
    }
    if (!applies) continue;
    UnorderedGroup g;
    for (const std::string& name : o.outputs) {
      bool found = false;
      for (size_t k = 0; k < c.outputs.size(); ++k)
        if (c.outputs[k].name == name) {
          g.outputs.push_back(k);
          found = true;
        }
      if (!found) throw std::runtime_error("order_insensitive names output '" + name + "', which the case lacks");
    }
    if (o.axis.is_number_integer()) {
      g.axis = o.axis.get<int64_t>();
    } else {
      const std::string p = o.axis.get<std::string>();
      if (!params.contains(p) || !params.at(p).is_number())
        throw std::runtime_error("order_insensitive takes its axis from parameter '" + p + "', which has no value here");
      g.axis = static_cast<int64_t>(params.at(p).get<double>());
    }
    std::string names;
    for (const std::string& n : o.outputs) names += (names.empty() ? "" : ", ") + n;
    g.note = names + " compared as multisets along axis " + std::to_string(g.axis) + " (" + o.reason + ")";
    out.push_back(std::move(g));
  }
  return out;
}

void canonicalise(const UnorderedGroup& group, const Case& c, std::vector<std::vector<std::byte>>& got,
                  std::vector<Expected>& expected) {
  if (group.outputs.empty()) return;
  const std::vector<int64_t> shape = expected.at(group.outputs.front()).shape;
  std::vector<std::vector<double>> got_values, expected_values;
  for (size_t k : group.outputs) {
    if (expected.at(k).shape != shape)
      throw std::invalid_argument("order-insensitive outputs " + c.outputs.at(group.outputs.front()).name + " and " +
                                  c.outputs.at(k).name + " differ in shape");
    TensorData t;
    t.dtype = c.outputs.at(k).type.dtype;
    t.shape = shape;
    t.bytes = got.at(k);
    got_values.push_back(stored_values(t));
    expected_values.push_back(expected.at(k).values);
  }
  std::vector<std::span<const double>> got_keys(got_values.begin(), got_values.end());
  std::vector<std::span<const double>> expected_keys(expected_values.begin(), expected_values.end());
  const std::vector<uint64_t> got_order = compare::canonical_order(got_keys, shape, group.axis);
  const std::vector<uint64_t> expected_order = compare::canonical_order(expected_keys, shape, group.axis);
  for (size_t k : group.outputs) {
    got.at(k) = compare::permuted_bytes(got.at(k), dtype_size(c.outputs.at(k).type.dtype), got_order);
    expected.at(k).values = compare::permuted_values(expected.at(k).values, expected_order);
  }
}

}  // namespace oprig::harness
