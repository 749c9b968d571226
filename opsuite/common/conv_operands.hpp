// What the convolutions Conv2D and DepthwiseConv2D (conv_geometry.hpp,
// depthwise_geometry.hpp and their kernels) read and check alike: the
// window's parameters, activations, static weights, an optional bias and the
// output of one float type (FLOAT_32 or FLOAT_16), or quantised under
// quant_conv.hpp's rule, and at execute the tensors a device kernel binds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/kernel.hpp"
#include "common/quant_conv.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite {

// stride [2], dilation [2] and pad_amount [[top, bottom], [left, right]] by
// their spec names, the spec's defaults where absent; false when one is
// malformed (a wrong count, a stride or dilation below 1, a negative pad).
inline bool read_window_params(const oprig_param* params, size_t num_params, int64_t (&stride)[2],
                               int64_t (&dilation)[2], int64_t (&pads)[4]) {
  auto list = [&](const char* name, int64_t* dst, size_t n) {
    const auto v = int_list_param(params, num_params, name);
    if (!v) return true;  // the spec's default
    if (v->size() != n) return false;
    std::copy(v->begin(), v->end(), dst);
    return true;
  };
  if (!list("stride", stride, 2) || !list("dilation", dilation, 2) || !list("pad_amount", pads, 4)) return false;
  return stride[0] >= 1 && stride[1] >= 1 && dilation[0] >= 1 && dilation[1] >= 1 &&
         std::all_of(pads, pads + 4, [](int64_t v) { return v >= 0; });
}

struct FloatOperands {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  bool has_bias = false;  // a third input of dtype INVALID is absent
};

// inputs: activations, weights, optional bias; one output. Another type
// (or quantisation) is UNSUPPORTED, a mismatch INVALID_ARGUMENT.
inline oprig_status check_float_operands(const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                                         size_t num_outputs, FloatOperands* out) {
  *out = FloatOperands{};
  if (num_inputs < 2 || num_inputs > 3 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  const oprig_tensor& w = inputs[1];
  const bool has_bias = num_inputs == 3 && inputs[2].dtype != OPRIG_DTYPE_INVALID;
  const uint32_t dtype = in.dtype;
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (w.dtype != dtype || outputs[0].dtype != dtype || (has_bias && inputs[2].dtype != dtype))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in.scale != 0 || w.scale != 0 || outputs[0].scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (in.rank != 4 || w.rank != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
  out->dtype = static_cast<oprig_dtype>(dtype);
  out->has_bias = has_bias;
  return OPRIG_STATUS_OK;
}

struct ConvOperands {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  bool has_bias = false;   // a third input of dtype INVALID is absent
  bool quantized = false;  // UINT_8 / INT_8 under quant_conv.hpp's integer rule
  quant::ConvRule rule;    // when quantized
};

// The operand checks both convolutions' prepare() start with: with
// `quantized_ok` and quantised activations, quant_conv.hpp's rule and rank-4
// activations and weights; else check_float_operands().
inline oprig_status check_conv_operands(const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                                        size_t num_outputs, bool quantized_ok, ConvOperands* out) {
  *out = ConvOperands{};
  if (quantized_ok && num_inputs >= 2 && num_inputs <= 3 && num_outputs == 1 && inputs != nullptr &&
      outputs != nullptr && quant::is_quantized(inputs[0])) {
    const oprig_status st = quant::conv_rule(inputs, num_inputs, outputs[0], &out->rule);
    if (st != OPRIG_STATUS_OK) return st;
    if (inputs[0].rank != 4 || inputs[1].rank != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
    out->dtype = static_cast<oprig_dtype>(inputs[0].dtype);
    out->quantized = true;
    out->has_bias = out->rule.has_bias;
    return OPRIG_STATUS_OK;
  }
  FloatOperands operands;
  const oprig_status st = check_float_operands(inputs, num_inputs, outputs, num_outputs, &operands);
  if (st != OPRIG_STATUS_OK) return st;
  out->dtype = operands.dtype;
  out->has_bias = operands.has_bias;
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite

namespace oprig::opsuite {

// The tensors a device kernel binds at execute: activations, weights, bias
// (the weights stand in for an absent one: never read) and output; false
// when a buffer the kernel reads or writes is missing.
inline bool bound_operands(const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                           bool has_bias, oprig_tensor (&bound)[4]) {
  if (inputs == nullptr || outputs == nullptr || num_inputs < (has_bias ? 3u : 2u)) return false;
  bound[0] = inputs[0];
  bound[1] = inputs[1];
  bound[2] = has_bias ? inputs[2] : inputs[1];
  bound[3] = outputs[0];
  return std::none_of(bound, bound + 4, [](const oprig_tensor& t) { return t.data == nullptr; });
}

}  // namespace oprig::opsuite
