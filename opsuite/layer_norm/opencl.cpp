// LayerNorm on the opencl backend: host side of opencl.cl. create() takes
// the shared program for the host's context and makes this instance's two
// kernels (fp32, fp16); prepare() checks the shapes as the cpu kernel does
// and lays the rows (the slices over the axes from `axis` on) on work-groups
// (common/slice_layout.hpp); execute() enqueues one NDRange without waiting.
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <optional>

#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "common/slice_device_opencl.hpp"
#include "common/slice_layout.hpp"
#include "layer_norm/layer_norm_rows.hpp"
#include "layer_norm_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_layer_norm__opencl;

namespace {

struct LayerNormOpenCL : KernelBase {
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
  cl_kernel kernels[2] = {};  // FLOAT_32, FLOAT_16
  OpenClSliceTuning tuning;
  int64_t axis = -1;
  float epsilon = 1e-5f;
  uint32_t dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  LayerNormRows shape;  // set by prepare()
  SliceLayout layout;
  ~LayerNormOpenCL() {
    for (cl_kernel k : kernels)
      if (k != nullptr) clReleaseKernel(k);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<double> epsilon = scalar_param(params, num_params, "epsilon");
  if (epsilon && !(std::isfinite(*epsilon) && *epsilon > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;  // the spec: > 0
  cl_context context = static_cast<cl_context>(ctx->cl_context);
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  cl_program program = cached_program(context, device, layer_norm_opencl_source, layer_norm_opencl_source_size,
                                      opencl_slice_options(device), "LayerNorm");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) LayerNormOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_layer_norm__opencl;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->device = device;
  k->tuning = opencl_slice_tuning(device);
  k->axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(-1.0));
  // The parameter arrives as FLOAT_32: its value is that float, exactly.
  k->epsilon = static_cast<float>(epsilon.value_or(1e-5));
  cl_int e1 = CL_SUCCESS, e2 = CL_SUCCESS;
  k->kernels[0] = clCreateKernel(program, "layer_norm_f32", &e1);
  k->kernels[1] = clCreateKernel(program, "layer_norm_f16", &e2);
  if (e1 != CL_SUCCESS || e2 != CL_SUCCESS) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs < 2 || num_inputs > 3 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<LayerNormOpenCL>(handle);
  k->dtype = OPRIG_DTYPE_INVALID;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  const oprig_status st = layer_norm_rows(inputs, num_inputs, outputs[0], k->axis, &k->shape);
  if (st != OPRIG_STATUS_OK) return st;
  // The kernel counts a row in 32 bits and divides by its length as a float (exact below 2^24).
  if (k->shape.row_size >= (uint64_t{1} << 24)) return OPRIG_STATUS_UNSUPPORTED;
  if (k->shape.rows > 0) {
    cl_kernel kernel = k->kernels[in.dtype == OPRIG_DTYPE_FLOAT_32 ? 0 : 1];
    k->layout = layout_slices(k->shape.rows, k->shape.row_size / k->tuning.vector + 1, 1, opencl_slice_device(k->device, kernel));
  }
  k->dtype = in.dtype;
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs < 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<LayerNormOpenCL>(handle);
  if (k->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (k->shape.rows == 0) return OPRIG_STATUS_OK;
  if (inputs[0].data == nullptr || inputs[1].data == nullptr || outputs[0].data == nullptr ||
      (k->shape.has_beta && (num_inputs < 3 || inputs[2].data == nullptr)))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_kernel kernel = k->kernels[k->dtype == OPRIG_DTYPE_FLOAT_32 ? 0 : 1];
  const SliceLayout& layout = k->layout;
  const auto x = static_cast<cl_mem>(inputs[0].data), gamma = static_cast<cl_mem>(inputs[1].data);
  const auto beta = k->shape.has_beta ? static_cast<cl_mem>(inputs[2].data) : gamma;  // not read without beta
  const auto y = static_cast<cl_mem>(outputs[0].data);
  const cl_ulong rows = k->shape.rows;
  const auto n = static_cast<cl_uint>(k->shape.row_size);
  const cl_int has_beta = k->shape.has_beta ? 1 : 0;
  const cl_uint members = layout.members;
  if (!set_kernel_args(kernel, x, gamma, beta, y, rows, n, k->epsilon, has_beta, members))
    return OPRIG_STATUS_BACKEND_ERROR;
  return enqueue_slice_groups(k->queue, kernel, layout, 9, sizeof(cl_float4), info);
}

void destroy(oprig_kernel* handle) { delete from_handle<LayerNormOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const LayerNormOpenCL>(handle);
  const uint64_t n = k->shape.rows * k->shape.row_size;
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  // |x|, the shifted value and its Sum2 (6), its exact square and Sum2 (8), the deviation, scale and fma (5).
  out->flops = 19 * n;
  out->bytes_read = width * (n + (k->shape.has_beta ? 2 : 1) * k->shape.row_size);
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_layer_norm__opencl = {"LayerNorm", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
