// What every ScaledDotProductAttention kernel reads from its parameters in
// create() and checks and works out from the tensors in prepare(), in one
// place for the cpu, opencl and vulkan kernels:
// FLOAT_32 or FLOAT_16 throughout (no quantisation), Q [B, H, Sq, D],
// K [B, H, Sk, D], V [B, H, Sk, Dv] with D >= 1 (the default scale divides by
// sqrt(D)), the optional mask broadcast (right-aligned, NumPy rules) to
// [B, H, Sq, Sk] as strides with 0 where it repeats, the resolved scale, and
// the output's shape [B, H, Sq, Dv].
#pragma once

#include <cmath>
#include <optional>

#include "common/kernel.hpp"
#include "oprig/oprig_package.h"
#include "scaled_dot_product_attention/attention_problem.hpp"

namespace oprig::opsuite::sdpa {

struct AttentionParams {
  bool causal = false;         // is_causal, default false
  std::optional<float> scale;  // absent: 1 / sqrt(D), once D is known
};

// The parameters, or nullopt when the scale is not finite.
inline std::optional<AttentionParams> read_params(const oprig_param* params, size_t num_params) {
  const std::optional<double> causal = scalar_param(params, num_params, "is_causal");
  const std::optional<double> scale = scalar_param(params, num_params, "scale");
  if (scale && !std::isfinite(*scale)) return std::nullopt;
  AttentionParams out;
  out.causal = causal.value_or(0.0) != 0.0;
  if (scale) out.scale = static_cast<float>(*scale);
  return out;
}

// Fills the shapes, scale, causal flag and mask strides of `p` (not its
// tensors) and the output's shape; `has_mask` says whether input 3 is there.
inline oprig_status plan_attention(const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                                   size_t num_outputs, const AttentionParams& params, AttentionProblem& p,
                                   bool& has_mask) {
  if (inputs == nullptr || outputs == nullptr || num_inputs < 3 || num_inputs > 4 || num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor &q = inputs[0], &k = inputs[1], &v = inputs[2];
  has_mask = num_inputs == 4 && inputs[3].dtype != OPRIG_DTYPE_INVALID;
  const uint32_t dtype = q.dtype;
  if ((dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16) || q.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (k.dtype != dtype || v.dtype != dtype || outputs[0].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (has_mask && inputs[3].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (q.rank != 4 || k.rank != 4 || v.rank != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k.dims[0] != q.dims[0] || v.dims[0] != q.dims[0] || k.dims[1] != q.dims[1] || v.dims[1] != q.dims[1] ||
      v.dims[2] != k.dims[2] || k.dims[3] != q.dims[3] || q.dims[3] < 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  p = AttentionProblem{};
  p.batch = q.dims[0];
  p.heads = q.dims[1];
  p.query_len = q.dims[2];
  p.key_len = k.dims[2];
  p.depth = q.dims[3];
  p.value_depth = v.dims[3];
  p.causal = params.causal;
  p.half = dtype == OPRIG_DTYPE_FLOAT_16;
  p.scale = params.scale.value_or(1.0f / std::sqrt(static_cast<float>(p.depth)));
  if (has_mask) {
    const oprig_tensor& m = inputs[3];
    if (m.rank > 4) return OPRIG_STATUS_INVALID_ARGUMENT;
    const int64_t full[4] = {p.batch, p.heads, p.query_len, p.key_len};
    int64_t stride = 1;
    for (int axis = 3; axis >= 0; --axis) {
      const int from_end = 3 - axis;
      const int64_t dim = from_end < static_cast<int>(m.rank) ? m.dims[m.rank - 1 - from_end] : 1;
      if (dim != 1 && dim != full[axis]) return OPRIG_STATUS_INVALID_ARGUMENT;
      p.mask_strides[axis] = dim == 1 ? 0 : stride;
      stride *= dim;
    }
  }
  oprig_tensor& out = outputs[0];
  out.rank = 4;
  out.dims[0] = p.batch;
  out.dims[1] = p.heads;
  out.dims[2] = p.query_len;
  out.dims[3] = p.value_depth;
  return OPRIG_STATUS_OK;
}

// The work of one execute for the kernels' cost(): the two products (exp
// not counted) and one pass over the tensors.
inline oprig_cost attention_cost(const AttentionProblem& p) {
  const auto heads = static_cast<uint64_t>(p.batch * p.heads);
  const auto pairs = heads * static_cast<uint64_t>(p.query_len * p.key_len);
  const uint64_t width = p.half ? 2 : 4;
  oprig_cost cost{};
  cost.flops = 2 * pairs * static_cast<uint64_t>(p.depth + p.value_depth);
  cost.bytes_read =
      width * heads * static_cast<uint64_t>(p.query_len * p.depth + p.key_len * (p.depth + p.value_depth));
  cost.bytes_written = width * heads * static_cast<uint64_t>(p.query_len * p.value_depth);
  return cost;
}

}  // namespace oprig::opsuite::sdpa
