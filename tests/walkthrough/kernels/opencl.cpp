// LeakyRelu on the opencl backend, as the vendor of the walkthrough writes it
// over the stub: create() builds acmeops.cl (embedded by oprig_add_package as
// acmeops_opencl_source) on the host's context, execute() enqueues one
// NDRange without waiting and hands its event to the host for timing.
#include <CL/cl.h>
#include <oprig/oprig_package.h>

#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "acmeops_cl.h"
#include "leaky_relu_params.hpp"

namespace {

struct Kernel {
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel f32 = nullptr;
  cl_kernel f16 = nullptr;
  float alpha = acme::kDefaultAlpha;
  uint32_t dtype = OPRIG_DTYPE_INVALID;
  size_t count = 0;

  ~Kernel() {
    if (f32 != nullptr) clReleaseKernel(f32);
    if (f16 != nullptr) clReleaseKernel(f16);
    if (program != nullptr) clReleaseProgram(program);
  }
};

// The build options: the injected bug of the walkthrough, when this file is
// compiled with -DWALKTHROUGH_BUG=1, reaches the OpenCL C source this way.
const char* build_options() {
#if defined(WALKTHROUGH_BUG) && WALKTHROUGH_BUG
  return "-cl-std=CL1.2 -D WALKTHROUGH_BUG=1";
#else
  return "-cl-std=CL1.2";
#endif
}

cl_program build_program(cl_context context, cl_device_id device) {
  const char* source = reinterpret_cast<const char*>(acmeops_opencl_source);
  const size_t length = acmeops_opencl_source_size;
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, &length, &err);
  if (err != CL_SUCCESS) return nullptr;
  err = clBuildProgram(program, 1, &device, build_options(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    size_t log_size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size);
    std::string log(log_size, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log_size, log.data(), nullptr);
    std::fprintf(stderr, "acmeops: OpenCL build failed (%d):\n%s\n", err, log.c_str());
    clReleaseProgram(program);
    return nullptr;
  }
  return program;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (std::strcmp(op_name, "LeakyRelu") != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = new (std::nothrow) Kernel;
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  if (!acme::read_alpha(params, num_params, &kernel->alpha)) {
    delete kernel;
    return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  kernel->program = build_program(static_cast<cl_context>(ctx->cl_context), static_cast<cl_device_id>(ctx->cl_device));
  cl_int err_f32 = CL_SUCCESS, err_f16 = CL_SUCCESS;
  if (kernel->program != nullptr) {
    kernel->f32 = clCreateKernel(kernel->program, "leaky_relu_f32", &err_f32);
    kernel->f16 = clCreateKernel(kernel->program, "leaky_relu_f16", &err_f16);
  }
  if (kernel->program == nullptr || err_f32 != CL_SUCCESS || err_f16 != CL_SUCCESS) {
    delete kernel;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = reinterpret_cast<oprig_kernel*>(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (handle == nullptr || num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = reinterpret_cast<Kernel*>(handle);
  const uint32_t dtype = inputs[0].dtype;
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!acme::same_shape_as_input(inputs[0], outputs[0])) return OPRIG_STATUS_INVALID_ARGUMENT;
  kernel->dtype = dtype;
  kernel->count = acme::element_count(inputs[0]);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (handle == nullptr || num_inputs != 1 || num_outputs != 1 || info == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* kernel = reinterpret_cast<Kernel*>(handle);
  if (kernel->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // no prepare
  if (kernel->count == 0) return OPRIG_STATUS_OK;
  cl_kernel k = kernel->dtype == OPRIG_DTYPE_FLOAT_16 ? kernel->f16 : kernel->f32;
  cl_mem src = static_cast<cl_mem>(inputs[0].data);
  cl_mem dst = static_cast<cl_mem>(outputs[0].data);
  const cl_uint n = static_cast<cl_uint>(kernel->count);
  cl_int err = clSetKernelArg(k, 0, sizeof src, &src);
  err |= clSetKernelArg(k, 1, sizeof dst, &dst);
  err |= clSetKernelArg(k, 2, sizeof kernel->alpha, &kernel->alpha);
  err |= clSetKernelArg(k, 3, sizeof n, &n);
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  const size_t global = kernel->count;
  cl_event event = nullptr;
  err = clEnqueueNDRangeKernel(kernel->queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &event);
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  clRetainEvent(event);  // first and last are the same event; the host releases each once
  info->cl_first_event = event;
  info->cl_last_event = event;
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete reinterpret_cast<Kernel*>(handle); }

const oprig_implementation_v1 kImplementation = {OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_OPENCL,
                                                 create, prepare, execute, destroy, nullptr, nullptr, {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                  uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION && backend_kind == OPRIG_BACKEND_OPENCL ? &kImplementation : nullptr;
}
