// Crop as every backend's kernel plans it (common/strided_copy.hpp): the four
// margins (negative ones refused in create), the checks of prepare() (an
// NHWC input of rank 4 at least as large as the margins; an output of its
// type and quantisation: a copy cannot requantise, UNSUPPORTED otherwise),
// the output shape (the seed's output_height = input_height - crop_top -
// crop_bottom), and the copy as one block: the kept part of each input row
// (i the output row of image o), merged into whole images when no column is
// cropped and into one run when nothing is.
#pragma once


#include "common/kernel.hpp"
#include "common/strided_copy.hpp"

namespace oprig::opsuite::crop {

struct Margins {
  int64_t top = 0, bottom = 0, left = 0, right = 0;  // spec defaults 0
};

inline oprig_status parse(const oprig_param* params, size_t num_params, Margins* out) {
  int64_t* const fields[4] = {&out->top, &out->bottom, &out->left, &out->right};
  const char* const names[4] = {"crop_top", "crop_bottom", "crop_left", "crop_right"};
  for (int i = 0; i < 4; ++i) {
    *fields[i] = static_cast<int64_t>(scalar_param(params, num_params, names[i]).value_or(0.0));
    if (*fields[i] < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  return OPRIG_STATUS_OK;
}

inline oprig_status plan_block(const Margins& m, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                               size_t num_outputs, CopyBlock* block) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  const size_t esize = element_bytes(in.dtype);
  if (esize == 0) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype || !same_quantisation(in, out)) return OPRIG_STATUS_UNSUPPORTED;
  if (in.rank != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t batches = in.dims[0], height = in.dims[1], width = in.dims[2], channels = in.dims[3];
  if (m.top + m.bottom > height || m.left + m.right > width) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t out_height = height - m.top - m.bottom, out_width = width - m.left - m.right;
  out.rank = 4;
  out.dims[0] = batches;
  out.dims[1] = out_height;
  out.dims[2] = out_width;
  out.dims[3] = channels;

  const size_t pixel = static_cast<size_t>(channels) * esize;
  const size_t in_row = static_cast<size_t>(width) * pixel;
  CopyBlock b;
  b.bytes = static_cast<size_t>(out_width) * pixel;
  b.inner = static_cast<size_t>(out_height);
  b.rows = static_cast<size_t>(batches) * b.inner;
  b.src_offset = static_cast<size_t>(m.top) * in_row + static_cast<size_t>(m.left) * pixel;
  b.src_inner = in_row;
  b.src_outer = static_cast<size_t>(height) * in_row;
  b.dst_inner = b.bytes;
  b.dst_outer = b.inner * b.bytes;
  *block = merged_rows(b);
  return OPRIG_STATUS_OK;
}

inline constexpr CopyLayoutFactory make_layout = copy_layout<Margins, CopyBlock, parse, plan_block, block_plan>;

}  // namespace oprig::opsuite::crop
