#include "spec/resolve.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace oprig::spec {
namespace {

// 0 = exact, 1 = prefix ("DSP_V68" for "DSP"), -1 = no match.
int match_kind(std::string_view spec_backend, std::string_view candidate) {
  if (iequals(spec_backend, candidate)) return 0;
  if (spec_backend.size() > candidate.size() && spec_backend[candidate.size()] == '_' &&
      iequals(spec_backend.substr(0, candidate.size()), candidate))
    return 1;
  return -1;
}

// The one supplemental list that applies to an oprig backend, or null.
const SupplementalList* applicable_list(const Package& package, std::string_view oprig_backend) {
  std::vector<std::string> candidates = spec_backends_for(oprig_backend);
  const SupplementalList* best = nullptr;
  size_t best_rank = std::numeric_limits<size_t>::max();
  for (const SupplementalList& list : package.supplementals) {
    for (size_t i = 0; i < candidates.size(); ++i) {
      int kind = match_kind(list.backend, candidates[i]);
      if (kind < 0) continue;
      size_t rank = 2 * i + static_cast<size_t>(kind);
      if (rank < best_rank) {
        best_rank = rank;
        best = &list;
      }
    }
  }
  return best;
}

const SupplementalTensor* find_override(const SupplementalList* list, const OpDef& op, TensorRole role,
                                        const std::string& tensor) {
  if (!list) return nullptr;
  for (const SupplementalOpDef& sup : list->ops) {
    if (!iequals(sup.name, op.name)) continue;
    for (const SupplementalTensor& st : tensors_of(sup, role))
      if (st.name == tensor) return &st;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> spec_backends_for(std::string_view oprig_backend) {
  if (oprig_backend == "cpu") return {"CPU"};
  if (oprig_backend == "opencl" || oprig_backend == "vulkan") return {"GPU"};
  if (oprig_backend == "dsp") return {"DSP", "HTP", "HTP_FP16"};
  return {};
}

bool spec_backend_matches(std::string_view spec_backend, std::string_view oprig_backend) {
  for (const std::string& candidate : spec_backends_for(oprig_backend))
    if (match_kind(spec_backend, candidate) >= 0) return true;
  return false;
}

bool op_supported_on(const Package& package, const OpDef& op, std::string_view oprig_backend) {
  bool declared = !op.supported_backends.empty();
  for (const std::string& backend : op.supported_backends)
    if (spec_backend_matches(backend, oprig_backend)) return true;
  bool backend_lists_ops = false;
  for (const SupplementalList& list : package.supplementals) {
    bool lists_op = std::any_of(list.supported_ops.begin(), list.supported_ops.end(),
                                [&](const std::string& name) { return iequals(name, op.name); });
    declared |= lists_op;
    bool matches = spec_backend_matches(list.backend, oprig_backend);
    if (lists_op && matches) return true;
    backend_lists_ops |= matches && !list.supported_ops.empty();
  }
  return !declared && !backend_lists_ops;
}

ResolvedTensor resolve_tensor(const Package& package, const OpDef& op, TensorRole role, size_t index,
                              std::string_view oprig_backend) {
  const TensorDef& def = tensors_of(op, role).at(index);
  ResolvedTensor out;
  out.def = &def;
  out.layout = def.shape.layout;
  out.shape_text = def.shape.text;
  out.constraints = def.constraints;
  bool open_type = def.datatypes.size() == 1 && def.datatypes[0] == DataType::kBackendSpecific;
  if (!open_type) out.datatypes = def.datatypes;
  if (out.layout == Layout::kBackendSpecific) out.layout = Layout::kUnspecified;

  const SupplementalTensor* over = find_override(applicable_list(package, oprig_backend), op, role, def.name);
  if (!over) return out;
  if (!over->datatypes.empty()) out.datatypes = over->datatypes;
  if (over->layout != Layout::kUnspecified) out.layout = over->layout;
  if (!over->shape_text.empty()) out.shape_text = over->shape_text;
  if (over->only_default_supported) out.only_default_supported = *over->only_default_supported;
  for (const Constraint& c : over->constraints) {
    auto same = std::find_if(out.constraints.begin(), out.constraints.end(),
                             [&](const Constraint& existing) { return !c.id.empty() && existing.id == c.id; });
    if (same != out.constraints.end()) *same = c;
    else out.constraints.push_back(c);
  }
  return out;
}

std::vector<RuntimeType> allowed_types(const Package& package, const OpDef& op, TensorRole role, size_t index,
                                       std::string_view oprig_backend) {
  std::vector<RuntimeType> types;
  if (!op_supported_on(package, op, oprig_backend)) return types;
  for (DataType type : resolve_tensor(package, op, role, index, oprig_backend).datatypes) {
    std::optional<RuntimeType> runtime = runtime_type(type);
    if (runtime && std::find(types.begin(), types.end(), *runtime) == types.end()) types.push_back(*runtime);
  }
  return types;
}

}  // namespace oprig::spec
