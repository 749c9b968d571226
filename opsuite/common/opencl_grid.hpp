// The NDRange of a grid-stride OpenCL kernel (common/grid_stride.hpp): work-
// groups of 64 (or the kernel's limit, if lower) and a global size that is
// a multiple of it, so a runtime never picks a tiny work-group for an odd
// global size (PoCL vectorises across a work-group). Work-items past the
// last vector skip the loop. Used by Activation, Quantize, Dequantize and
// ElementwiseBinary (its flat form).
#pragma once

#include <CL/cl.h>

#include <algorithm>
#include <cstddef>

#include "common/grid_stride.hpp"
#include "common/opencl_program.hpp"

namespace oprig::opsuite {

struct ClGrid {
  size_t global = 0;
  size_t local = 0;
};

// `vectors` steps of work in all; at least one work-group (the tails go to the first work-items).
inline ClGrid grid_stride_range(uint64_t vectors, cl_kernel kernel, cl_device_id device) {
  ClGrid grid;
  grid.local = std::clamp<size_t>(max_work_group_size(kernel, device), 1, 64);
  const auto items = static_cast<size_t>(std::clamp<uint64_t>(vectors, 1, kGridStrideMaxItems));
  grid.global = (items + grid.local - 1) / grid.local * grid.local;
  return grid;
}

}  // namespace oprig::opsuite
