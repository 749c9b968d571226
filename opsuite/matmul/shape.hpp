// MatMul's shapes for the device kernels: M, N, K from the last two
// dimensions (swapped by the transposes), the output shape, and the batch
// dimensions broadcast as NumPy does (common/broadcast.hpp over the batch
// dimensions alone: its strides count whole matrices).
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/broadcast.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite::matmul {

struct Shape {
  uint64_t m = 0, n = 0, k = 0;
  uint64_t batches = 0;  // output matrices
  BroadcastPlan batch;   // merged batch dimensions; a_strides / b_strides in matrices of in0 / in1
};

// False when the shapes do not multiply (rank < 2, the Ks differ, the batch
// dimensions do not broadcast). Writes the output's rank and dims.
inline bool plan_shape(const oprig_tensor& in0, const oprig_tensor& in1, bool transpose_a, bool transpose_b,
                       oprig_tensor& out, Shape* shape) {
  if (in0.rank < 2 || in1.rank < 2 || in0.rank > OPRIG_MAX_RANK || in1.rank > OPRIG_MAX_RANK) return false;
  const int64_t a_rows = in0.dims[in0.rank - 2], a_cols = in0.dims[in0.rank - 1];
  const int64_t b_rows = in1.dims[in1.rank - 2], b_cols = in1.dims[in1.rank - 1];
  const int64_t m = transpose_a ? a_cols : a_rows, k = transpose_a ? a_rows : a_cols;
  const int64_t k_b = transpose_b ? b_cols : b_rows, n = transpose_b ? b_rows : b_cols;
  if (m < 0 || n < 0 || k < 0 || k != k_b) return false;
  oprig_tensor a_batch{}, b_batch{};
  a_batch.rank = in0.rank - 2;
  b_batch.rank = in1.rank - 2;
  std::copy(in0.dims, in0.dims + a_batch.rank, a_batch.dims);
  std::copy(in1.dims, in1.dims + b_batch.rank, b_batch.dims);
  if (!plan_broadcast(a_batch, b_batch, &shape->batch)) return false;
  shape->m = static_cast<uint64_t>(m);
  shape->n = static_cast<uint64_t>(n);
  shape->k = static_cast<uint64_t>(k);
  shape->batches = shape->batch.count;
  out.rank = shape->batch.rank + 2;
  std::copy(shape->batch.out_dims, shape->batch.out_dims + shape->batch.rank, out.dims);
  out.dims[out.rank - 2] = m;
  out.dims[out.rank - 1] = n;
  return true;
}

}  // namespace oprig::opsuite::matmul
