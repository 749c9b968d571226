// The first checks of prepare() for ops whose activations, static weights,
// optional bias and output share one float type (FLOAT_32 or FLOAT_16, not
// quantised) and take 4-D activations and weights: Conv2D and
// DepthwiseConv2D (their conv_geometry.hpp / depthwise_geometry.hpp).
#pragma once

#include <cstddef>

#include "oprig/oprig_package.h"

namespace oprig::opsuite {

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

}  // namespace oprig::opsuite
