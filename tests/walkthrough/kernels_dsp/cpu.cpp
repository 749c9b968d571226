// Relu on quantised UINT_8 on the cpu backend, as the vendor of the
// walkthrough writes it over the stub `oprig package new` generated: each
// code dequantised, clipped at 0 and quantised again in double. It is the
// reference of the dsp kernel under --reference-backend cpu, so it shares
// none of the dsp kernel's fixed-point arithmetic.
#include <oprig/oprig_package.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "relu_quant.hpp"

namespace {

struct Kernel {
  size_t count = 0;
  double in_scale = 0, out_scale = 0;
  int32_t in_zero = 0, out_zero = 0;
};

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  (void)ctx, (void)params, (void)num_params;  // Relu has no parameters
  if (std::strcmp(op_name, "Relu") != 0) return OPRIG_STATUS_UNSUPPORTED;
  auto* kernel = new (std::nothrow) Kernel;
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  *out_kernel = reinterpret_cast<oprig_kernel*>(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (handle == nullptr || num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = reinterpret_cast<Kernel*>(handle);
  if (!acme_dsp::quantized_u8(inputs[0]) || !acme_dsp::quantized_u8(outputs[0])) return OPRIG_STATUS_UNSUPPORTED;
  if (!acme_dsp::same_shape_as_input(inputs[0], outputs[0])) return OPRIG_STATUS_INVALID_ARGUMENT;
  kernel->count = acme_dsp::element_count(inputs[0]);
  kernel->in_scale = inputs[0].scale;
  kernel->out_scale = outputs[0].scale;
  kernel->in_zero = inputs[0].zero_point;
  kernel->out_zero = outputs[0].zero_point;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  (void)info;
  if (handle == nullptr || num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* k = reinterpret_cast<const Kernel*>(handle);
  const auto* x = static_cast<const uint8_t*>(inputs[0].data);
  auto* y = static_cast<uint8_t*>(outputs[0].data);
  for (size_t i = 0; i < k->count; ++i) {
    const double real = std::max(k->in_scale * (x[i] - k->in_zero), 0.0);
    const double code = std::round(real / k->out_scale) + k->out_zero;
    y[i] = static_cast<uint8_t>(std::clamp(code, 0.0, 255.0));
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
