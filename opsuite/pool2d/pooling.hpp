// Pool2D as every backend's kernel sees it: the parameters read in create()
// and the checks and output shape of prepare(), written once for the cpu,
// opencl, vulkan and dsp kernels. The window of output (oh, ow) covers input rows
// oh * stride_h - pad_top + [0, kernel_h) and the columns likewise; the
// spec rules out windows of padding alone (pads < kernel).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/kernel.hpp"

namespace oprig::opsuite::pool2d {

enum class Kind { kMax, kAvg };

struct Pooling {
  Kind kind = Kind::kMax;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  bool count_include_pad = false;
};

// The tensors of one prepare: FLOAT_32, FLOAT_16 or quantised UINT_8 codes
// (real = scale * (code - zero point)), NHWC.
struct Geometry {
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  double in_scale = 0, out_scale = 0;
  int32_t in_zero = 0, out_zero = 0;
  int64_t batches = 0, height = 0, width = 0, channels = 0, out_height = 0, out_width = 0;

  int64_t input_elements() const { return batches * height * width * channels; }
  int64_t output_elements() const { return batches * out_height * out_width * channels; }
  uint64_t element_bytes() const { return dtype == OPRIG_DTYPE_FLOAT_32 ? 4 : dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 1; }
  // UINT_8 whose output is quantised as its input: MAX keeps codes and AVG
  // rounds a mean of codes, in integers.
  bool same_quantization() const { return in_scale == out_scale && in_zero == out_zero; }
  // Another output quantisation is requantised in double (as on the cpu):
  // device kernels refuse it where the device has no fp64.
  bool needs_fp64() const { return dtype == OPRIG_DTYPE_UINT_8 && !same_quantization(); }
};

// The parameters by spec name, with the spec's defaults; nullopt when one is
// missing or illegal (create answers INVALID_ARGUMENT).
inline std::optional<Pooling> read_pooling(const oprig_param* params, size_t num_params) {
  const std::optional<int> type = enum_param(params, num_params, "type", {"MAX", "AVG"});
  const std::optional<std::vector<int64_t>> kernel = int_list_param(params, num_params, "kernel");
  if (!type || *type < 0 || !kernel || kernel->size() != 2) return std::nullopt;  // mandatory
  const std::vector<int64_t> stride = int_list_param(params, num_params, "stride").value_or(std::vector<int64_t>{1, 1});
  const std::vector<int64_t> pads =
      int_list_param(params, num_params, "pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  if (stride.size() != 2 || pads.size() != 4) return std::nullopt;
  for (int axis = 0; axis < 2; ++axis) {
    const int64_t k = (*kernel)[axis];
    if (k < 1 || stride[axis] < 1) return std::nullopt;
    // A window of padding only has no value to give: the spec rules it out.
    if (pads[axis] < 0 || pads[axis + 2] < 0 || pads[axis] >= k || pads[axis + 2] >= k) return std::nullopt;
  }
  Pooling p;
  p.kind = *type == 0 ? Kind::kMax : Kind::kAvg;
  p.kernel_h = (*kernel)[0];
  p.kernel_w = (*kernel)[1];
  p.stride_h = stride[0];
  p.stride_w = stride[1];
  p.pad_top = pads[0];
  p.pad_left = pads[1];
  p.pad_bottom = pads[2];
  p.pad_right = pads[3];
  p.count_include_pad = scalar_param(params, num_params, "count_include_pad").value_or(0.0) != 0.0;
  return p;
}

// prepare()'s checks: one input and one output of the same type, rank 4, a
// window that fits the padded input; writes the output shape.
inline oprig_status plan_geometry(const Pooling& p, const oprig_tensor* inputs, size_t num_inputs,
                                  oprig_tensor* outputs, size_t num_outputs, Geometry* g) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  const bool codes = in.dtype == OPRIG_DTYPE_UINT_8;
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16 && !codes) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (codes != (in.scale > 0) || codes != (out.scale > 0)) return OPRIG_STATUS_UNSUPPORTED;  // UINT_8 is quantised
  if (in.rank != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t padded_h = in.dims[1] + p.pad_top + p.pad_bottom, padded_w = in.dims[2] + p.pad_left + p.pad_right;
  if (p.kernel_h > padded_h || p.kernel_w > padded_w) return OPRIG_STATUS_INVALID_ARGUMENT;
  g->dtype = static_cast<oprig_dtype>(in.dtype);
  g->in_scale = in.scale;
  g->in_zero = in.zero_point;
  g->out_scale = out.scale;
  g->out_zero = out.zero_point;
  g->batches = in.dims[0];
  g->height = in.dims[1];
  g->width = in.dims[2];
  g->channels = in.dims[3];
  g->out_height = (padded_h - p.kernel_h) / p.stride_h + 1;
  g->out_width = (padded_w - p.kernel_w) / p.stride_w + 1;
  out.rank = 4;
  out.dims[0] = g->batches;
  out.dims[1] = g->out_height;
  out.dims[2] = g->out_width;
  out.dims[3] = g->channels;
  return OPRIG_STATUS_OK;
}

// What every backend's cost() reports: one max or add per window cell and
// output value, every input element read once (overlapping windows re-read
// from cache) and every output element written once.
inline oprig_cost pooling_cost(const Pooling& p, const Geometry& g) {
  const auto outputs = static_cast<uint64_t>(g.output_elements());
  return {outputs * static_cast<uint64_t>(p.kernel_h * p.kernel_w),
          static_cast<uint64_t>(g.input_elements()) * g.element_bytes(), outputs * g.element_bytes()};
}

}  // namespace oprig::opsuite::pool2d
