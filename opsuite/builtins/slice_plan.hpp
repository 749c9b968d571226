// Slice's box as the blocks of a CopyPlan (common/strided_copy.hpp), what the
// dsp kernel runs through common/dsp_byte_copy.hpp: the trailing dimensions
// the box keeps whole and the innermost one it cuts make one contiguous row;
// the two dimensions before it are a block's inner and outer rows, and every
// index of the dimensions before those is a block of its own (rank 4 and
// more). The output is dense, so the blocks tile it front to back.
#pragma once

#include "common/strided_copy.hpp"
#include "node.hpp"

namespace oprig::builtins {

inline opsuite::CopyPlan slice_copy_plan(const Node& n) {
  const auto& s = n.slice;
  opsuite::CopyPlan plan;
  plan.bytes = n.count * s.element_bytes;
  if (n.count == 0) return plan;
  const uint32_t rank = s.rank;
  size_t in_stride[OPRIG_MAX_RANK] = {};  // bytes between neighbours of dimension d
  size_t stride = s.element_bytes, start = 0;
  for (uint32_t d = rank; d-- > 0;) {
    in_stride[d] = stride;
    start += static_cast<size_t>(s.begin[d]) * stride;
    stride *= static_cast<size_t>(s.in_dims[d]);
  }
  // k: the innermost dimension the box cuts (0 when it keeps all of 1..rank-1).
  uint32_t k = rank - 1;
  while (k > 0 && s.out_dims[k] == s.in_dims[k]) --k;
  const size_t row = static_cast<size_t>(s.out_dims[k]) * in_stride[k];
  opsuite::CopyBlock base;
  base.bytes = row;
  base.src_offset = start;
  if (k >= 1) {
    base.inner = static_cast<size_t>(s.out_dims[k - 1]);
    base.src_inner = in_stride[k - 1];
    base.dst_inner = row;
  }
  if (k >= 2) {
    base.src_outer = in_stride[k - 2];
    base.dst_outer = base.inner * row;
  }
  base.rows = base.inner * (k >= 2 ? static_cast<size_t>(s.out_dims[k - 2]) : 1);
  const size_t block_bytes = base.total();
  // One block per index of dimensions [0, k - 2), in the output's order.
  const uint32_t lead = k >= 2 ? k - 2 : 0;
  size_t blocks = 1;
  for (uint32_t d = 0; d < lead; ++d) blocks *= static_cast<size_t>(s.out_dims[d]);
  plan.blocks.reserve(blocks);
  for (size_t b = 0; b < blocks; ++b) {
    opsuite::CopyBlock block = base;
    size_t rest = b;
    for (uint32_t d = lead; d-- > 0;) {
      const auto dim = static_cast<size_t>(s.out_dims[d]);
      block.src_offset += (rest % dim) * in_stride[d];
      rest /= dim;
    }
    block.dst_offset = b * block_bytes;
    plan.blocks.push_back(opsuite::merged_rows(block));
  }
  return plan;
}

}  // namespace oprig::builtins
