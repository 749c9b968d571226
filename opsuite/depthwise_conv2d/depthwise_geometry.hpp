// What every DepthwiseConv2D kernel (cpu.cpp, opencl.cpp, vulkan.cpp) reads
// the same way: the parameters by their spec names, the checks of prepare()
// and the geometry they give, and the work cost() reports. NHWC on every
// backend, as the spec declares.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/conv_operands.hpp"
#include "common/kernel.hpp"
#include "common/quant_conv.hpp"

namespace oprig::opsuite::depthwise {

struct Params {
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1}, pads[4] = {0, 0, 0, 0};  // pads: top, bottom, left, right
};

// false when a parameter is malformed (create() answers INVALID_ARGUMENT).
inline bool read_params(const oprig_param* params, size_t num_params, Params* p) {
  return read_window_params(params, num_params, p->stride, p->dilation, p->pads);
}

// One prepared depthwise convolution.
struct Geometry {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  int64_t batch = 0, height = 0, width = 0, channels = 0, kh = 0, kw = 0, c_out = 0;
  int64_t out_h = 0, out_w = 0;
  bool has_bias = false;
  bool quantized = false;  // UINT_8 / INT_8 under quant_conv.hpp's integer rule
  quant::ConvRule rule;    // when quantized
  Params params;

  int64_t multiplier() const { return c_out / channels; }
  int64_t output_elements() const { return batch * out_h * out_w * c_out; }
};

// The checks of prepare(): FLOAT_32 or FLOAT_16 throughout, or with
// `quantized_ok` quantised operands under quant_conv.hpp's rule (others
// UNSUPPORTED), shapes consistent with the parameters; sets the output's
// shape and fills *g. A bias of dtype INVALID is absent.
inline oprig_status plan(const Params& p, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                         size_t num_outputs, Geometry* g, bool quantized_ok = false) {
  *g = Geometry{};
  ConvOperands operands;
  const oprig_status st = check_conv_operands(inputs, num_inputs, outputs, num_outputs, quantized_ok, &operands);
  if (st != OPRIG_STATUS_OK) return st;
  Geometry r;
  r.dtype = operands.dtype;
  r.has_bias = operands.has_bias;
  r.quantized = operands.quantized;
  r.rule = operands.rule;
  const oprig_tensor& in = inputs[0];
  const oprig_tensor& w = inputs[1];
  const bool has_bias = r.has_bias;
  r.params = p;
  r.batch = in.dims[0];
  r.height = in.dims[1];
  r.width = in.dims[2];
  r.channels = in.dims[3];
  r.kh = w.dims[0];
  r.kw = w.dims[1];
  r.c_out = w.dims[3];
  if (r.kh < 1 || r.kw < 1 || w.dims[2] != 1 || r.channels < 1 || r.c_out % r.channels != 0)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (has_bias && (inputs[2].rank != 1 || inputs[2].dims[0] != r.c_out)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t span_h = (r.kh - 1) * p.dilation[0] + 1, span_w = (r.kw - 1) * p.dilation[1] + 1;
  const int64_t padded_h = r.height + p.pads[0] + p.pads[1], padded_w = r.width + p.pads[2] + p.pads[3];
  if (padded_h < span_h || padded_w < span_w) return OPRIG_STATUS_INVALID_ARGUMENT;
  r.out_h = (padded_h - span_h) / p.stride[0] + 1;
  r.out_w = (padded_w - span_w) / p.stride[1] + 1;
  outputs[0].rank = 4;
  outputs[0].dims[0] = r.batch;
  outputs[0].dims[1] = r.out_h;
  outputs[0].dims[2] = r.out_w;
  outputs[0].dims[3] = r.c_out;
  *g = r;
  return OPRIG_STATUS_OK;
}

// The quantised kernels' view: a grouped convolution with one input
// channel per group.
inline quant::ConvShape conv_shape(const Geometry& g) {
  quant::ConvShape s;
  s.batch = g.batch;
  s.height = g.height;
  s.width = g.width;
  s.c_in = g.channels;
  s.kh = g.kh;
  s.kw = g.kw;
  s.group = g.channels;
  s.group_in = 1;
  s.group_out = g.multiplier();
  s.c_out = g.c_out;
  s.out_h = g.out_h;
  s.out_w = g.out_w;
  s.pad_top = g.params.pads[0];
  s.pad_left = g.params.pads[2];
  std::copy(g.params.stride, g.params.stride + 2, s.stride);
  std::copy(g.params.dilation, g.params.dilation + 2, s.dilation);
  return s;
}

inline oprig_cost cost_of(const Geometry& g) {
  const uint64_t width = g.quantized ? 1 : g.dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  const auto outputs = static_cast<uint64_t>(g.output_elements());
  oprig_cost c{};
  c.flops = 2 * outputs * static_cast<uint64_t>(g.kh * g.kw);
  c.bytes_read = width * static_cast<uint64_t>(g.batch * g.height * g.width * g.channels + g.kh * g.kw * g.c_out +
                                               (g.has_bias ? g.c_out : 0));
  c.bytes_written = width * outputs;
  return c;
}

}  // namespace oprig::opsuite::depthwise
