// Quantised MatMul as the cpu and dsp kernels' prepare() see it: UINT_8 or
// INT_8 activations (in0), INT_8 weights (in1), the output of in0's type,
// each with a per-tensor scale and zero point; the fixed-point multiplier of
// s_a s_w / s_out (quant.hpp, TFLite's rule: the float scales multiplied and
// divided in double) and the output's code range. The rule every kernel
// evaluates is opsuite/matmul/integer_reference.cpp's.
#pragma once

#include "common/quant.hpp"
#include "matmul/product.hpp"

namespace oprig::opsuite::matmul {

struct QuantizedProduct {
  Product shape;  // shape.dtype: in0's (and the output's) type
  int32_t z_a = 0, z_w = 0, z_out = 0;
  quant::Multiplier multiplier;
  quant::Range range;
  bool signed_a() const { return shape.dtype == OPRIG_DTYPE_INT_8; }
};

// UNSUPPORTED for other types (floats: plan_product), INVALID_ARGUMENT for
// shapes that do not multiply or scales with no fixed-point multiplier.
inline oprig_status plan_quantized_product(const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                                           size_t num_outputs, bool transpose_a, bool transpose_b,
                                           QuantizedProduct* q) {
  *q = QuantizedProduct{};
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor &a = inputs[0], &w = inputs[1];
  oprig_tensor& out = outputs[0];
  const auto dtype = static_cast<oprig_dtype>(a.dtype);
  if ((dtype != OPRIG_DTYPE_UINT_8 && dtype != OPRIG_DTYPE_INT_8) || w.dtype != OPRIG_DTYPE_INT_8 ||
      out.dtype != dtype || !(a.scale > 0) || !(w.scale > 0) || !(out.scale > 0))
    return OPRIG_STATUS_UNSUPPORTED;
  const double real = static_cast<double>(a.scale) * static_cast<double>(w.scale) / static_cast<double>(out.scale);
  if (!quant::multiplier(real, &q->multiplier)) return OPRIG_STATUS_INVALID_ARGUMENT;
  q->z_a = a.zero_point;
  q->z_w = w.zero_point;
  q->z_out = out.zero_point;
  q->range = quant::type_range(dtype == OPRIG_DTYPE_INT_8);
  return plan_product_shapes(a, w, out, transpose_a, transpose_b, dtype, &q->shape);
}

}  // namespace oprig::opsuite::matmul
