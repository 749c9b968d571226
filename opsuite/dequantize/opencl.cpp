// Dequantize on the opencl backend: host side of opencl.cl. create() takes
// the shared program and makes this instance's two kernels (UINT_8, INT_8
// codes; common/opencl_code_kernels.hpp, shared with Quantize); prepare()
// checks the quantisation as the cpu kernel does and splits a subnormal
// scale into its integer mantissa; execute() enqueues one grid-stride
// NDRange without waiting.
#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <new>

#include "common/kernel.hpp"
#include "common/opencl_code_kernels.hpp"
#include "dequantize_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_dequantize__opencl;

namespace {

constexpr int32_t kMaxZeroPoint = (1 << 24) - 256;  // code - zero point exact in fp32
struct DequantizeOpenCL : KernelBase {
  ClCodeKernels cl;
  bool prepared = false;
  bool is_signed = false;
  cl_int zero_point = 0;
  cl_float scale = 1;
  cl_int subnormal = 0;    // the scale is an fp32 denormal: applied as mantissa 2^-149
  cl_float mantissa = 0;   // its integer mantissa (exact in fp32)
  size_t count = 0;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param*, size_t, oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* k = new (std::nothrow) DequantizeOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_dequantize__opencl;
  const oprig_status st =
      k->cl.create(*ctx, dequantize_opencl_source, dequantize_opencl_source_size, "Dequantize", "dequantize_u8", "dequantize_i8");
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
  return k->cl.enqueue(k->is_signed, k->count, inputs[0], outputs[0], info, k->zero_point, k->scale, k->subnormal,
                       k->mantissa);
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
