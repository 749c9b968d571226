#include "runner/tolerance_table.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/dtype.hpp"

namespace oprig::harness {

const compare::Tolerance* ToleranceTable::find(const std::string& output_name, oprig_dtype dtype) const {
  if (const auto it = by_output.find(output_name); it != by_output.end()) return &it->second;
  if (const auto it = by_dtype.find(dtype); it != by_dtype.end()) return &it->second;
  return nullptr;
}

ToleranceTable parse_tolerance_table(const nlohmann::json& table, const OpCaseSpace& space) {
  ToleranceTable out;
  if (!table.is_object()) throw std::runtime_error("expected an object: data type or output name -> tolerance");
  for (const auto& item : table.items()) {
    const std::string& key = item.key();  // not a structured binding: clang 14 cannot capture those
    const nlohmann::json& entry = item.value();
    try {
      if (const auto dtype = dtype_from_name(key)) {
        out.by_dtype[*dtype] = compare::parse_tolerance(entry);
      } else if (std::any_of(space.outputs.begin(), space.outputs.end(),
                             [&](const TensorSlot& s) { return s.name == key; })) {
        out.by_output[key] = compare::parse_tolerance(entry);
      } else {
        throw std::runtime_error("\"" + key + "\" is neither a data type nor an output of " + space.op);
      }
    } catch (const compare::ToleranceError& e) {
      throw std::runtime_error(key + ": " + e.what());
    }
  }
  return out;
}

}  // namespace oprig::harness
