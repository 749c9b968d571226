// The opencl kernel of the test packages (OPRIG_TEST_WITH_OPENCL): FLOAT_32
// y = atan(x + offset) with OpenCL's built-in atan, one program per
// instance. With OPRIG_TEST_GPU_FAULT = kOutOfBounds it stores one element
// past the end of a kFaultyElementCount-element output, through the
// sub-buffer the host hands it: the store must land in the host's red zone.
#include <CL/cl.h>

#include <cstring>
#include <new>

#include "oprig/oprig_package.h"
#include "test_package_config.hpp"

const oprig_implementation_v1* oprig_test_opencl_implementation();

namespace {

constexpr bool kOutOfBounds = OPRIG_TEST_GPU_FAULT == oprig_test::Fault::kOutOfBounds;

constexpr const char* kSource = R"CL(
__kernel void atan_offset(__global const float* x, __global float* y, uint n, uint past_end, float offset) {
  const size_t i = get_global_id(0);
  if (i < n) y[i] = atan(x[i] + offset);
  if (i == 0 && past_end != 0) y[n] = atan(x[0] + offset);
}
)CL";

struct AtanOpenCL {
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  float offset = 0;
  cl_uint count = 0;
};

float read_offset(const oprig_param* params, size_t num_params) {
  for (size_t i = 0; i < num_params; ++i)
    if (params[i].name != nullptr && std::strcmp(params[i].name, "offset") == 0 &&
        params[i].dtype == OPRIG_DTYPE_FLOAT_32 && params[i].count == 1 && params[i].data != nullptr) {
      float v;
      std::memcpy(&v, params[i].data, sizeof v);
      return v;
    }
  return 0.0f;
}

void destroy(oprig_kernel* handle) {
  auto* k = reinterpret_cast<AtanOpenCL*>(handle);
  if (k == nullptr) return;
  if (k->kernel) clReleaseKernel(k->kernel);
  if (k->program) clReleaseProgram(k->program);
  delete k;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || op_name == nullptr || ctx->kind != OPRIG_BACKEND_OPENCL) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (std::strcmp(op_name, "Atan") != 0) return OPRIG_STATUS_UNSUPPORTED;
  auto* k = new (std::nothrow) AtanOpenCL();
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->offset = read_offset(params, num_params);
  cl_int err = CL_SUCCESS;
  const char* source = kSource;
  const size_t length = std::strlen(source);
  k->program = clCreateProgramWithSource(static_cast<cl_context>(ctx->cl_context), 1, &source, &length, &err);
  if (err == CL_SUCCESS) {
    cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
    err = clBuildProgram(k->program, 1, &device, "-cl-std=CL1.2", nullptr, nullptr);
  }
  if (err == CL_SUCCESS) k->kernel = clCreateKernel(k->program, "atan_offset", &err);
  if (err != CL_SUCCESS) {
    destroy(reinterpret_cast<oprig_kernel*>(k));
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = reinterpret_cast<oprig_kernel*>(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (handle == nullptr || num_inputs < 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != in.dtype || in.rank > OPRIG_MAX_RANK) return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = in.rank;
  size_t count = 1;
  for (uint32_t d = 0; d < in.rank; ++d) {
    outputs[0].dims[d] = in.dims[d];
    count *= static_cast<size_t>(in.dims[d]);
  }
  reinterpret_cast<AtanOpenCL*>(handle)->count = static_cast<cl_uint>(count);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  if (handle == nullptr || num_inputs < 1 || num_outputs != 1 || info == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = reinterpret_cast<AtanOpenCL*>(handle);
  info->cl_first_event = info->cl_last_event = nullptr;
  if (k->count == 0) return OPRIG_STATUS_OK;
  cl_mem src = static_cast<cl_mem>(inputs[0].data);
  cl_mem dst = static_cast<cl_mem>(outputs[0].data);
  const cl_uint past_end = kOutOfBounds && k->count == oprig_test::kFaultyElementCount ? 1 : 0;
  cl_int err = clSetKernelArg(k->kernel, 0, sizeof src, &src);
  err |= clSetKernelArg(k->kernel, 1, sizeof dst, &dst);
  err |= clSetKernelArg(k->kernel, 2, sizeof k->count, &k->count);
  err |= clSetKernelArg(k->kernel, 3, sizeof past_end, &past_end);
  err |= clSetKernelArg(k->kernel, 4, sizeof k->offset, &k->offset);
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  const size_t global = k->count;
  cl_event event = nullptr;
  if (clEnqueueNDRangeKernel(k->queue, k->kernel, 1, nullptr, &global, nullptr, 0, nullptr, &event) != CL_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;
  // One reference per pointer handed back: the host releases each.
  clRetainEvent(event);
  info->cl_first_event = event;
  info->cl_last_event = event;
  return OPRIG_STATUS_OK;
}

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_OPENCL,
    create, prepare, execute, destroy, /*cost*/ nullptr, /*resolve_shapes*/ nullptr, {}};

}  // namespace

const oprig_implementation_v1* oprig_test_opencl_implementation() { return &kImplementation; }
