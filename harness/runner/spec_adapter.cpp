// Spec -> harness: the op's tensors with their data types per backend, its
// parameters with types, enumerations and defaults; and the check that a
// package agrees with its spec.
#include <algorithm>

#include "registry.hpp"
#include "runner/suite.hpp"
#include "spec/load.hpp"
#include "spec/resolve.hpp"

namespace oprig::harness {
namespace {

struct FoundOp {
  spec::Package package;
  spec::OpDef op;
};

// Op names may differ in case between spec, plan and file names (vendor files do).
FoundOp find_op(const std::filesystem::path& spec_path, const std::string& op_name) {
  spec::LoadResult loaded = spec::load_spec_file(spec_path);
  if (!loaded.ok()) {
    std::string text;
    for (const spec::SpecError& e : loaded.errors) text += (text.empty() ? "" : "\n") + e.to_string();
    throw InputError(text);
  }
  for (spec::Package& p : loaded.packages)
    for (spec::OpDef& op : p.ops)
      if (spec::iequals(op.name, op_name)) return {p, op};
  throw InputError(spec_path.string() + ": no op named '" + op_name + "' in this spec");
}

TensorSlot tensor_slot(const spec::Package& package, const spec::OpDef& op, spec::TensorRole role, size_t index,
                       const std::vector<std::string>& backends) {
  const spec::TensorDef& def = spec::tensors_of(op, role).at(index);
  TensorSlot slot;
  slot.name = def.name;
  slot.mandatory = def.mandatory;
  slot.repeated = def.repeated;
  slot.is_static = def.is_static;
  slot.rank = std::string(spec::rank_name(def.shape.rank));
  slot.layout = std::string(spec::layout_name(def.shape.layout));
  if (def.default_value) slot.default_value = def.default_value->parsed;
  slot.shape_text = def.shape.text;
  for (const spec::Constraint& c : def.constraints) slot.constraints.push_back(c.text + (c.code.empty() ? "" : " " + c.code));
  for (const std::string& backend : backends) {
    std::vector<TypeChoice>& types = slot.types_by_backend[backend];
    for (const spec::RuntimeType& t : spec::allowed_types(package, op, role, index, backend))
      types.push_back({t.dtype, t.quantized});
    const spec::ResolvedTensor resolved = spec::resolve_tensor(package, op, role, index, backend);
    slot.layout_by_backend[backend] = std::string(spec::layout_name(resolved.layout));
  }
  return slot;
}

// Enumeration values reach the reference by name, whichever way the Default
// names them (by index or by name).
nlohmann::json enum_value_name(const nlohmann::json& v, const std::vector<std::string>& values) {
  if (v.is_number_integer() && v.get<int64_t>() >= 0 && static_cast<size_t>(v.get<int64_t>()) < values.size())
    return values[static_cast<size_t>(v.get<int64_t>())];
  if (v.is_string())
    for (const std::string& e : values)
      if (spec::iequals(e, v.get<std::string>())) return e;
  return v;
}

ParamSlot param_slot(const spec::TensorDef& def) {
  ParamSlot slot;
  slot.name = def.name;
  slot.mandatory = def.mandatory;
  slot.enumeration = def.enumeration;
  slot.rank = std::string(spec::rank_name(def.shape.rank));
  for (const spec::DataType t : def.datatypes) {
    if (const auto rt = spec::runtime_type(t)) {
      slot.dtype = rt->dtype;
      break;
    }
    if (t == spec::DataType::kString) {
      slot.dtype = OPRIG_DTYPE_STRING;
      break;
    }
  }
  const spec::Rank r = def.shape.rank;
  slot.tensor = r != spec::Rank::kScalar && r != spec::Rank::k0D && r != spec::Rank::kUnspecified;
  if (def.default_value) {
    slot.default_raw = def.default_value->raw;
    slot.default_value = def.default_value->parsed;
    if (!slot.enumeration.empty()) slot.default_value = enum_value_name(slot.default_value, slot.enumeration);
    if (r == spec::Rank::kUnspecified && slot.default_value.is_array()) slot.tensor = true;
  }
  for (const spec::Constraint& c : def.constraints) slot.constraints.push_back(c.text);
  slot.shape_text = def.shape.text;
  slot.description = def.description.content;
  return slot;
}

}  // namespace

OpCaseSpace case_space_from_spec(const std::filesystem::path& spec_path, const std::string& op_name) {
  const FoundOp found = find_op(spec_path, op_name);
  OpCaseSpace space;
  space.op = found.op.name;
  space.package = found.package.name;
  for (const std::string& backend : backend_names())
    if (spec::op_supported_on(found.package, found.op, backend)) space.backends.push_back(backend);
  for (size_t i = 0; i < found.op.inputs.size(); ++i)
    space.inputs.push_back(tensor_slot(found.package, found.op, spec::TensorRole::kInput, i, space.backends));
  for (size_t i = 0; i < found.op.outputs.size(); ++i)
    space.outputs.push_back(tensor_slot(found.package, found.op, spec::TensorRole::kOutput, i, space.backends));
  for (const spec::TensorDef& p : found.op.parameters) space.params.push_back(param_slot(p));
  return space;
}

void check_package_against_spec(const Package& package, const std::filesystem::path& spec_path,
                                const std::string& op_name) {
  const FoundOp found = find_op(spec_path, op_name);
  const PackageOp* op = package.find_op(found.op.name);
  const std::string where = package.path().string() + ": op '" + found.op.name + "' ";
  if (op == nullptr) throw InputError(where + "is not registered by package " + package.name());
  if (op->num_inputs != found.op.inputs.size() || op->num_outputs != found.op.outputs.size())
    throw InputError(where + "has " + std::to_string(op->num_inputs) + " inputs and " +
                     std::to_string(op->num_outputs) + " outputs, but " + spec_path.string() + " says " +
                     std::to_string(found.op.inputs.size()) + " and " + std::to_string(found.op.outputs.size()));
  for (const std::string& name : op->param_names)
    if (std::none_of(found.op.parameters.begin(), found.op.parameters.end(),
                     [&](const spec::TensorDef& p) { return p.name == name; }))
      throw InputError(where + "takes parameter '" + name + "' that " + spec_path.string() + " does not define");
  for (const spec::TensorDef& p : found.op.parameters)
    if (p.mandatory && std::find(op->param_names.begin(), op->param_names.end(), p.name) == op->param_names.end())
      throw InputError(where + "lacks mandatory parameter '" + p.name + "' of " + spec_path.string());
  for (const std::string& backend : backend_names()) {
    const oprig_backend_kind kind = backend_kind_from_name(backend);
    if ((op->backend_mask & OPRIG_BACKEND_BIT(kind)) && !spec::op_supported_on(found.package, found.op, backend))
      throw InputError(where + "has a " + backend + " kernel, but " + spec_path.string() +
                       " does not list that backend for it");
  }
}

}  // namespace oprig::harness
