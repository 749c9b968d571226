// LeakyRelu on the cpu backend, as the vendor of the walkthrough writes it
// over the stub `oprig package new` generated: one loop, fp32 and fp16 (fp16
// computed in float and rounded once, through GCC's _Float16).
#include <oprig/oprig_package.h>

#include <cstring>
#include <new>

#include "leaky_relu_params.hpp"

namespace {

struct Kernel {
  float alpha = acme::kDefaultAlpha;
  uint32_t dtype = OPRIG_DTYPE_INVALID;
  size_t count = 0;
};

float leaky(float x, float alpha) { return x >= 0.0f ? x : alpha * x; }

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  (void)ctx;
  if (std::strcmp(op_name, "LeakyRelu") != 0) return OPRIG_STATUS_UNSUPPORTED;
  auto* kernel = new (std::nothrow) Kernel;
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  if (!acme::read_alpha(params, num_params, &kernel->alpha)) {
    delete kernel;
    return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  *out_kernel = reinterpret_cast<oprig_kernel*>(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (handle == nullptr || num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = reinterpret_cast<Kernel*>(handle);
  const uint32_t dtype = inputs[0].dtype;
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!acme::same_shape_as_input(inputs[0], outputs[0])) return OPRIG_STATUS_INVALID_ARGUMENT;
  kernel->dtype = dtype;
  kernel->count = acme::element_count(inputs[0]);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  (void)info;
  if (handle == nullptr || num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* kernel = reinterpret_cast<const Kernel*>(handle);
  if (kernel->dtype == OPRIG_DTYPE_FLOAT_32) {
    const auto* x = static_cast<const float*>(inputs[0].data);
    auto* y = static_cast<float*>(outputs[0].data);
    for (size_t i = 0; i < kernel->count; ++i) y[i] = leaky(x[i], kernel->alpha);
  } else if (kernel->dtype == OPRIG_DTYPE_FLOAT_16) {
    const auto* x = static_cast<const _Float16*>(inputs[0].data);
    auto* y = static_cast<_Float16*>(outputs[0].data);
    for (size_t i = 0; i < kernel->count; ++i) y[i] = static_cast<_Float16>(leaky(static_cast<float>(x[i]), kernel->alpha));
  } else {
    return OPRIG_STATUS_INVALID_ARGUMENT;  // no prepare
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete reinterpret_cast<Kernel*>(handle); }

const oprig_implementation_v1 kImplementation = {OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_CPU,
                                                 create, prepare, execute, destroy, nullptr, nullptr, {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                  uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION && backend_kind == OPRIG_BACKEND_CPU ? &kImplementation : nullptr;
}
