// Atan on the dsp backend: UINT_8 in, UINT_8 out, as a 256-entry lookup
// table. prepare() builds the table on the host in fp64 (what real DSP UDO
// kernels do at prepare time), laid out for HVX's vlut32; execute() is HVX
// code on the simulator through oprig_dsp.h: per 128 elements a vector load,
// one vlut32 and seven vlut32or (oprig_dsp_lut256) and a store, predicated
// for the tail. The table kernel, prepare to cost, is shared with Activation
// (opsuite/common/dsp_lut.hpp). Its cycle count is derived in
// backends/dsp/cost_model.md ("Atan UINT_8").
#include <algorithm>
#include <cmath>

#include "common/dsp_kernel.hpp"
#include "common/dsp_lut.hpp"
#include "common/kernel.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_atan__dsp;

namespace {

struct AtanDsp : DspLutKernel {
  double offset = 0;
};

// q_out = clamp(round_half_away(atan(s_in*(q - z_in) + offset) / s_out) + z_out, 0, 255)
uint8_t quantised_atan(int q, double s_in, int32_t z_in, double offset, double s_out,
                       int32_t z_out) {
  const double y = std::atan(s_in * (q - z_in) + offset) / s_out;
  const double code = std::round(y) + z_out;  // std::round: halves away from zero
  return static_cast<uint8_t>(std::clamp(code, 0.0, 255.0));
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  return create_dsp_kernel<AtanDsp>(ctx, &oprig_atan__dsp, out_kernel, [&](AtanDsp& k) {
    k.offset = scalar_param(params, num_params, "offset").value_or(0.0);
    return std::isnan(k.offset) ? OPRIG_STATUS_INVALID_ARGUMENT : OPRIG_STATUS_OK;
  });
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     oprig_tensor* outputs, size_t num_outputs) {
  auto* k = from_handle<AtanDsp>(kernel);
  return prepare_dsp_lut(*k, inputs, num_inputs, outputs, num_outputs,
                         [&](int q, const oprig_tensor& in, const oprig_tensor& out) {
                           return quantised_atan(q, in.scale, in.zero_point, k->offset, out.scale, out.zero_point);
                         });
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  return execute_dsp_lut(*from_handle<AtanDsp>(kernel), inputs, num_inputs, outputs, num_outputs, info, "the atan table");
}

void destroy(oprig_kernel* kernel) { delete from_handle<AtanDsp>(kernel); }

oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  return dsp_lut_cost(*from_handle<AtanDsp>(kernel), out_cost);
}

}  // namespace

const KernelOps oprig_atan__dsp = {"Atan", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
