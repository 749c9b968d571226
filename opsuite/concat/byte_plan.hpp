// Concat as the device kernels see it: the output shape and, in bytes, the
// chunk each input contributes to every output row (a row is one index of
// the dimensions before axis). The same checks as the cpu kernel's
// prepare(): one dtype and rank, equal dims off the axis, one quantisation
// (a copy cannot requantise: UNSUPPORTED otherwise).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "oprig/oprig_package.h"

namespace oprig::opsuite::concat {

struct BytePlan {
  size_t rows = 0, row_bytes = 0, total = 0;
  std::vector<size_t> chunk, start;  // per input
};

inline size_t element_bytes(uint32_t dtype) {
  switch (dtype) {
    case OPRIG_DTYPE_INT_8: case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_BOOL_8: return 1;
    case OPRIG_DTYPE_FLOAT_16: case OPRIG_DTYPE_INT_16: case OPRIG_DTYPE_UINT_16: return 2;
    case OPRIG_DTYPE_FLOAT_32: case OPRIG_DTYPE_INT_32: case OPRIG_DTYPE_UINT_32: return 4;
    case OPRIG_DTYPE_FLOAT_64: case OPRIG_DTYPE_INT_64: case OPRIG_DTYPE_UINT_64: return 8;
    default: return 0;
  }
}

inline oprig_status plan_bytes(int64_t axis_param, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor& out,
                               BytePlan* plan) {
  const oprig_tensor& first = inputs[0];
  const size_t esize = element_bytes(first.dtype);
  if (esize == 0) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != first.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t rank = first.rank;
  if (rank < 1 || axis_param < -rank || axis_param >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto axis = static_cast<uint32_t>(axis_param < 0 ? axis_param + rank : axis_param);
  out.rank = first.rank;
  std::copy(first.dims, first.dims + OPRIG_MAX_RANK, out.dims);
  out.dims[axis] = 0;
  for (size_t i = 0; i < num_inputs; ++i) {
    const oprig_tensor& in = inputs[i];
    if (in.dtype != first.dtype || in.rank != first.rank) return OPRIG_STATUS_INVALID_ARGUMENT;
    if (in.scale != out.scale || (in.scale != 0 && in.zero_point != out.zero_point)) return OPRIG_STATUS_UNSUPPORTED;
    for (uint32_t d = 0; d < first.rank; ++d)
      if (d != axis && in.dims[d] != first.dims[d]) return OPRIG_STATUS_INVALID_ARGUMENT;
    out.dims[axis] += in.dims[axis];
  }
  size_t inner = esize;
  plan->rows = 1;
  for (uint32_t d = 0; d < axis; ++d) plan->rows *= static_cast<size_t>(first.dims[d]);
  for (uint32_t d = axis + 1; d < first.rank; ++d) inner *= static_cast<size_t>(first.dims[d]);
  plan->chunk.assign(num_inputs, 0);
  plan->start.assign(num_inputs, 0);
  plan->row_bytes = 0;
  for (size_t i = 0; i < num_inputs; ++i) {
    plan->start[i] = plan->row_bytes;
    plan->chunk[i] = static_cast<size_t>(inputs[i].dims[axis]) * inner;
    plan->row_bytes += plan->chunk[i];
  }
  plan->total = plan->rows * plan->row_bytes;
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite::concat
