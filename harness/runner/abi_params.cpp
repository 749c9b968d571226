#include "runner/abi_params.hpp"

#include <stdexcept>

#include "cases/tensor_data.hpp"
#include "core/dtype.hpp"

namespace oprig::harness {
namespace {

[[noreturn]] void bad(const std::string& name, const std::string& what) {
  throw std::runtime_error("parameter '" + name + "': " + what);
}

double element_value(const nlohmann::json& v, const ParamSlot& slot) {
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_number()) return v.get<double>();
  if (v.is_string() && !slot.enumeration.empty()) {
    for (size_t i = 0; i < slot.enumeration.size(); ++i)
      if (slot.enumeration[i] == v.get<std::string>()) return static_cast<double>(i);
    bad(slot.name, "'" + v.get<std::string>() + "' is not one of its enumeration values");
  }
  bad(slot.name, std::string("a ") + v.type_name() + " does not fit " + std::string(dtype_name(slot.dtype)));
}

// A tensor parameter written nested ([[1, 1], [2, 2]] for a 2D pad_amount)
// reaches the kernel as its elements in row-major order, as the ABI says.
void flatten(const nlohmann::json& v, std::vector<nlohmann::json>& out) {
  if (!v.is_array()) {
    out.push_back(v);
    return;
  }
  for (const nlohmann::json& e : v) flatten(e, out);
}

}  // namespace

AbiParams::AbiParams(const nlohmann::json& params, const OpCaseSpace& space) {
  if (!params.is_object()) throw std::runtime_error("parameters must be an object");
  for (const auto& [name, value] : params.items()) {
    const ParamSlot* slot = space.param(name);
    if (slot == nullptr) bad(name, "the spec of " + space.op + " has no such parameter");
    names_.push_back(name);
    std::vector<std::byte> bytes;
    uint32_t count = 0;
    if (slot->dtype == OPRIG_DTYPE_STRING) {
      if (!value.is_string()) bad(name, "the spec declares STRING, the value is a " + std::string(value.type_name()));
      const std::string text = value.get<std::string>();
      bytes.resize(text.size() + 1);
      for (size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<std::byte>(text[i]);
      count = static_cast<uint32_t>(text.size());
    } else {
      const size_t size = dtype_size(slot->dtype);
      if (size == 0) bad(name, "its spec type cannot be passed");
      std::vector<nlohmann::json> elements;
      flatten(value, elements);
      bytes.resize(std::max<size_t>(1, elements.size()) * size);
      for (size_t i = 0; i < elements.size(); ++i) {
        const double v = element_value(elements[i], *slot);
        if (!dtype_is_float(slot->dtype) && to_dtype_value(v, slot->dtype) != v)
          bad(name, "value " + elements[i].dump() + " does not fit " + std::string(dtype_name(slot->dtype)));
        store_element(bytes, slot->dtype, i, v);
      }
      count = static_cast<uint32_t>(elements.size());
    }
    storage_.push_back(std::move(bytes));
    params_.push_back({nullptr, static_cast<uint32_t>(slot->dtype), count, nullptr});
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    params_[i].name = names_[i].c_str();
    params_[i].data = storage_[i].data();
  }
}

}  // namespace oprig::harness
