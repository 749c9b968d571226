// Relu on quantised UINT_8 for oprig's simulated DSP, as the vendor of the
// walkthrough writes it over the stub `oprig package new` generated: HVX code
// with the installed <oprig/oprig_dsp.h> only, as it would run on Hexagon.
//
//   out = out_zero + M * (max(x, in_zero) - in_zero),  M = in_scale / out_scale
//
// with M in TFLite's fixed point (relu_quant.hpp). Per 128 codes: one vmax on
// the bytes (a code below the input's zero point is a negative value), the
// widening to four vectors of words, per word vector a subtraction, the
// requantisation (oprig_dsp_apply_quantized_multiplier_w: vasl, vmpye +
// vmpyo, a rounding shift) and an addition, then the saturating narrowing
// back to bytes (vpack).
//
// Planted bugs, for the walkthrough to catch: -DWALKTHROUGH_DSP_BUG=1 packs
// the halves in the wrong order (vpack takes the high half first), wrong
// values; -DWALKTHROUGH_DSP_BUG=2 stores the last, partial vector whole, past
// the end of the output (a fault on the simulator, a memory corruption on a
// device).
#include <oprig/oprig_dsp.h>
#include <oprig/oprig_package.h>

#include <cstdint>
#include <cstring>
#include <new>

#include "relu_quant.hpp"

#ifndef WALKTHROUGH_DSP_BUG
#define WALKTHROUGH_DSP_BUG 0
#endif

namespace {

struct Kernel {
  const oprig_backend_context* ctx = nullptr;  // the simulator, for oprig_dsp_begin()
  size_t count = 0;
  int32_t in_zero = 0, out_zero = 0;
  acme_dsp::Requantization requantization;
};

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  (void)params, (void)num_params;  // Relu has no parameters
  if (std::strcmp(op_name, "Relu") != 0 || !oprig_dsp_available(ctx)) return OPRIG_STATUS_UNSUPPORTED;
  auto* k = new (std::nothrow) Kernel;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ctx = ctx;
  *out_kernel = reinterpret_cast<oprig_kernel*>(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (kernel == nullptr || num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = reinterpret_cast<Kernel*>(kernel);
  if (!acme_dsp::quantized_u8(inputs[0]) || !acme_dsp::quantized_u8(outputs[0])) return OPRIG_STATUS_UNSUPPORTED;
  if (!acme_dsp::requantization(static_cast<double>(inputs[0].scale) / outputs[0].scale, &k->requantization))
    return OPRIG_STATUS_UNSUPPORTED;
  if (!acme_dsp::same_shape_as_input(inputs[0], outputs[0])) return OPRIG_STATUS_INVALID_ARGUMENT;
  k->count = acme_dsp::element_count(inputs[0]);
  k->in_zero = inputs[0].zero_point;
  k->out_zero = outputs[0].zero_point;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (kernel == nullptr || num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* k = reinterpret_cast<const Kernel*>(kernel);
  const auto* in = static_cast<const uint8_t*>(inputs[0].data);
  auto* out = static_cast<uint8_t*>(outputs[0].data);
  const oprig_status begun = oprig_dsp_begin(k->ctx);
  if (begun != OPRIG_STATUS_OK) return begun;
  // The constants, once: each splat is an instruction.
  const HVX_Vector in_zero_codes = Q6_Vb_vsplat_R(k->in_zero);
  const HVX_Vector in_zero = Q6_V_vsplat_R(k->in_zero);
  const HVX_Vector out_zero = Q6_V_vsplat_R(k->out_zero);
  const oprig_dsp_quantized_multiplier m =
      oprig_dsp_make_quantized_multiplier(k->requantization.multiplier, k->requantization.shift);
  for (size_t i = 0; i < k->count; i += OPRIG_DSP_VECTOR_BYTES) {
    const HVX_Vector x = Q6_Vub_vmax_VubVub(oprig_dsp_load_bytes(in + i, k->count - i), in_zero_codes);
    HVX_Vector w[4];
    oprig_dsp_widen_ub_w(x, w);  // w[j]: codes 32j..32j+31
    for (HVX_Vector& v : w)
      v = Q6_Vw_vadd_VwVw(oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vsub_VwVw(v, in_zero), &m), out_zero);
    const HVX_Vector low = Q6_Vh_vpack_VwVw_sat(w[1], w[0]), high = Q6_Vh_vpack_VwVw_sat(w[3], w[2]);
#if WALKTHROUGH_DSP_BUG == 1
    const HVX_Vector y = Q6_Vub_vpack_VhVh_sat(low, high);
#else
    const HVX_Vector y = Q6_Vub_vpack_VhVh_sat(high, low);
#endif
#if WALKTHROUGH_DSP_BUG == 2
    oprig_vmemu_store(out + i, y);
#else
    oprig_dsp_store_bytes(out + i, k->count - i, y);  // the tail: predicated stores, nothing past the output
#endif
  }
  return oprig_dsp_end(info);  // the simulated cycles into info->dsp_cycles
}

void destroy(oprig_kernel* kernel) { delete reinterpret_cast<Kernel*>(kernel); }

const oprig_implementation_v1 kImplementation = {OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_DSP,
                                                 create, prepare, execute, destroy, nullptr, nullptr, {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                  uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION && backend_kind == OPRIG_BACKEND_DSP ? &kImplementation : nullptr;
}
