// Activation on the dsp backend: UINT_8 in, UINT_8 out, every mode as a
// 256-entry lookup table built at prepare in fp64 (activation_fp64, the
// reference's own functions) and applied on the simulator by the shared
// table kernel (opsuite/common/dsp_lut.hpp, as Atan): exact against the fp64
// reference. Cycles: backends/dsp/cost_model.md ("Activation UINT_8").
#include <algorithm>
#include <cmath>
#include <optional>

#include "activation/activation_fp64.hpp"
#include "activation/activation_modes.hpp"
#include "common/dsp_kernel.hpp"
#include "common/dsp_lut.hpp"
#include "common/kernel.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_activation__dsp;

namespace {

struct ActivationDsp : DspLutKernel {
  int mode = 0;
};

// q_out = clamp(round_half_away(f(s_in*(q - z_in)) / s_out) + z_out, 0, 255)
uint8_t quantised_activation(int mode, int q, double s_in, int32_t z_in, double s_out, int32_t z_out) {
  const double y = activation_fp64(kActivationModeNames[mode], s_in * (q - z_in)) / s_out;
  const double code = std::round(y) + z_out;  // std::round: halves away from zero
  return static_cast<uint8_t>(std::clamp(code, 0.0, 255.0));
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<ActivationDsp>(ctx, &oprig_activation__dsp, out_kernel, [&](ActivationDsp& k) {
    const std::optional<int> mode = activation_mode(params, num_params);
    if (!mode || *mode < 0) return OPRIG_STATUS_INVALID_ARGUMENT;  // mandatory, and one of the eight
    k.mode = *mode;
    return OPRIG_STATUS_OK;
  });
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     oprig_tensor* outputs, size_t num_outputs) {
  auto* k = from_handle<ActivationDsp>(kernel);
  return prepare_dsp_lut(*k, inputs, num_inputs, outputs, num_outputs,
                         [&](int q, const oprig_tensor& in, const oprig_tensor& out) {
                           return quantised_activation(k->mode, q, in.scale, in.zero_point, out.scale, out.zero_point);
                         });
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  return execute_dsp_lut(*from_handle<ActivationDsp>(kernel), inputs, num_inputs, outputs, num_outputs, info, "the activation table");
}

void destroy(oprig_kernel* kernel) { delete from_handle<ActivationDsp>(kernel); }

oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  return dsp_lut_cost(*from_handle<ActivationDsp>(kernel), out_cost);
}

}  // namespace

const KernelOps oprig_activation__dsp = {"Activation", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
