// What LayerNorm's prepare() checks and derives alike on cpu, opencl and
// vulkan (it stood three times): the optional beta, the axis, gamma's and
// beta's shapes (exactly one slice, in.shape[axis:]), and the rows to
// normalise. Each backend adds its own limits and layout after it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/kernel.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite {

struct LayerNormRows {
  bool has_beta = false;
  uint64_t rows = 0;      // slices normalised one by one (0 for an empty input)
  uint64_t row_size = 1;  // elements of one, in.shape[axis:]
};

// inputs: x, gamma and an optional beta (absent: num_inputs 2, or dtype
// INVALID), all of x's dtype, as is the output; `axis` may count from the
// end. INVALID_ARGUMENT when they do not fit.
inline oprig_status layer_norm_rows(const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor& output,
                                    int64_t axis, LayerNormRows* out) {
  const oprig_tensor& in = inputs[0];
  const bool has_beta = num_inputs == 3 && inputs[2].dtype != OPRIG_DTYPE_INVALID;
  if (in.rank == 0 || inputs[1].dtype != in.dtype || output.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (has_beta && inputs[2].dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t rank = in.rank;
  if (axis < -rank || axis >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto first = static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
  const uint32_t slice_rank = in.rank - first;
  const auto is_slice = [&](const oprig_tensor& t) {
    return t.rank == slice_rank && std::equal(in.dims + first, in.dims + in.rank, t.dims);
  };
  if (!is_slice(inputs[1]) || (has_beta && !is_slice(inputs[2]))) return OPRIG_STATUS_INVALID_ARGUMENT;
  out->has_beta = has_beta;
  out->row_size = 1;
  for (uint32_t d = first; d < in.rank; ++d) out->row_size *= static_cast<uint64_t>(in.dims[d]);
  out->rows = out->row_size == 0 ? 0 : element_count(in) / out->row_size;
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite
