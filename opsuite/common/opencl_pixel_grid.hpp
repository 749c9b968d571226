// A pixel-grid kernel (pixel_grid.hpp) on the opencl backend: the state an
// instance keeps (the shared program, the kernel prepare() chose, its grid)
// and the launch: NDRange (row work-items rounded up to the work-group,
// out_height, batch), work-groups along the row only; the kernel returns for
// work-items past the row (common/opencl/pixel_grid.cl). For one-input,
// one-output ops (Pool2D, Resize): execute() is launch().
#pragma once

#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <string>

#include "common/opencl_program.hpp"
#include "common/pixel_grid.hpp"

namespace oprig::opsuite {

struct ClPixelKernel {
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;  // owned by the program cache
  cl_kernel kernel = nullptr;    // the one prepare chose
  PixelGrid grid;

  ClPixelKernel() = default;
  ClPixelKernel(const ClPixelKernel&) = delete;
  ClPixelKernel& operator=(const ClPixelKernel&) = delete;
  ~ClPixelKernel() { forget(); }

  void from_context(const oprig_backend_context& ctx, cl_program built) {
    device = static_cast<cl_device_id>(ctx.cl_device);
    queue = static_cast<cl_command_queue>(ctx.cl_queue);
    program = built;
  }
  // prepare(): no kernel until choose() succeeds.
  void forget() {
    if (kernel != nullptr) clReleaseKernel(kernel);
    kernel = nullptr;
  }
  oprig_status choose(const std::string& name, const PixelGrid& g) {
    forget();
    cl_int err = CL_SUCCESS;
    kernel = clCreateKernel(program, name.c_str(), &err);
    if (err != CL_SUCCESS) {
      kernel = nullptr;
      return OPRIG_STATUS_BACKEND_ERROR;
    }
    grid = g;
    return OPRIG_STATUS_OK;
  }

  // execute(): the kernel's arguments are the input, the output, `args` and
  // the grid as a uint4; one NDRange without waiting, its event to the host.
  template <class... Args>
  oprig_status launch(const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs, size_t num_outputs,
                      oprig_execute_info* info, const Args&... args) {
    if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
      return OPRIG_STATUS_INVALID_ARGUMENT;
    info->cl_first_event = nullptr;
    info->cl_last_event = nullptr;
    if (kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
    if (grid.empty()) return OPRIG_STATUS_OK;
    const cl_mem x = static_cast<cl_mem>(inputs[0].data), y = static_cast<cl_mem>(outputs[0].data);
    if (x == nullptr || y == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    const cl_uint4 g{{grid.groups, grid.group_shift, grid.row_items, 0}};
    if (!set_kernel_args(kernel, x, y, args..., g)) return OPRIG_STATUS_BACKEND_ERROR;
    const size_t local[3] = {std::min<size_t>({256, max_work_group_size(kernel, device), std::bit_ceil(grid.row_items)}),
                             1, 1};
    const size_t global[3] = {(grid.row_items + local[0] - 1) / local[0] * local[0], grid.rows, grid.images};
    ClEnqueue enqueue(queue);
    const oprig_status st = enqueue.kernel(kernel, 3, global, local);
    if (st == OPRIG_STATUS_OK) enqueue.finish(info);
    return st;
  }
};

}  // namespace oprig::opsuite
