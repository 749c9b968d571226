// Concat on the opencl backend: host side of opencl.cl (byte_plan.hpp plans
// the chunks); one NDRange over the output bytes per execute, enqueued
// without waiting. Up to 7 inputs; more are UNSUPPORTED.
#include <CL/cl.h>

#include <new>

#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "concat/byte_plan.hpp"
#include "concat_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_concat__opencl;

namespace {

constexpr size_t kMaxInputs = 7;

struct ConcatOpenCL : KernelBase {
  cl_command_queue queue = nullptr;
  cl_kernel kernel = nullptr;
  int64_t axis = 0;
  bool prepared = false;
  ChunkedRows plan;
  ~ConcatOpenCL() {
    if (kernel != nullptr) clReleaseKernel(kernel);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_program program = cached_program(static_cast<cl_context>(ctx->cl_context), static_cast<cl_device_id>(ctx->cl_device),
                                      concat_opencl_source, concat_opencl_source_size, "-cl-std=CL1.2", "Concat");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) ConcatOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_concat__opencl;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(0.0));  // spec default 0
  cl_int err = CL_SUCCESS;
  k->kernel = clCreateKernel(program, "concat_bytes", &err);
  if (err != CL_SUCCESS) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ConcatOpenCL>(handle);
  k->prepared = false;
  if (num_inputs < 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (num_inputs > kMaxInputs) return OPRIG_STATUS_UNSUPPORTED;
  const oprig_status st = concat::plan_rows(concat::Params{k->axis}, inputs, num_inputs, outputs, num_outputs, &k->plan);
  k->prepared = st == OPRIG_STATUS_OK;
  return st;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || inputs == nullptr || outputs == nullptr || num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<ConcatOpenCL>(handle);
  if (!k->prepared || num_inputs != k->plan.chunk.size()) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->plan.total == 0) return OPRIG_STATUS_OK;
  const cl_mem y = static_cast<cl_mem>(outputs[0].data);
  if (y == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const cl_ulong total = k->plan.total, row_bytes = k->plan.row_bytes;
  const cl_int count = static_cast<cl_int>(num_inputs);
  cl_ulong8 chunk{}, start{};
  cl_mem in[kMaxInputs];
  for (size_t i = 0; i < kMaxInputs; ++i) {
    const size_t from = i < num_inputs ? i : 0;
    // An empty input may have no buffer; input 0 stands in (never read).
    in[i] = static_cast<cl_mem>(inputs[from].data != nullptr ? inputs[from].data : outputs[0].data);
    if (i < num_inputs) {
      chunk.s[i] = k->plan.chunk[i];
      start.s[i] = k->plan.start[i];
    }
  }
  cl_int err = clSetKernelArg(k->kernel, 0, sizeof y, &y);
  err |= clSetKernelArg(k->kernel, 1, sizeof total, &total);
  err |= clSetKernelArg(k->kernel, 2, sizeof row_bytes, &row_bytes);
  err |= clSetKernelArg(k->kernel, 3, sizeof count, &count);
  err |= clSetKernelArg(k->kernel, 4, sizeof chunk, &chunk);
  err |= clSetKernelArg(k->kernel, 5, sizeof start, &start);
  for (cl_uint i = 0; i < kMaxInputs; ++i) err |= clSetKernelArg(k->kernel, 6 + i, sizeof in[i], &in[i]);
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  const size_t global = k->plan.total;
  cl_event event = nullptr;
  err = clEnqueueNDRangeKernel(k->queue, k->kernel, 1, nullptr, &global, nullptr, 0, nullptr, &event);
  if (err == CL_OUT_OF_HOST_MEMORY) return OPRIG_STATUS_OUT_OF_MEMORY;
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  clRetainEvent(event);  // one reference per pointer handed to the host
  info->cl_first_event = event;
  info->cl_last_event = event;
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ConcatOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ConcatOpenCL>(handle);
  *out = {0, k->plan.total, k->plan.total};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_concat__opencl = {"Concat", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
