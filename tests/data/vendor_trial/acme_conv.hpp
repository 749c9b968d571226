// The trial package's convolution-like op, Conv2D (NHWC activations, HWIO
// weights [filter_height, filter_width, channel_in / group, channel_out], an
// optional bias, stride, asymmetric zero padding, dilation, groups and a
// fused RELU/RELU6), with its fp64 reference and a cpu kernel carrying the
// planted bugs of acme_conv.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "oprig/oprig_package.h"

namespace acme {

struct ConvGeometry {
  int64_t batch = 0, height = 0, width = 0, channel_in = 0;
  int64_t filter_height = 0, filter_width = 0, channel_out = 0, group = 1;
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1};
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  int64_t out_height = 0, out_width = 0;
  uint32_t activation = 0;  // 0 NONE, 1 RELU, 2 RELU6
  bool has_bias = false;
};

// The parameters as the spec defines them; false when they break a rule.
bool conv_params(const oprig_param* params, size_t num_params, ConvGeometry& g);
// The tensors' sizes, the output's shape; INVALID_ARGUMENT where the spec's
// constraints do not hold. `as_kernel`: the kernel's own inference (where
// a planted bug may live), not the reference's.
oprig_status conv_shapes(ConvGeometry& g, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                         size_t num_outputs, bool as_kernel);
void conv_reference(const ConvGeometry& g, const double* in, const double* weights, const double* bias, double* out);
void conv_kernel(const ConvGeometry& g, const oprig_tensor* inputs, const oprig_tensor& out);

}  // namespace acme
