// Split as every backend's kernel plans it (common/strided_copy.hpp): the
// parameters (axis, the optional sizes; a negative size is refused in
// create), the checks of prepare() (the sizes sum to the axis, or equal parts
// divide it; outputs of the input's type and quantisation: a copy cannot
// requantise, UNSUPPORTED otherwise), the output shapes, and the input as
// rows of chunks, output k's chunk k of every row (a row is one index of the
// dimensions before the axis).
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "common/kernel.hpp"
#include "common/strided_copy.hpp"

namespace oprig::opsuite::split {

struct Params {
  int64_t axis = 0;                           // spec default 0
  std::optional<std::vector<int64_t>> sizes;  // the split parameter; none: equal parts
};

inline oprig_status parse(const oprig_param* params, size_t num_params, Params* out) {
  out->axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(0.0));
  out->sizes = int_list_param(params, num_params, "split");
  if (out->sizes)
    for (int64_t s : *out->sizes)
      if (s < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  return OPRIG_STATUS_OK;
}

inline oprig_status plan_rows(const Params& p, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                              size_t num_outputs, ChunkedRows* rows) {
  if (num_inputs != 1 || num_outputs < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  const size_t esize = element_bytes(in.dtype);
  if (esize == 0) return OPRIG_STATUS_UNSUPPORTED;
  const std::optional<uint32_t> axis = axis_of(p.axis, in.rank);
  if (in.rank < 1 || !axis) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t length = in.dims[*axis];
  std::vector<int64_t> sizes;
  if (p.sizes) {
    sizes = *p.sizes;
    int64_t sum = 0;
    for (int64_t s : sizes) sum += s;
    if (sizes.size() != num_outputs || sum != length) return OPRIG_STATUS_INVALID_ARGUMENT;
  } else {
    const auto parts = static_cast<int64_t>(num_outputs);
    if (length % parts != 0) return OPRIG_STATUS_INVALID_ARGUMENT;
    sizes.assign(num_outputs, length / parts);
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    oprig_tensor& out = outputs[i];
    if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
    if (!same_quantisation(in, out)) return OPRIG_STATUS_UNSUPPORTED;
    out.rank = in.rank;
    std::copy(in.dims, in.dims + OPRIG_MAX_RANK, out.dims);
    out.dims[*axis] = sizes[i];
  }
  *rows = chunked_rows(in.dims, in.rank, *axis, esize, sizes);
  return OPRIG_STATUS_OK;
}

inline constexpr CopyLayoutFactory make_layout = copy_layout<Params, ChunkedRows, parse, plan_rows, scatter_plan>;

}  // namespace oprig::opsuite::split
