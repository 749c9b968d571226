// Resize on the opencl backend: host side of opencl.cl. prepare() plans the
// output and the per-row and per-column table (resize/resampling.hpp, the
// cpu kernel's), copies the table to a device buffer of the instance, and
// picks the kernel for the mode, the type and the widest channel vector;
// execute() enqueues one NDRange over the pixel grid without waiting
// (common/opencl_pixel_grid.hpp).
#include <CL/cl.h>

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "common/kernel.hpp"
#include "common/opencl_pixel_grid.hpp"
#include "common/opencl_program.hpp"
#include "common/pixel_grid.hpp"
#include "resize/resampling.hpp"
#include "resize_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_resize__opencl;

namespace {

struct ResizeOpenCL : KernelBase, resize::Resampling, resize::Plan {
  cl_context context = nullptr;
  ClPixelKernel device;
  cl_mem table = nullptr;  // resize::device_table of the last prepare
  ~ResizeOpenCL() {
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
  cl_program program = cached_program(context, static_cast<cl_device_id>(ctx->cl_device), resize_opencl_source,
                                      resize_opencl_source_size, "-cl-std=CL1.2", "Resize");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) ResizeOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_resize__opencl;
  static_cast<resize::Resampling&>(*k) = *resampling;
  k->context = context;
  k->device.from_context(*ctx, program);
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

// Copies the table into a fresh buffer: one an execute still in flight may
// read is released only when that execute is done (OpenCL keeps it alive).
oprig_status upload_table(ResizeOpenCL& k) {
  std::vector<uint32_t> table = resize::device_table(k);
  if (k.table != nullptr) clReleaseMemObject(k.table);
  cl_int err = CL_SUCCESS;
  k.table = clCreateBuffer(k.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, table.size() * sizeof(uint32_t),
                           table.data(), &err);
  if (err == CL_SUCCESS) return OPRIG_STATUS_OK;
  k.table = nullptr;
  return err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE ? OPRIG_STATUS_OUT_OF_MEMORY
                                                                                 : OPRIG_STATUS_BACKEND_ERROR;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ResizeOpenCL>(handle);
  k->device.forget();
  oprig_status st = resize::plan_resize(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  if (k->batches * k->height * k->width * k->channels > INT32_MAX ||
      k->batches * k->out_height * k->out_width * k->channels > INT32_MAX)
    return OPRIG_STATUS_UNSUPPORTED;
  st = upload_table(*k);
  if (st != OPRIG_STATUS_OK) return st;
  const uint64_t pixel_bytes = static_cast<uint64_t>(k->channels) * k->element_bytes();
  const uint64_t run_bytes = widest_run(pixel_bytes, k->element_bytes());  // opencl.cl has a kernel for each
  const std::string name = k->mode == resize::Mode::kNearest
                               ? "resize_nearest_" + std::to_string(run_bytes)
                               : std::string("resize_bilinear_") + (k->dtype == OPRIG_DTYPE_FLOAT_32 ? "f32_" : "f16_") +
                                     std::to_string(run_bytes / k->element_bytes());
  return k->device.choose(name, pixel_grid(pixel_bytes, run_bytes, k->out_height, k->out_width, k->batches));
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<ResizeOpenCL>(handle);
  const cl_int8 g{{static_cast<cl_int>(k->height), static_cast<cl_int>(k->width), static_cast<cl_int>(k->channels),
                   static_cast<cl_int>(k->out_height), static_cast<cl_int>(k->out_width), 0, 0, 0}};
  return k->device.launch(inputs, num_inputs, outputs, num_outputs, info, k->table, g);
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
