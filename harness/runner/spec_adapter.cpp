// Spec -> harness: which data types run on which backend, numeric param
// defaults, tensor counts; and the check that a package agrees with its spec.
#include <algorithm>

#include "registry.hpp"
#include "spec/load.hpp"
#include "spec/resolve.hpp"
#include "runner/suite.hpp"

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

}  // namespace

OpCaseSpace case_space_from_spec(const std::filesystem::path& spec_path, const std::string& op_name,
                                 size_t* num_inputs, size_t* num_outputs) {
  const FoundOp found = find_op(spec_path, op_name);
  OpCaseSpace space;
  space.op = found.op.name;
  space.package = found.package.name;
  for (const std::string& backend : backend_names()) {
    if (!spec::op_supported_on(found.package, found.op, backend)) continue;
    std::vector<TypeChoice>& types = space.types_by_backend[backend];
    for (const spec::RuntimeType& t :
         spec::allowed_types(found.package, found.op, spec::TensorRole::kInput, 0, backend))
      types.push_back({t.dtype, t.quantized});
  }
  for (const spec::TensorDef& p : found.op.parameters)
    if (p.default_value && p.default_value->parsed.is_number())
      space.param_defaults[p.name] = p.default_value->parsed.get<double>();
  *num_inputs = found.op.inputs.size();
  *num_outputs = found.op.outputs.size();
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
