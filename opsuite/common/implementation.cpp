// The implementation part of the opsuite package for ONE backend: compiled
// once per backend with OPRIG_OPSUITE_BACKEND_<backend> defined. It exports
// oprig_implementation_query and dispatches the ABI calls to the op's
// KernelOps, found once in create; later calls go through the instance's
// KernelBase without any look-up.
#include <cstring>
#include <string_view>

#include "common/kernel.hpp"

namespace oprig::opsuite {
namespace {

#if defined(OPRIG_OPSUITE_BACKEND_cpu)
#define OPRIG_ON_cpu(...) __VA_ARGS__
constexpr uint32_t kBackendKind = OPRIG_BACKEND_CPU;
#else
#define OPRIG_ON_cpu(...)
#endif
#if defined(OPRIG_OPSUITE_BACKEND_opencl)
#define OPRIG_ON_opencl(...) __VA_ARGS__
constexpr uint32_t kBackendKind = OPRIG_BACKEND_OPENCL;
#else
#define OPRIG_ON_opencl(...)
#endif
#if defined(OPRIG_OPSUITE_BACKEND_vulkan)
#define OPRIG_ON_vulkan(...) __VA_ARGS__
constexpr uint32_t kBackendKind = OPRIG_BACKEND_VULKAN;
#else
#define OPRIG_ON_vulkan(...)
#endif
#if defined(OPRIG_OPSUITE_BACKEND_dsp)
#define OPRIG_ON_dsp(...) __VA_ARGS__
constexpr uint32_t kBackendKind = OPRIG_BACKEND_DSP;
#else
#define OPRIG_ON_dsp(...)
#endif

}  // namespace

#define OPRIG_OP(...)
#define OPRIG_KERNEL(op, backend, symbol) OPRIG_ON_##backend(extern const KernelOps symbol;)
#include "opsuite_ops.inc"
#undef OPRIG_KERNEL

namespace {

#define OPRIG_KERNEL(op, backend, symbol) OPRIG_ON_##backend(&symbol, )
const KernelOps* const kKernels[] = {
#include "opsuite_ops.inc"
    nullptr};
#undef OPRIG_KERNEL
#undef OPRIG_OP

oprig_status create(const oprig_backend_context* ctx, const char* op_name,
                    const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || op_name == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (ctx->kind != kBackendKind) return OPRIG_STATUS_INVALID_ARGUMENT;
  for (const KernelOps* ops : kKernels) {
    if (ops != nullptr && std::strcmp(ops->op_name, op_name) == 0)
      return ops->create(ctx, params, num_params, out_kernel);
  }
  return OPRIG_STATUS_UNSUPPORTED;
}

const KernelOps* ops_of(const oprig_kernel* kernel) {
  return reinterpret_cast<const KernelBase*>(kernel)->ops;
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     oprig_tensor* outputs, size_t num_outputs) {
  if (kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  return ops_of(kernel)->prepare(kernel, inputs, num_inputs, outputs, num_outputs);
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs,
                     oprig_execute_info* info) {
  if (kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  return ops_of(kernel)->execute(kernel, inputs, num_inputs, outputs, num_outputs, info);
}

void destroy(oprig_kernel* kernel) {
  if (kernel != nullptr) ops_of(kernel)->destroy(kernel);
}

oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  if (out_cost == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_cost = oprig_cost{};
  if (kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const KernelOps* ops = ops_of(kernel);
  if (ops->cost == nullptr) return OPRIG_STATUS_UNSUPPORTED;
  return ops->cost(kernel, out_cost);
}

oprig_status resolve_shapes(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                            oprig_tensor* outputs, size_t num_outputs) {
  if (kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const KernelOps* ops = ops_of(kernel);
  // The host calls this only when prepare() left a -1, which such a kernel never does.
  if (ops->resolve_shapes == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  return ops->resolve_shapes(kernel, inputs, num_inputs, outputs, num_outputs);
}

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), kBackendKind,
    create, prepare, execute, destroy, cost, resolve_shapes, {}};

}  // namespace
}  // namespace oprig::opsuite

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(
    uint32_t backend_kind, uint32_t max_version) {
  if (max_version < OPRIG_ABI_VERSION) return nullptr;
  if (backend_kind != oprig::opsuite::kBackendKind) return nullptr;
  return &oprig::opsuite::kImplementation;
}
