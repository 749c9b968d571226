// The opencl half of strided_copy_kernel.hpp.
#include "common/strided_copy_kernel.hpp"

#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <iterator>
#include <memory>
#include <new>

#include "common/opencl_program.hpp"

namespace oprig::opsuite {
namespace {

// Kernels by unit width: 1, 2, 4, 8, 16 bytes (index log2 of the width).
constexpr const char* kKernelNames[] = {"oprig_copy_1", "oprig_copy_2", "oprig_copy_4", "oprig_copy_8",
                                        "oprig_copy_16"};
constexpr size_t kWidths = std::size(kKernelNames);

struct ClStridedCopy : StridedCopyKernel {
  cl_command_queue queue = nullptr;
  cl_kernel kernels[kWidths] = {};
  size_t local[kWidths] = {};  // work-group size per kernel
  ~ClStridedCopy() {
    for (cl_kernel k : kernels)
      if (k != nullptr) clReleaseKernel(k);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    CopyLayoutFactory layout, std::span<const unsigned char> program, const KernelOps* ops,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto k = std::unique_ptr<ClStridedCopy>(new (std::nothrow) ClStridedCopy);
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  const oprig_status st = layout(params, num_params, &k->layout);
  if (st != OPRIG_STATUS_OK) return st;
  const auto device = static_cast<cl_device_id>(ctx->cl_device);
  cl_program built = cached_program(static_cast<cl_context>(ctx->cl_context), device, program.data(), program.size(),
                                    "-cl-std=CL1.2", ops->op_name);
  if (built == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  for (size_t w = 0; w < kWidths; ++w) {
    cl_int err = CL_SUCCESS;
    k->kernels[w] = clCreateKernel(built, kKernelNames[w], &err);
    if (err != CL_SUCCESS) {
      k->kernels[w] = nullptr;
      return OPRIG_STATUS_BACKEND_ERROR;
    }
    k->local[w] = std::min<size_t>(256, max_work_group_size(k->kernels[w], device));
  }
  k->ops = ops;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  *out_kernel = to_handle(k.release());
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ClStridedCopy>(handle);
  const oprig_status st = k->plan_copies(inputs, num_inputs, outputs, num_outputs, false);
  k->prepared = st == OPRIG_STATUS_OK;
  return st;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<ClStridedCopy>(handle);
  if (!k->ready(inputs, num_inputs, outputs, num_outputs)) return OPRIG_STATUS_INVALID_ARGUMENT;
  ClEnqueue enqueue(k->queue);
  for (size_t i = 0; i < k->plan.blocks.size(); ++i) {
    const CopyBlock& b = k->plan.blocks[i];
    const DeviceCopy& c = k->copies[i];
    const auto src = static_cast<cl_mem>(inputs[b.src].data);
    const auto dst = static_cast<cl_mem>(outputs[b.dst].data);
    if (src == nullptr || dst == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    const auto w = static_cast<size_t>(std::countr_zero(c.width));
    if (!set_kernel_args(k->kernels[w], dst, src, c.geometry)) return OPRIG_STATUS_BACKEND_ERROR;
    const size_t local = std::min<size_t>(k->local[w], std::bit_ceil(size_t{c.geometry.units}));
    const size_t global = (c.geometry.units + local - 1) / local * local;
    const oprig_status st = enqueue.kernel(k->kernels[w], 1, &global, &local);
    if (st != OPRIG_STATUS_OK) return st;
  }
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ClStridedCopy>(handle); }

}  // namespace

const StridedCopyApi strided_copy_on_opencl = {create, prepare, execute, destroy};

}  // namespace oprig::opsuite
