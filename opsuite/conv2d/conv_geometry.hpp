// What every Conv2D kernel (cpu.cpp, opencl.cpp, vulkan.cpp) reads the same
// way: the parameters by their spec names, the checks of prepare() and the
// geometry they give (output size, the padding before each axis), and the
// work cost() reports. Only the activation layout differs per backend (NHWC
// on CPU, NCHW on GPU, as the spec's supplemental lists say).
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/conv_operands.hpp"
#include "common/kernel.hpp"
#include "common/quant_conv.hpp"

namespace oprig::opsuite::conv2d {

enum class Padding { kExplicit, kSameUpper, kSameLower, kValid };
enum class Layout { kNHWC, kNCHW };

struct Params {
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1}, pads[4] = {0, 0, 0, 0};  // pads: top, bottom, left, right
  int64_t group = 1;
  Padding padding = Padding::kExplicit;
};

// false when a parameter is malformed (create() answers INVALID_ARGUMENT).
inline bool read_params(const oprig_param* params, size_t num_params, Params* p) {
  if (!read_window_params(params, num_params, p->stride, p->dilation, p->pads)) return false;
  p->group = static_cast<int64_t>(scalar_param(params, num_params, "group").value_or(1));
  const std::optional<int> mode =
      enum_param(params, num_params, "padding", {"EXPLICIT", "SAME_UPPER", "SAME_LOWER", "VALID"});
  if (mode && *mode < 0) return false;
  p->padding = static_cast<Padding>(mode.value_or(0));
  return p->group >= 1;
}

// Output size and padding before along one axis; false when the window does not fit.
inline bool plan_axis(Padding mode, int64_t size, int64_t kernel, int64_t stride, int64_t dilation, int64_t before,
                      int64_t after, int64_t* out, int64_t* pad_before) {
  const int64_t span = (kernel - 1) * dilation + 1;
  if (mode == Padding::kSameUpper || mode == Padding::kSameLower) {
    *out = (size + stride - 1) / stride;
    const int64_t total = std::max<int64_t>(0, (*out - 1) * stride + span - size);
    *pad_before = mode == Padding::kSameUpper ? total / 2 : total - total / 2;
    return true;
  }
  if (mode == Padding::kValid) before = after = 0;
  if (size + before + after < span) return false;
  *out = (size + before + after - span) / stride + 1;
  *pad_before = before;
  return true;
}

// One prepared convolution.
struct Geometry {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  int64_t batch = 0, height = 0, width = 0, c_in = 0;
  int64_t kh = 0, kw = 0, group_in = 0, c_out = 0, group_out = 0;
  int64_t out_h = 0, out_w = 0, pad_top = 0, pad_left = 0;
  bool has_bias = false;
  bool quantized = false;   // UINT_8 / INT_8 under quant_conv.hpp's integer rule
  quant::ConvRule rule;     // when quantized
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1};

  int64_t output_elements() const { return batch * out_h * out_w * c_out; }
  int64_t pixels() const { return batch * out_h * out_w; }
  int64_t depth() const { return kh * kw * group_in; }  // the products summed per output element
};

// The checks of prepare(): FLOAT_32 or FLOAT_16 throughout, or with
// `quantized_ok` quantised operands under quant_conv.hpp's rule (others
// UNSUPPORTED), shapes consistent with the parameters; sets the output's
// shape in `layout` and fills *g. A bias of dtype INVALID is absent.
inline oprig_status plan(const Params& p, Layout layout, const oprig_tensor* inputs, size_t num_inputs,
                         oprig_tensor* outputs, size_t num_outputs, Geometry* g, bool quantized_ok = false) {
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
  std::copy(p.stride, p.stride + 2, r.stride);
  std::copy(p.dilation, p.dilation + 2, r.dilation);
  r.batch = in.dims[0];
  const bool nchw = layout == Layout::kNCHW;
  r.c_in = nchw ? in.dims[1] : in.dims[3];
  r.height = nchw ? in.dims[2] : in.dims[1];
  r.width = nchw ? in.dims[3] : in.dims[2];
  r.kh = w.dims[0];
  r.kw = w.dims[1];
  r.group_in = w.dims[2];
  r.c_out = w.dims[3];
  if (r.kh < 1 || r.kw < 1 || r.c_in != r.group_in * p.group || r.c_out % p.group != 0)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (has_bias && (inputs[2].rank != 1 || inputs[2].dims[0] != r.c_out)) return OPRIG_STATUS_INVALID_ARGUMENT;
  r.group_out = r.c_out / p.group;
  if (!plan_axis(p.padding, r.height, r.kh, p.stride[0], p.dilation[0], p.pads[0], p.pads[1], &r.out_h, &r.pad_top) ||
      !plan_axis(p.padding, r.width, r.kw, p.stride[1], p.dilation[1], p.pads[2], p.pads[3], &r.out_w, &r.pad_left))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = 4;
  outputs[0].dims[0] = r.batch;
  outputs[0].dims[1] = nchw ? r.c_out : r.out_h;
  outputs[0].dims[2] = nchw ? r.out_h : r.out_w;
  outputs[0].dims[3] = nchw ? r.out_w : r.c_out;
  *g = r;
  return OPRIG_STATUS_OK;
}

// The quantised kernels' view: NHWC, grouped.
inline quant::ConvShape conv_shape(const Geometry& g) {
  quant::ConvShape s;
  s.batch = g.batch;
  s.height = g.height;
  s.width = g.width;
  s.c_in = g.c_in;
  s.kh = g.kh;
  s.kw = g.kw;
  s.group_in = g.group_in;
  s.group_out = g.group_out;
  s.group = g.group_out > 0 ? g.c_out / g.group_out : 1;
  s.c_out = g.c_out;
  s.out_h = g.out_h;
  s.out_w = g.out_w;
  s.pad_top = g.pad_top;
  s.pad_left = g.pad_left;
  std::copy(g.stride, g.stride + 2, s.stride);
  std::copy(g.dilation, g.dilation + 2, s.dilation);
  return s;
}

inline oprig_cost cost_of(const Geometry& g) {
  const uint64_t width = g.quantized ? 1 : g.dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  const auto outputs = static_cast<uint64_t>(g.output_elements());
  oprig_cost c{};
  c.flops = 2 * outputs * static_cast<uint64_t>(g.depth());
  c.bytes_read = width * static_cast<uint64_t>(g.batch * g.height * g.width * g.c_in + g.kh * g.kw * g.group_in * g.c_out +
                                               (g.has_bias ? g.c_out : 0));
  c.bytes_written = width * outputs;
  return c;
}

}  // namespace oprig::opsuite::conv2d
