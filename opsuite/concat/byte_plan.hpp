// Concat as every backend's kernel plans it (common/strided_copy.hpp): the
// checks of prepare() (one dtype and rank, equal dims off the axis, one
// quantisation: a copy cannot requantise, UNSUPPORTED otherwise), the output
// shape, and the output as rows of chunks, input k's chunk k of every row
// (a row is one index of the dimensions before the axis).
#pragma once

#include <algorithm>
#include <vector>

#include "common/kernel.hpp"
#include "common/strided_copy.hpp"

namespace oprig::opsuite::concat {

struct Params {
  int64_t axis = 0;  // spec default 0
};

inline oprig_status parse(const oprig_param* params, size_t num_params, Params* out) {
  out->axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(0.0));
  return OPRIG_STATUS_OK;
}

inline oprig_status plan_rows(const Params& p, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                              size_t num_outputs, ChunkedRows* rows) {
  if (num_inputs < 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& first = inputs[0];
  oprig_tensor& out = outputs[0];
  const size_t esize = element_bytes(first.dtype);
  if (esize == 0) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != first.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<uint32_t> axis = axis_of(p.axis, first.rank);
  if (first.rank < 1 || !axis) return OPRIG_STATUS_INVALID_ARGUMENT;
  out.rank = first.rank;
  std::copy(first.dims, first.dims + OPRIG_MAX_RANK, out.dims);
  out.dims[*axis] = 0;
  std::vector<int64_t> sizes(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    const oprig_tensor& in = inputs[i];
    if (in.dtype != first.dtype || in.rank != first.rank) return OPRIG_STATUS_INVALID_ARGUMENT;
    if (!same_quantisation(in, out)) return OPRIG_STATUS_UNSUPPORTED;
    for (uint32_t d = 0; d < first.rank; ++d)
      if (d != *axis && in.dims[d] != first.dims[d]) return OPRIG_STATUS_INVALID_ARGUMENT;
    sizes[i] = in.dims[*axis];
    out.dims[*axis] += in.dims[*axis];
  }
  *rows = chunked_rows(first.dims, first.rank, *axis, esize, sizes);
  return OPRIG_STATUS_OK;
}

inline constexpr CopyLayoutFactory make_layout = copy_layout<Params, ChunkedRows, parse, plan_rows, gather_plan>;

}  // namespace oprig::opsuite::concat
