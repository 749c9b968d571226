// One MatMul as every backend's prepare() sees it: the checks of the
// operands (two inputs and one output of FLOAT_32 or FLOAT_16 alike, not
// quantised), M, N, K from the last two dimensions (swapped by the
// transposes), the output shape, and the batch dimensions broadcast as NumPy
// does (common/broadcast.hpp over the batch dimensions alone: its strides
// count whole matrices).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/broadcast.hpp"
#include "common/kernel.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite::matmul {

struct Product {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  uint64_t m = 0, n = 0, k = 0;
  uint64_t batches = 0;                   // output matrices
  uint64_t a_elements = 0, b_elements = 0;  // of in0 and in1
  BroadcastPlan batch;  // merged batch dimensions; a_strides / b_strides in matrices of in0 / in1

  // The matrices of in0 and in1 (their indices) that output matrix z multiplies.
  void matrices_of(uint64_t z, uint64_t* a, uint64_t* b) const {
    uint64_t rest = z;
    *a = *b = 0;
    for (uint32_t d = batch.merged; d-- > 0;) {
      const auto extent = static_cast<uint64_t>(batch.dims[d]);
      const uint64_t coord = rest % extent;
      rest /= extent;
      *a += coord * static_cast<uint64_t>(batch.a_strides[d]);
      *b += coord * static_cast<uint64_t>(batch.b_strides[d]);
    }
  }
  oprig_cost cost() const {
    const uint64_t width = dtype == OPRIG_DTYPE_FLOAT_32 ? 4 : dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 1;
    return {2 * m * n * k * batches, width * (a_elements + b_elements), width * m * n * batches};
  }
};

inline oprig_status plan_product_shapes(const oprig_tensor& in0, const oprig_tensor& in1, oprig_tensor& out,
                                        bool transpose_a, bool transpose_b, oprig_dtype dtype, Product* p);

// Checks the operands and plans the product; writes the output's rank and
// dims. UNSUPPORTED for other types or quantised tensors, INVALID_ARGUMENT
// when the shapes do not multiply (rank < 2, the Ks differ, the batch
// dimensions do not broadcast).
inline oprig_status plan_product(const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                                 size_t num_outputs, bool transpose_a, bool transpose_b, Product* p) {
  *p = Product{};
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor &in0 = inputs[0], &in1 = inputs[1];
  oprig_tensor& out = outputs[0];
  const auto dtype = static_cast<oprig_dtype>(in0.dtype);
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (in1.dtype != dtype || out.dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in0.scale != 0 || in1.scale != 0 || out.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  return plan_product_shapes(in0, in1, out, transpose_a, transpose_b, dtype, p);
}

// The shape half of plan_product, for any element type (quantized_product.hpp).
inline oprig_status plan_product_shapes(const oprig_tensor& in0, const oprig_tensor& in1, oprig_tensor& out,
                                        bool transpose_a, bool transpose_b, oprig_dtype dtype, Product* p) {
  if (in0.rank < 2 || in1.rank < 2 || in0.rank > OPRIG_MAX_RANK || in1.rank > OPRIG_MAX_RANK)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t a_rows = in0.dims[in0.rank - 2], a_cols = in0.dims[in0.rank - 1];
  const int64_t b_rows = in1.dims[in1.rank - 2], b_cols = in1.dims[in1.rank - 1];
  const int64_t m = transpose_a ? a_cols : a_rows, k = transpose_a ? a_rows : a_cols;
  const int64_t k_b = transpose_b ? b_cols : b_rows, n = transpose_b ? b_rows : b_cols;
  if (m < 0 || n < 0 || k < 0 || k != k_b) return OPRIG_STATUS_INVALID_ARGUMENT;
  oprig_tensor a_batch{}, b_batch{};
  a_batch.rank = in0.rank - 2;
  b_batch.rank = in1.rank - 2;
  std::copy(in0.dims, in0.dims + a_batch.rank, a_batch.dims);
  std::copy(in1.dims, in1.dims + b_batch.rank, b_batch.dims);
  if (!plan_broadcast(a_batch, b_batch, &p->batch)) return OPRIG_STATUS_INVALID_ARGUMENT;
  p->dtype = dtype;
  p->m = static_cast<uint64_t>(m);
  p->n = static_cast<uint64_t>(n);
  p->k = static_cast<uint64_t>(k);
  p->batches = p->batch.count;
  p->a_elements = element_count(in0);
  p->b_elements = element_count(in1);
  out.rank = p->batch.rank + 2;
  std::copy(p->batch.out_dims, p->batch.out_dims + p->batch.rank, out.dims);
  out.dims[out.rank - 2] = m;
  out.dims[out.rank - 1] = n;
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite::matmul
