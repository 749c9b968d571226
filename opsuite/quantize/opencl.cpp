// Quantize on the opencl backend: host side of opencl.cl. create() takes
// the shared program and makes this instance's two kernels (UINT_8, INT_8
// codes; common/opencl_code_kernels.hpp, shared with Dequantize);
// prepare() checks the quantisation as the cpu kernel does and derives the
// fast path's reciprocal (quantize_scale.hpp); execute() enqueues one
// grid-stride NDRange without waiting.
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <new>

#include "common/kernel.hpp"
#include "common/opencl_code_kernels.hpp"
#include "quantize/quantize_scale.hpp"
#include "quantize_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_quantize__opencl;

namespace {

struct QuantizeOpenCL : KernelBase {
  ClCodeKernels cl;
  bool prepared = false;
  bool is_signed = false;
  QuantizeScale scale;
  cl_int zero_point = 0, lowest = 0, highest = 255;
  size_t count = 0;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param*, size_t, oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* k = new (std::nothrow) QuantizeOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_quantize__opencl;
  const oprig_status st =
      k->cl.create(*ctx, quantize_opencl_source, quantize_opencl_source_size, "Quantize", "quantize_u8", "quantize_i8");
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<QuantizeOpenCL>(handle);
  k->prepared = false;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 || in.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != OPRIG_DTYPE_UINT_8 && out.dtype != OPRIG_DTYPE_INT_8) return OPRIG_STATUS_UNSUPPORTED;
  if (!(out.scale > 0) || !std::isfinite(out.scale)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (out.zero_point < -kMaxQuantizeZeroPoint || out.zero_point > kMaxQuantizeZeroPoint)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  k->is_signed = out.dtype == OPRIG_DTYPE_INT_8;
  k->scale = quantize_scale(out.scale);
  k->zero_point = out.zero_point;
  k->lowest = k->is_signed ? -128 : 0;
  k->highest = k->is_signed ? 127 : 255;
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
  auto* k = from_handle<QuantizeOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const cl_float reciprocal = k->scale.reciprocal;
  const cl_uint scale_bits = k->scale.bits;
  const cl_int fast = k->scale.fast ? 1 : 0;
  return k->cl.enqueue(k->is_signed, k->count, inputs[0], outputs[0], info, reciprocal, scale_bits, fast,
                       k->zero_point, k->lowest, k->highest);
}

void destroy(oprig_kernel* handle) { delete from_handle<QuantizeOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const QuantizeOpenCL>(handle);
  *out = {3 * k->count, 4 * k->count, k->count};  // multiply, round, add; 4 bytes in, 1 out
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_quantize__opencl = {"Quantize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
