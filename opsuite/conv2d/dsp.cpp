// Conv2D on the dsp backend: UINT_8 or INT_8 activations, INT_8 weights,
// INT_32 bias, NHWC, every stride, dilation, padding mode and group, by
// quant_conv.hpp's integer rule; the HVX program is common/dsp_conv.hpp's
// (vrmpy over 32 output channels x 4 taps, TFLite's requantisation). Cycles:
// backends/dsp/cost_model.md, "Conv2D UINT_8".
#include <new>

#include "common/dsp_conv.hpp"
#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "conv2d/conv_geometry.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_conv2d__dsp;

namespace {

struct Conv2DDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  conv2d::Params params;
  conv2d::Geometry g;
  dsp_conv::QuantConv conv;
  bool prepared = false;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<Conv2DDsp>(ctx, &oprig_conv2d__dsp, out_kernel, [&](Conv2DDsp& k) {
    return conv2d::read_params(params, num_params, &k.params) ? OPRIG_STATUS_OK : OPRIG_STATUS_INVALID_ARGUMENT;
  });
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<Conv2DDsp>(kernel);
  k->prepared = false;
  const oprig_status st =
      conv2d::plan(k->params, conv2d::Layout::kNHWC, inputs, num_inputs, outputs, num_outputs, &k->g, true);
  if (st != OPRIG_STATUS_OK) return st;
  if (!k->g.quantized) return OPRIG_STATUS_UNSUPPORTED;  // the DSP list declares quantised types only
  const oprig_status ready = k->conv.prepare(conv2d::conv_shape(k->g), k->g.rule);
  k->prepared = ready == OPRIG_STATUS_OK;
  return ready;
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<Conv2DDsp>(kernel);
  if (info != nullptr) info->dsp_cycles = 0;
  if (!k->prepared || info == nullptr || inputs == nullptr || outputs == nullptr || num_outputs != 1 ||
      num_inputs < (k->g.has_bias ? 3u : 2u))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  return k->conv.execute(k->ctx, inputs, outputs[0], info);
}

void destroy(oprig_kernel* kernel) { delete from_handle<Conv2DDsp>(kernel); }

oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  const auto* k = from_handle<Conv2DDsp>(kernel);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_cost = conv2d::cost_of(k->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_conv2d__dsp = {"Conv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
