// Dequantize on the opencl backend: host side of opencl.cl. create() takes
// the shared program and makes this instance's two kernels (UINT_8, INT_8
// codes); prepare() checks the quantisation as the cpu kernel does and
// splits a subnormal scale into its integer mantissa; execute() enqueues one
// grid-stride NDRange without waiting.
#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <new>

#include "common/kernel.hpp"
#include "common/opencl_grid.hpp"
#include "common/opencl_program.hpp"
#include "dequantize_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_dequantize__opencl;

namespace {

constexpr int32_t kMaxZeroPoint = (1 << 24) - 256;  // code - zero point exact in fp32
struct DequantizeOpenCL : KernelBase {
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
  cl_kernel u8 = nullptr, i8 = nullptr;
  bool prepared = false;
  bool is_signed = false;
  cl_int zero_point = 0;
  cl_float scale = 1;
  cl_int subnormal = 0;    // the scale is an fp32 denormal: applied as mantissa 2^-149
  cl_float mantissa = 0;   // its integer mantissa (exact in fp32)
  size_t count = 0;
  ~DequantizeOpenCL() {
    for (cl_kernel k : {u8, i8})
      if (k != nullptr) clReleaseKernel(k);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param*, size_t, oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_program program = cached_program(static_cast<cl_context>(ctx->cl_context),
                                      static_cast<cl_device_id>(ctx->cl_device), dequantize_opencl_source,
                                      dequantize_opencl_source_size, "-cl-std=CL1.2", "Dequantize");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) DequantizeOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_dequantize__opencl;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->device = static_cast<cl_device_id>(ctx->cl_device);
  cl_int e1 = CL_SUCCESS, e2 = CL_SUCCESS;
  k->u8 = clCreateKernel(program, "dequantize_u8", &e1);
  k->i8 = clCreateKernel(program, "dequantize_i8", &e2);
  if (e1 != CL_SUCCESS || e2 != CL_SUCCESS) {
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
  auto* k = from_handle<DequantizeOpenCL>(handle);
  k->prepared = false;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_UINT_8 && in.dtype != OPRIG_DTYPE_INT_8) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != OPRIG_DTYPE_FLOAT_32 || out.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (!(in.scale > 0) || !std::isfinite(in.scale)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in.zero_point < -kMaxZeroPoint || in.zero_point > kMaxZeroPoint) return OPRIG_STATUS_INVALID_ARGUMENT;
  k->is_signed = in.dtype == OPRIG_DTYPE_INT_8;
  k->zero_point = in.zero_point;
  k->scale = in.scale;
  const uint32_t bits = std::bit_cast<uint32_t>(in.scale);
  k->subnormal = bits < 0x00800000u ? 1 : 0;
  k->mantissa = static_cast<float>(bits);  // < 2^23: exact; used only when subnormal
  out.rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, out.dims);
  k->count = element_count(in);
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<DequantizeOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->count == 0) return OPRIG_STATUS_OK;
  const cl_mem x = static_cast<cl_mem>(inputs[0].data);
  const cl_mem y = static_cast<cl_mem>(outputs[0].data);
  if (x == nullptr || y == nullptr || inputs[0].offset != 0 || outputs[0].offset != 0)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_kernel kernel = k->is_signed ? k->i8 : k->u8;
  const cl_ulong n = k->count;
  if (!set_kernel_args(kernel, x, y, k->zero_point, k->scale, k->subnormal, k->mantissa, n))
    return OPRIG_STATUS_BACKEND_ERROR;
  const ClGrid grid = grid_stride_range(k->count / 4, kernel, k->device);
  ClEnqueue enqueue(k->queue);
  const oprig_status st = enqueue.kernel(kernel, 1, &grid.global, &grid.local);
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<DequantizeOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const DequantizeOpenCL>(handle);
  *out = {2 * k->count, k->count, 4 * k->count};  // subtract, multiply; 1 byte in, 4 out
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_dequantize__opencl = {"Dequantize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
