// Softmax on the opencl backend: host side of opencl.cl. create() takes the
// shared program for the host's context and makes this instance's kernels
// (rows and columns, fp32 and fp16); prepare() sees the input as
// [outer, length, inner], picks rows (inner 1) or columns and lays the
// slices on work-groups (common/slice_layout.hpp); execute() enqueues one
// NDRange without waiting.
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <optional>

#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "common/slice_device_opencl.hpp"
#include "common/slice_layout.hpp"
#include "softmax_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_softmax__opencl;

namespace {

struct SoftmaxOpenCL : KernelBase {
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
  cl_kernel rows[2] = {}, columns[2] = {};  // [0] FLOAT_32, [1] FLOAT_16
  OpenClSliceTuning tuning;
  std::optional<int64_t> axis;  // absent: the spec's default N-1
  float beta = 1.0f;
  uint32_t dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  uint64_t outer = 0, length = 0, inner = 0;
  SliceLayout layout;
  cl_kernel kernel = nullptr;  // the one prepare chose
  ~SoftmaxOpenCL() {
    for (cl_kernel k : {rows[0], rows[1], columns[0], columns[1]})
      if (k != nullptr) clReleaseKernel(k);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<double> beta = scalar_param(params, num_params, "beta");
  if (beta && !(std::isfinite(*beta) && *beta > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;  // the spec: beta > 0
  cl_context context = static_cast<cl_context>(ctx->cl_context);
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  cl_program program = cached_program(context, device, softmax_opencl_source, softmax_opencl_source_size,
                                      opencl_slice_options(device), "Softmax");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) SoftmaxOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_softmax__opencl;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->device = device;
  if (const auto axis = scalar_param(params, num_params, "axis")) k->axis = static_cast<int64_t>(*axis);
  k->beta = static_cast<float>(beta.value_or(1.0));
  k->tuning = opencl_slice_tuning(device);
  cl_int err[4] = {};
  k->rows[0] = clCreateKernel(program, "softmax_rows_f32", &err[0]);
  k->rows[1] = clCreateKernel(program, "softmax_rows_f16", &err[1]);
  k->columns[0] = clCreateKernel(program, "softmax_columns_f32", &err[2]);
  k->columns[1] = clCreateKernel(program, "softmax_columns_f16", &err[3]);
  if (err[0] != CL_SUCCESS || err[1] != CL_SUCCESS || err[2] != CL_SUCCESS || err[3] != CL_SUCCESS) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<SoftmaxOpenCL>(handle);
  k->dtype = OPRIG_DTYPE_INVALID;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != in.dtype || in.rank == 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t rank = in.rank;
  const int64_t axis = k->axis.value_or(rank - 1);
  if (axis < -rank || axis >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto a = static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
  k->outer = k->inner = 1;
  for (uint32_t d = 0; d < a; ++d) k->outer *= static_cast<uint64_t>(in.dims[d]);
  for (uint32_t d = a + 1; d < in.rank; ++d) k->inner *= static_cast<uint64_t>(in.dims[d]);
  k->length = static_cast<uint64_t>(in.dims[a]);
  if (k->length > UINT32_MAX) return OPRIG_STATUS_UNSUPPORTED;  // the kernel counts a slice in 32 bits
  if (k->outer * k->length * k->inner > 0) {
    const int type = in.dtype == OPRIG_DTYPE_FLOAT_32 ? 0 : 1;
    k->kernel = k->inner == 1 ? k->rows[type] : k->columns[type];
    // Rows go in vector units (at most length / vector + 1 of them), columns element by element.
    const uint64_t units = k->inner == 1 ? k->length / k->tuning.vector + 1 : k->length;
    k->layout = layout_slices(k->outer, units, k->inner, opencl_slice_device(k->device, k->kernel));
  }
  k->dtype = in.dtype;
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<SoftmaxOpenCL>(handle);
  if (k->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (k->outer * k->length * k->inner == 0) return OPRIG_STATUS_OK;
  if (inputs[0].data == nullptr || outputs[0].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_kernel kernel = k->kernel;
  const SliceLayout& layout = k->layout;
  const auto x = static_cast<cl_mem>(inputs[0].data), y = static_cast<cl_mem>(outputs[0].data);
  const cl_ulong outer = k->outer, inner = k->inner;
  const auto length = static_cast<cl_uint>(k->length);
  const cl_uint members = layout.members;
  const bool args = k->inner == 1 ? set_kernel_args(kernel, x, y, outer, length, k->beta, members)
                                  : set_kernel_args(kernel, x, y, outer, length, inner, k->beta, members);
  if (!args) return OPRIG_STATUS_BACKEND_ERROR;
  const cl_uint scratch = k->inner == 1 ? 6 : 7;  // the index of the first __local argument
  return enqueue_slice_groups(k->queue, kernel, layout, scratch, sizeof(cl_float2), info);
}

void destroy(oprig_kernel* handle) { delete from_handle<SoftmaxOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const SoftmaxOpenCL>(handle);
  const uint64_t n = k->outer * k->length * k->inner;
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  // max, TwoSum (6), exp (12), the float-float sum (7), scale (2): this kernel's own steps, more
  // than cpu.cpp's 21, whose sum is one fp64 add where this one keeps a float-float pair.
  out->flops = 28 * n;
  out->bytes_read = width * n;
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_softmax__opencl = {"Softmax", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
