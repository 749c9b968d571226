// What every opsuite kernel file provides: one KernelOps per op × backend,
// named oprig_<op>__<backend> and listed in the op's ops.inc. The backend's
// implementation library (implementation.cpp) dispatches to it; each kernel
// instance starts with a KernelBase so the library can find its functions
// without any look-up per call.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "oprig/oprig_package.h"

namespace oprig::opsuite {

struct KernelOps {
  const char* op_name;  // the OpDef Name
  oprig_status (*create)(const oprig_backend_context* ctx, const oprig_param* params,
                         size_t num_params, oprig_kernel** out_kernel);
  oprig_status (*prepare)(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                          oprig_tensor* outputs, size_t num_outputs);
  oprig_status (*execute)(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                          const oprig_tensor* outputs, size_t num_outputs,
                          oprig_execute_info* info);
  void (*destroy)(oprig_kernel* kernel);
  oprig_status (*cost)(const oprig_kernel* kernel, oprig_cost* out_cost);  // may be nullptr
  // May be nullptr (left out of the initialiser): only an op whose output
  // shape depends on input values (prepare writes -1) needs it; see
  // oprig_implementation_v1::resolve_shapes.
  oprig_status (*resolve_shapes)(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                                 oprig_tensor* outputs, size_t num_outputs);
};

// First member of every kernel instance. Kernel structs derive from it and are
// handed out as oprig_kernel* (reinterpret_cast both ways).
struct KernelBase {
  const KernelOps* ops = nullptr;
};

template <typename Kernel>
oprig_kernel* to_handle(Kernel* kernel) {
  return reinterpret_cast<oprig_kernel*>(static_cast<KernelBase*>(kernel));
}
template <typename Kernel>
Kernel* from_handle(oprig_kernel* handle) {
  return static_cast<Kernel*>(reinterpret_cast<KernelBase*>(handle));
}
template <typename Kernel>
const Kernel* from_handle(const oprig_kernel* handle) {
  return static_cast<const Kernel*>(reinterpret_cast<const KernelBase*>(handle));
}

// Parameters by spec name, in whatever type the spec declares (the host
// passes each as its spec Datatype: FLOAT_32, INT_32, UINT_32, BOOL_8, ...;
// tensor parameters with count > 1; an enumeration as its index in the
// spec's integer type, or as its name when the spec declares STRING).
// nullopt when the parameter is absent (then the spec's Default applies).
const oprig_param* find_param(const oprig_param* params, size_t num_params, std::string_view name);
// A numeric scalar (count 1) of any numeric or BOOL_8 dtype, as double.
std::optional<double> scalar_param(const oprig_param* params, size_t num_params,
                                   std::string_view name);
// Every element of a numeric parameter (scalar or tensor), as integers / doubles.
std::optional<std::vector<int64_t>> int_list_param(const oprig_param* params, size_t num_params,
                                                   std::string_view name);
std::optional<std::vector<double>> float_list_param(const oprig_param* params, size_t num_params,
                                                    std::string_view name);
// An enumeration: its index in `values`, whether it came as an integer index
// or as a STRING name; -1 when present but not one of `values`.
std::optional<int> enum_param(const oprig_param* params, size_t num_params, std::string_view name,
                              std::initializer_list<std::string_view> values);

// Number of elements of a tensor (1 for rank 0).
size_t element_count(const oprig_tensor& tensor);

}  // namespace oprig::opsuite
