// ElementwiseBinary on the opencl backend: host side of opencl.cl. create()
// takes the shared program for the host's context and makes this instance's
// kernels (per dtype, a flat and a general form: opencl.cl); prepare() plans
// the broadcast (common/broadcast.hpp) and refuses what the device cannot
// compute exactly enough (FLOAT DIV without correctly rounded division, POW
// without fp64); execute() sets the arguments and enqueues one NDRange
// without waiting: the flat form's grid-stride range (common/opencl_grid.hpp)
// where the plan merged into one dimension, else one work-item per element.
#include <CL/cl.h>

#include <algorithm>
#include <cstddef>
#include <new>
#include <string>

#include "common/broadcast.hpp"
#include "common/kernel.hpp"
#include "common/opencl_grid.hpp"
#include "common/opencl_program.hpp"
#include "elementwise_binary_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_elementwise_binary__opencl;

namespace {

enum Op { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow, kFloorDiv };  // kFloorDiv: DIV, integer_division FLOOR

struct BinaryOpenCL : KernelBase {
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
  cl_kernel f32 = nullptr, f16 = nullptr, i32 = nullptr;
  cl_kernel f32_flat = nullptr, f16_flat = nullptr, i32_flat = nullptr;
  int op = kAdd;
  int act = 0;  // fused_activation: NONE, RELU, RELU1, RELU6
  bool fp64 = false;
  bool exact_divide = false;
  uint32_t dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  BroadcastPlan plan;
  ~BinaryOpenCL() {
    for (cl_kernel k : {f32, f16, i32, f32_flat, f16_flat, i32_flat})
      if (k != nullptr) clReleaseKernel(k);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> op =
      enum_param(params, num_params, "operation", {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW"});
  if (!op || *op < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> act = enum_param(params, num_params, "fused_activation", {"NONE", "RELU", "RELU1", "RELU6"});
  if (act && *act < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> division = enum_param(params, num_params, "integer_division", {"TRUNCATE", "FLOOR"});
  if (division && *division < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_context context = static_cast<cl_context>(ctx->cl_context);
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  const bool fp64 = device_has_fp64(device);
  const bool exact_divide = device_divides_correctly(device);
  std::string options = "-cl-std=CL1.2";
  if (fp64) options += " -D OPRIG_FP64=1";
  if (exact_divide) options += " -cl-fp32-correctly-rounded-divide-sqrt";
  cl_program program = cached_program(context, device, elementwise_binary_opencl_source,
                                      elementwise_binary_opencl_source_size, options, "ElementwiseBinary");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) BinaryOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_elementwise_binary__opencl;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->device = device;
  k->op = *op == kDiv && division.value_or(0) == 1 ? kFloorDiv : *op;
  k->act = act.value_or(0);
  k->fp64 = fp64;
  k->exact_divide = exact_divide;
  bool made = true;
  const auto make = [&](const char* name) {
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    made = made && err == CL_SUCCESS;
    return err == CL_SUCCESS ? kernel : nullptr;
  };
  k->f32 = make("binary_f32");
  k->f16 = make("binary_f16");
  k->i32 = make("binary_i32");
  k->f32_flat = make("binary_f32_flat");
  k->f16_flat = make("binary_f16_flat");
  k->i32_flat = make("binary_i32_flat");
  if (!made) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<BinaryOpenCL>(handle);
  k->dtype = OPRIG_DTYPE_INVALID;
  const uint32_t dtype = inputs[0].dtype;
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16 && dtype != OPRIG_DTYPE_INT_32)
    return OPRIG_STATUS_UNSUPPORTED;
  if (inputs[1].dtype != dtype || outputs[0].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (inputs[0].scale != 0 || inputs[1].scale != 0 || outputs[0].scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  const bool floating = dtype != OPRIG_DTYPE_INT_32;
  if (floating && (k->op == kDiv || k->op == kFloorDiv) && !k->exact_divide) return OPRIG_STATUS_UNSUPPORTED;
  if (floating && k->op == kPow && !k->fp64) return OPRIG_STATUS_UNSUPPORTED;
  if (!plan_broadcast(inputs[0], inputs[1], &k->plan)) return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = k->plan.rank;
  std::copy(k->plan.out_dims, k->plan.out_dims + OPRIG_MAX_RANK, outputs[0].dims);
  k->dtype = dtype;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<BinaryOpenCL>(handle);
  if (k->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (k->plan.count == 0) return OPRIG_STATUS_OK;
  if (inputs[0].data == nullptr || inputs[1].data == nullptr || outputs[0].data == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const bool flat = k->plan.merged <= 1;
  cl_kernel kernel = k->dtype == OPRIG_DTYPE_FLOAT_32 ? (flat ? k->f32_flat : k->f32)
                     : k->dtype == OPRIG_DTYPE_FLOAT_16 ? (flat ? k->f16_flat : k->f16)
                                                        : (flat ? k->i32_flat : k->i32);
  const cl_mem a = static_cast<cl_mem>(inputs[0].data);
  const cl_mem b = static_cast<cl_mem>(inputs[1].data);
  const cl_mem y = static_cast<cl_mem>(outputs[0].data);
  const cl_int op = k->op, act = k->act;
  const cl_ulong n = k->plan.count;
  cl_int err = clSetKernelArg(kernel, 0, sizeof a, &a);
  err |= clSetKernelArg(kernel, 1, sizeof b, &b);
  err |= clSetKernelArg(kernel, 2, sizeof y, &y);
  err |= clSetKernelArg(kernel, 3, sizeof op, &op);
  err |= clSetKernelArg(kernel, 4, sizeof n, &n);
  size_t global = k->plan.count;
  size_t local_size = 0;
  const size_t* local = nullptr;  // the general form: the runtime's choice
  if (flat) {
    const cl_int a_step = static_cast<cl_int>(k->plan.a_step()), b_step = static_cast<cl_int>(k->plan.b_step());
    err |= clSetKernelArg(kernel, 5, sizeof a_step, &a_step);
    err |= clSetKernelArg(kernel, 6, sizeof b_step, &b_step);
    err |= clSetKernelArg(kernel, 7, sizeof act, &act);
    const ClGrid grid = grid_stride_range(k->plan.count / 4, kernel, k->device);
    global = grid.global;
    local_size = grid.local;
    local = &local_size;
  } else {
    const cl_int merged = static_cast<cl_int>(k->plan.merged);
    cl_long8 dims{}, a_strides{}, b_strides{};
    for (uint32_t d = 0; d < k->plan.merged; ++d) {
      dims.s[d] = k->plan.dims[d];
      a_strides.s[d] = k->plan.a_strides[d];
      b_strides.s[d] = k->plan.b_strides[d];
    }
    err |= clSetKernelArg(kernel, 5, sizeof merged, &merged);
    err |= clSetKernelArg(kernel, 6, sizeof dims, &dims);
    err |= clSetKernelArg(kernel, 7, sizeof a_strides, &a_strides);
    err |= clSetKernelArg(kernel, 8, sizeof b_strides, &b_strides);
    err |= clSetKernelArg(kernel, 9, sizeof act, &act);
  }
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  cl_event event = nullptr;
  err = clEnqueueNDRangeKernel(k->queue, kernel, 1, nullptr, &global, local, 0, nullptr, &event);
  if (err == CL_OUT_OF_HOST_MEMORY) return OPRIG_STATUS_OUT_OF_MEMORY;
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  clRetainEvent(event);  // one reference per pointer handed to the host
  info->cl_first_event = event;
  info->cl_last_event = event;
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<BinaryOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const BinaryOpenCL>(handle);
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  const uint64_t n = k->plan.count;
  *out = {n, 2 * width * n, width * n};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_elementwise_binary__opencl = {"ElementwiseBinary", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
