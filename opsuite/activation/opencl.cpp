// Activation on the opencl backend: host side of opencl.cl. create() takes
// the shared program (activation_coefficients.hpp in front of opencl.cl,
// built with correctly rounded division where the device has it) and makes
// the mode's three kernels (FLOAT_32, FLOAT_16, UINT_8); prepare() checks
// the types and, for UINT_8, both quantisations; execute() enqueues one
// grid-stride NDRange without waiting.
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <string>

#include "activation_coefficients_text.h"
#include "activation_opencl_cl.h"
#include "activation/activation_modes.hpp"
#include "common/kernel.hpp"
#include "common/opencl_grid.hpp"
#include "common/opencl_program.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_activation__opencl;

namespace {

// In the order of the spec's Enumeration; the kernels' name suffixes.
const char* const kModeNames[] = {"relu", "relu6", "sigmoid", "tanh", "gelu_erf", "gelu_tanh", "silu", "hard_swish"};

// The coefficients (C++, OpenCL C and GLSL in one text) and the kernels, as one program source.
const std::string& program_source() {
  static const std::string source =
      std::string(reinterpret_cast<const char*>(activation_coefficients_source), activation_coefficients_source_size) +
      "\n" + std::string(reinterpret_cast<const char*>(activation_opencl_source), activation_opencl_source_size);
  return source;
}

struct ActivationOpenCL : KernelBase {
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
  cl_kernel f32 = nullptr, f16 = nullptr, u8 = nullptr;
  int mode = 0;
  uint32_t dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  size_t count = 0;
  cl_int in_zero_point = 0, out_zero_point = 0;
  cl_float in_scale = 0, out_inverse_scale = 0;
  ~ActivationOpenCL() {
    for (cl_kernel k : {f32, f16, u8})
      if (k != nullptr) clReleaseKernel(k);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> mode = activation_mode(params, num_params);
  if (!mode || *mode < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  std::string options = "-cl-std=CL1.2";
  if (device_divides_correctly(device)) options += " -cl-fp32-correctly-rounded-divide-sqrt";
  const std::string& source = program_source();
  cl_program program = cached_program(static_cast<cl_context>(ctx->cl_context), device,
                                      reinterpret_cast<const unsigned char*>(source.data()), source.size(), options,
                                      "Activation");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) ActivationOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_activation__opencl;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->device = device;
  k->mode = *mode;
  const std::string suffix = kModeNames[*mode];
  cl_int e1 = CL_SUCCESS, e2 = CL_SUCCESS, e3 = CL_SUCCESS;
  k->f32 = clCreateKernel(program, ("activation_f32_" + suffix).c_str(), &e1);
  k->f16 = clCreateKernel(program, ("activation_f16_" + suffix).c_str(), &e2);
  k->u8 = clCreateKernel(program, ("activation_u8_" + suffix).c_str(), &e3);
  if (e1 != CL_SUCCESS || e2 != CL_SUCCESS || e3 != CL_SUCCESS) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

bool quantised(const oprig_tensor& t) { return t.scale > 0 && std::isfinite(t.scale); }

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<ActivationOpenCL>(handle);
  k->dtype = OPRIG_DTYPE_INVALID;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16 && in.dtype != OPRIG_DTYPE_UINT_8)
    return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in.dtype == OPRIG_DTYPE_UINT_8) {
    // Codes of a quantisation on both sides, with a normal input scale (the
    // kernel's reals are products with it: normal or 0 on any device).
    if (!quantised(in) || !quantised(out) || in.scale < 0x1p-126f) return OPRIG_STATUS_UNSUPPORTED;
    k->in_zero_point = in.zero_point;
    k->in_scale = in.scale;
    k->out_zero_point = out.zero_point;
    k->out_inverse_scale = static_cast<float>(1.0 / static_cast<double>(out.scale));
  } else if (in.scale != 0 || out.scale != 0) {
    return OPRIG_STATUS_UNSUPPORTED;
  }
  out.rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, out.dims);
  k->count = element_count(in);
  k->dtype = in.dtype;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<ActivationOpenCL>(handle);
  if (k->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (k->count == 0) return OPRIG_STATUS_OK;
  const cl_mem x = static_cast<cl_mem>(inputs[0].data);
  const cl_mem y = static_cast<cl_mem>(outputs[0].data);
  if (x == nullptr || y == nullptr || inputs[0].offset != 0 || outputs[0].offset != 0)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const cl_ulong n = k->count;
  cl_kernel kernel = k->f32;
  bool ok = false;
  if (k->dtype == OPRIG_DTYPE_UINT_8) {
    kernel = k->u8;
    ok = set_kernel_args(kernel, x, y, n, k->in_zero_point, k->in_scale, k->out_zero_point, k->out_inverse_scale) &&
         set_local_arg(kernel, 7, 256);  // the work-group's table of 256 codes
  } else {
    if (k->dtype == OPRIG_DTYPE_FLOAT_16) kernel = k->f16;
    ok = set_kernel_args(kernel, x, y, n);
  }
  if (!ok) return OPRIG_STATUS_BACKEND_ERROR;
  // UINT_8: each work-group first evaluates the 256-entry table, so each
  // work-item is given 16 vectors (64 codes) at least.
  const ClGrid grid = grid_stride_range(k->dtype == OPRIG_DTYPE_UINT_8 ? k->count / 64 : k->count / 4, kernel, k->device);
  ClEnqueue enqueue(k->queue);
  const oprig_status st = enqueue.kernel(kernel, 1, &grid.global, &grid.local);
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ActivationOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ActivationOpenCL>(handle);
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_32 ? 4 : k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 1;
  // UINT_8: a table lookup per element (the table's 256 evaluations per work-group are not counted).
  const uint64_t flops = k->dtype == OPRIG_DTYPE_UINT_8 ? 0 : kActivationFlopsPerElement[k->mode];
  *out = {flops * k->count, width * k->count, width * k->count};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_activation__opencl = {"Activation", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
