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

struct ActivationDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  int mode = 0;
  size_t elements = 0;
  bool prepared = false;
  DspLut256 table;
};

// q_out = clamp(round_half_away(f(s_in*(q - z_in)) / s_out) + z_out, 0, 255)
uint8_t quantised_activation(int mode, int q, double s_in, int32_t z_in, double s_out, int32_t z_out) {
  const double y = activation_fp64(kActivationModeNames[mode], s_in * (q - z_in)) / s_out;
  const double code = std::round(y) + z_out;  // std::round: halves away from zero
  return static_cast<uint8_t>(std::clamp(code, 0.0, 255.0));
}

bool quantised_u8(const oprig_tensor& t) {
  return t.dtype == OPRIG_DTYPE_UINT_8 && std::isfinite(t.scale) && t.scale > 0;
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
  k->prepared = false;
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.rank > OPRIG_MAX_RANK) return OPRIG_STATUS_INVALID_ARGUMENT;
  for (uint32_t d = 0; d < in.rank; ++d)
    if (in.dims[d] < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!quantised_u8(in) || !quantised_u8(out)) return OPRIG_STATUS_UNSUPPORTED;

  out.rank = in.rank;
  std::copy(std::begin(in.dims), std::end(in.dims), std::begin(out.dims));
  k->table.fill([&](int q) {
    return quantised_activation(k->mode, q, in.scale, in.zero_point, out.scale, out.zero_point);
  });
  k->elements = element_count(in);
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<ActivationDsp>(kernel);
  if (info != nullptr) info->dsp_cycles = 0;
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr ||
      info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const size_t n = k->elements;
  if (element_count(inputs[0]) != n || element_count(outputs[0]) != n)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (n > 0 && (inputs[0].data == nullptr || outputs[0].data == nullptr))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (const oprig_status s = oprig_dsp_begin(k->ctx); s != OPRIG_STATUS_OK) return s;
  if (n > 0)
    run_dsp_lut256(static_cast<const uint8_t*>(inputs[0].data), static_cast<uint8_t*>(outputs[0].data), n, k->table,
                   "the activation table");
  return oprig_dsp_end(info);
}

void destroy(oprig_kernel* kernel) { delete from_handle<ActivationDsp>(kernel); }

// A table lookup does no floating-point arithmetic at execute: flops 0. Bytes:
// the input, the 256-byte table (read every execute) and the output.
oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  const auto* k = from_handle<ActivationDsp>(kernel);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  out_cost->flops = 0;
  out_cost->bytes_read = k->elements + k->table.bytes.size();
  out_cost->bytes_written = k->elements;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_activation__dsp = {"Activation", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
