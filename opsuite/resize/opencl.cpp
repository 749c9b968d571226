// Resize on the opencl backend: host side of opencl.cl. prepare() plans the
// output and the per-row and per-column table (resize/resampling.hpp, the
// cpu kernel's), copies the table to a device buffer of the instance, and
// picks the kernel for the mode, the type and the widest vector the channels
// allow; execute() sets the arguments and enqueues one NDRange without
// waiting.
#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "resize/resampling.hpp"
#include "resize_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_resize__opencl;

namespace {

struct ResizeOpenCL : KernelBase, resize::Resampling, resize::Plan {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;  // owned by the program cache
  cl_kernel kernel = nullptr;    // the one prepare chose
  cl_mem table = nullptr;        // resize::device_table of the last prepare
  uint32_t groups = 0;           // work-items per output pixel
  bool prepared = false;
  ~ResizeOpenCL() {
    if (kernel != nullptr) clReleaseKernel(kernel);
    if (table != nullptr) clReleaseMemObject(table);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<resize::Resampling> resampling = resize::read_resampling(params, num_params);
  if (!resampling) return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_context context = static_cast<cl_context>(ctx->cl_context);
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  cl_program program =
      cached_program(context, device, resize_opencl_source, resize_opencl_source_size, "-cl-std=CL1.2", "Resize");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) ResizeOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_resize__opencl;
  static_cast<resize::Resampling&>(*k) = *resampling;
  k->context = context;
  k->device = device;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->program = program;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

// The kernel and the channels (NEAREST: bytes) each work-item takes: the
// widest of at most 16 bytes that divides a pixel's channels.
std::string kernel_name(const ResizeOpenCL& k, uint32_t* groups) {
  const uint64_t pixel_bytes = static_cast<uint64_t>(k.channels) * k.element_bytes();
  uint64_t bytes = 16;
  while (bytes > k.element_bytes() && pixel_bytes % bytes != 0) bytes /= 2;
  *groups = static_cast<uint32_t>(pixel_bytes / bytes);
  if (k.mode == resize::Mode::kNearest) return "resize_nearest_" + std::to_string(bytes);
  return std::string("resize_bilinear_") + (k.dtype == OPRIG_DTYPE_FLOAT_32 ? "f32_" : "f16_") +
         std::to_string(bytes / k.element_bytes());
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ResizeOpenCL>(handle);
  k->prepared = false;
  const oprig_status st = resize::plan_resize(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  if (k->batches * k->height * k->width * k->channels > INT32_MAX ||
      k->batches * k->out_height * k->out_width * k->channels > INT32_MAX)
    return OPRIG_STATUS_UNSUPPORTED;
  const std::string name = kernel_name(*k, &k->groups);
  if (k->kernel != nullptr) clReleaseKernel(k->kernel);
  cl_int err = CL_SUCCESS;
  k->kernel = clCreateKernel(k->program, name.c_str(), &err);
  if (err != CL_SUCCESS) {
    k->kernel = nullptr;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  // A fresh buffer: one an execute still in flight may read is released
  // only when that execute is done (OpenCL keeps it alive until then).
  std::vector<uint32_t> table = resize::device_table(*k);
  if (k->table != nullptr) clReleaseMemObject(k->table);
  k->table = clCreateBuffer(k->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, table.size() * sizeof(uint32_t),
                            table.data(), &err);
  if (err != CL_SUCCESS) {
    k->table = nullptr;
    return err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE ? OPRIG_STATUS_OUT_OF_MEMORY
                                                                                   : OPRIG_STATUS_BACKEND_ERROR;
  }
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<ResizeOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const uint64_t row_items = static_cast<uint64_t>(k->out_width) * k->groups;
  if (row_items == 0 || k->batches == 0) return OPRIG_STATUS_OK;
  const cl_mem x = static_cast<cl_mem>(inputs[0].data), y = static_cast<cl_mem>(outputs[0].data);
  if (x == nullptr || y == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const cl_int shift = std::has_single_bit(k->groups) ? std::countr_zero(k->groups) : -1;
  const cl_int8 g{{static_cast<cl_int>(k->height), static_cast<cl_int>(k->width), static_cast<cl_int>(k->channels),
                   static_cast<cl_int>(k->out_height), static_cast<cl_int>(k->out_width),
                   static_cast<cl_int>(k->groups), shift, static_cast<cl_int>(row_items)}};
  if (!set_kernel_args(k->kernel, x, y, k->table, g)) return OPRIG_STATUS_BACKEND_ERROR;
  // (work-items of an output row, output rows, images): the row and the
  // image come without a division.
  const size_t local[3] = {std::min<size_t>({256, max_work_group_size(k->kernel, k->device), std::bit_ceil(row_items)}),
                           1, 1};
  const size_t global[3] = {(row_items + local[0] - 1) / local[0] * local[0], static_cast<size_t>(k->out_height),
                            static_cast<size_t>(k->batches)};
  ClEnqueue enqueue(k->queue);
  const oprig_status st = enqueue.kernel(k->kernel, 3, global, local);
  if (st == OPRIG_STATUS_OK) enqueue.finish(info);
  return st;
}

void destroy(oprig_kernel* handle) { delete from_handle<ResizeOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ResizeOpenCL>(handle);
  *out = resize::resize_cost(*k, *k);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_resize__opencl = {"Resize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
