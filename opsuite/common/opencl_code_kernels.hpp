// The opencl host side Quantize and Dequantize share: one program with a
// kernel per 8-bit code type (UINT_8, INT_8), run element-wise over flat
// buffers as one grid-stride NDRange of count/4 vectors (opencl_grid.hpp),
// enqueued without waiting. Each op keeps its own checks in prepare() and
// its own scalar arguments; the making, choosing and enqueueing of the two
// kernels lived line for line in both.
#pragma once

#include <CL/cl.h>

#include <cstdint>

#include "common/opencl_grid.hpp"
#include "common/opencl_program.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite {

class ClCodeKernels {
 public:
  ClCodeKernels() = default;
  ~ClCodeKernels();
  ClCodeKernels(const ClCodeKernels&) = delete;
  ClCodeKernels& operator=(const ClCodeKernels&) = delete;

  // Takes the cached program of `source` (built with -cl-std=CL1.2; `what`
  // names it in a build log) and makes the kernels `u8_name` and `i8_name`.
  // INVALID_ARGUMENT without an OpenCL context, device and queue.
  oprig_status create(const oprig_backend_context& ctx, const unsigned char* source, size_t source_size,
                      const char* what, const char* u8_name, const char* i8_name);

  // Enqueues the kernel of the code type over `count` elements with the
  // arguments (x, y, scalars..., count as cl_ulong) and hands its event to
  // `info`. Nothing for count 0; INVALID_ARGUMENT for a missing buffer or a
  // non-zero offset.
  template <class... Scalars>
  oprig_status enqueue(bool is_signed, uint64_t count, const oprig_tensor& in, const oprig_tensor& out,
                       oprig_execute_info* info, const Scalars&... scalars) const {
    if (count == 0) return OPRIG_STATUS_OK;
    const cl_mem x = static_cast<cl_mem>(in.data);
    const cl_mem y = static_cast<cl_mem>(out.data);
    if (x == nullptr || y == nullptr || in.offset != 0 || out.offset != 0) return OPRIG_STATUS_INVALID_ARGUMENT;
    cl_kernel kernel = is_signed ? i8_ : u8_;
    const cl_ulong n = count;
    if (!set_kernel_args(kernel, x, y, scalars..., n)) return OPRIG_STATUS_BACKEND_ERROR;
    return enqueue_grid(kernel, count, info);
  }

 private:
  cl_command_queue queue_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_kernel u8_ = nullptr, i8_ = nullptr;

  oprig_status enqueue_grid(cl_kernel kernel, uint64_t count, oprig_execute_info* info) const;
};

}  // namespace oprig::opsuite
