#include "common/opencl_code_kernels.hpp"

namespace oprig::opsuite {

ClCodeKernels::~ClCodeKernels() {
  for (cl_kernel k : {u8_, i8_})
    if (k != nullptr) clReleaseKernel(k);
}

oprig_status ClCodeKernels::create(const oprig_backend_context& ctx, const unsigned char* source,
                                   size_t source_size, const char* what, const char* u8_name,
                                   const char* i8_name) {
  if (ctx.cl_context == nullptr || ctx.cl_device == nullptr || ctx.cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_program program = cached_program(static_cast<cl_context>(ctx.cl_context),
                                      static_cast<cl_device_id>(ctx.cl_device), source, source_size,
                                      "-cl-std=CL1.2", what);
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  queue_ = static_cast<cl_command_queue>(ctx.cl_queue);
  device_ = static_cast<cl_device_id>(ctx.cl_device);
  cl_int e1 = CL_SUCCESS, e2 = CL_SUCCESS;
  u8_ = clCreateKernel(program, u8_name, &e1);
  i8_ = clCreateKernel(program, i8_name, &e2);
  return e1 == CL_SUCCESS && e2 == CL_SUCCESS ? OPRIG_STATUS_OK : OPRIG_STATUS_BACKEND_ERROR;
}

oprig_status ClCodeKernels::enqueue_grid(cl_kernel kernel, uint64_t count, oprig_execute_info* info) const {
  const ClGrid grid = grid_stride_range(count / 4, kernel, device_);
  ClEnqueue enqueue(queue_);
  const oprig_status st = enqueue.kernel(kernel, 1, &grid.global, &grid.local);
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite
