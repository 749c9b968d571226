// From a spec to what the harness enumerates: which ops run on which oprig
// backend, and with which data types and layout per tensor.
//
// Backend names. Specs name vendor cores; oprig backends map onto them:
//   cpu            -> CPU
//   opencl, vulkan -> GPU
//   dsp            -> DSP, HTP, HTP_FP16   (oprig's dsp is an HVX-like fixed-point core)
// A spec name matches a candidate when equal ignoring case, or when it is the
// candidate followed by '_' and a suffix (DSP_V68 matches DSP, GPU_FP16 GPU).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spec/opdef.hpp"

namespace oprig::spec {

// Vendor core names for an oprig backend, in preference order; empty if unknown.
std::vector<std::string> spec_backends_for(std::string_view oprig_backend);

// Whether `spec_backend` (as written in a spec) is one of oprig_backend's cores.
bool spec_backend_matches(std::string_view spec_backend, std::string_view oprig_backend);

// Supported when a SupportedBackend / core_types entry, or a matching
// SupplementalOpDefList's SupportedOps, names the backend. A backend whose
// list has SupportedOps supports only the ops listed there (or naming it in
// SupportedBackend). An op that declares no backend anywhere (no
// SupportedBackend and in no SupportedOps) is taken as supported on every
// other backend, as a generic op.
bool op_supported_on(const Package& package, const OpDef& op, std::string_view oprig_backend);

// One tensor after the supplemental overrides for a backend. Exactly one
// SupplementalOpDefList applies: the best match, exact before prefix, earlier
// candidate of spec_backends_for first, earlier in the file on a tie (so for
// dsp a DSP list wins over HTP, and HTP over HTP_FP16).
struct ResolvedTensor {
  const TensorDef* def = nullptr;
  std::vector<DataType> datatypes;  // empty: BACKEND_SPECIFIC with no override here
  Layout layout = Layout::kUnspecified;
  std::string shape_text;
  std::vector<Constraint> constraints;  // same id replaced, new ids appended
  bool only_default_supported = false;
};

// `index` counts within the role (inputs, outputs or parameters).
// Throws std::out_of_range for a bad index.
ResolvedTensor resolve_tensor(const Package& package, const OpDef& op, TensorRole role, size_t index,
                              std::string_view oprig_backend);

// The resolved data types as runtime types, in spec order, without duplicates;
// types oprig cannot run (FIXED_4) are left out. Empty if the op is not
// supported on the backend.
std::vector<RuntimeType> allowed_types(const Package& package, const OpDef& op, TensorRole role, size_t index,
                                       std::string_view oprig_backend);

}  // namespace oprig::spec
