// Type and shape checks of the Fibonacci op shared by validate (model load),
// prepare and execute, so all three accept exactly the same operands.
#pragma once

#include <cmath>
#include <cstdint>

#include "oprig/oprig_package.h"

namespace oprig::fibonacci {

// The package's extension operand types (NNAPI's Fibonacci example, seed
// 004): a 64-bit signed integer scalar for n, and a quantised tensor of
// 64-bit unsigned integers for the output. They reach validate and the
// kernel as OPRIG_DTYPE_EXTENSION(index).
inline constexpr uint32_t kExampleInt64 = 0;
inline constexpr uint32_t kExampleTensorQuant64Asymm = 1;
inline constexpr uint32_t kInt64Dtype = OPRIG_DTYPE_EXTENSION(kExampleInt64);
inline constexpr uint32_t kQuant64Dtype = OPRIG_DTYPE_EXTENSION(kExampleTensorQuant64Asymm);

// n: EXAMPLE_INT64 (a scalar, rank 0), or FLOAT_32 holding exactly one element. Dims that are not positive are
// unknown at model load (the host writes 0 or -1 there), so only a known dim
// above 1 rules the operand out.
inline bool is_valid_input(const oprig_tensor& n) {
  if (n.dtype == kInt64Dtype) return n.rank == 0;
  if (n.dtype != OPRIG_DTYPE_FLOAT_32 || n.rank > OPRIG_MAX_RANK) return false;
  for (uint32_t d = 0; d < n.rank; ++d)
    if (n.dims[d] > 1) return false;
  return true;
}

// F: FLOAT_32; EXAMPLE_TENSOR_QUANT64_ASYMM (finite scale > 0); or UINT_64
// either plain (scale 0: the integers themselves) or quantised (finite scale
// > 0, any int32 zero point).
inline bool is_valid_output_type(const oprig_tensor& f) {
  if (f.dtype == OPRIG_DTYPE_FLOAT_32) return true;
  if (f.dtype == kQuant64Dtype) return std::isfinite(f.scale) && f.scale > 0.0f;
  if (f.dtype != OPRIG_DTYPE_UINT_64) return false;
  return f.scale == 0.0f || (std::isfinite(f.scale) && f.scale > 0.0f);
}

}  // namespace oprig::fibonacci
