// NumPy broadcasting of two tensors for kernels on any backend: the output
// shape, and the iteration as "rows" of one inner dimension, where each input
// advances by 1 or 0 (a broadcast) per element and starts at a given offset.
// Adjacent dimensions that broadcast the same way are merged first: equal
// shapes become a single row; [64, 128] + [128] is 64 rows of 128 where b
// steps 1 and restarts at 0 each row; [64, 1] + [1, 128] is 64 rows where a
// steps 0 (one value per row) and b steps 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "oprig/oprig_package.h"

namespace oprig::opsuite {

struct BroadcastPlan {
  uint32_t rank = 0;                     // of the output
  int64_t out_dims[OPRIG_MAX_RANK] = {};
  // Merged iteration space: dims[0..merged) (outermost first); inner = dims[merged-1].
  uint32_t merged = 0;
  int64_t dims[OPRIG_MAX_RANK] = {};
  int64_t a_strides[OPRIG_MAX_RANK] = {};  // elements; 0 where a broadcasts
  int64_t b_strides[OPRIG_MAX_RANK] = {};
  size_t count = 0;                        // output elements

  size_t inner() const { return merged == 0 ? 1 : static_cast<size_t>(dims[merged - 1]); }
  size_t rows() const { return inner() == 0 ? 0 : count / inner(); }
  int64_t a_step() const { return merged == 0 ? 0 : a_strides[merged - 1]; }
  int64_t b_step() const { return merged == 0 ? 0 : b_strides[merged - 1]; }
  // Element offsets of row r in a and b.
  void row_offsets(size_t r, size_t* a_off, size_t* b_off) const;
};

// False when the shapes do not broadcast (or the output rank exceeds OPRIG_MAX_RANK).
bool plan_broadcast(const oprig_tensor& a, const oprig_tensor& b, BroadcastPlan* plan);

}  // namespace oprig::opsuite
