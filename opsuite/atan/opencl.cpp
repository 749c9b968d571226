// Atan on the opencl backend: host side of opencl.cl. create() takes the
// process-wide program for the host's context (built once), prepare() checks
// types and infers the shape, execute() enqueues one NDRange without waiting.
#include <CL/cl.h>

#include <cstddef>
#include <cstdio>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <utility>

#include "common/kernel.hpp"
#include "atan_opencl_cl.h"

namespace oprig::opsuite {
namespace {

// Elements per work-item; opencl.cl vectorises over them (see bench notes in
// harness/bench/micro/opencl_atan.cpp for the measurement that chose 8).
constexpr size_t kVectorWidth = 8;

// Floating-point operations per element, as written in opencl.cl: the offset
// add 1, a-1 and a+1 2, the division 1, t*t 1, four polynomial FMAs 8, t*z 1,
// the closing FMA 2 and the two adds of hi and t 2.
constexpr uint64_t kFlopsPerElement = 18;

// The built program per (context, device), shared by every kernel instance of
// the process. Why this global state is safe (the ABI asks kernels to keep no
// hidden global mutable state): a built cl_program is immutable and OpenCL
// objects are thread-safe to share (clCreateKernel on one program from several
// threads is allowed; each instance makes its own cl_kernel, whose arguments
// are the only mutable part). The map itself is guarded by the mutex, held
// during the build so a program is built exactly once. Each entry keeps one
// reference to its program, and through it to its context, until the process
// ends: so a context's address cannot be reused by a new context while the
// entry exists, and a cached hit is always the right program. The cost is one
// context kept alive per context the process ever used (a handful at most).
class ProgramCache {
 public:
  // Returns the program (not retained: the cache owns it) or nullptr.
  cl_program get(cl_context context, cl_device_id device) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto key = std::make_pair(context, device);
    if (auto it = programs_.find(key); it != programs_.end()) return it->second;
    cl_program program = build(context, device);
    if (program != nullptr) programs_.emplace(key, program);
    return program;
  }

 private:
  static cl_program build(cl_context context, cl_device_id device) {
    const char* source = reinterpret_cast<const char*>(atan_opencl_source);
    const size_t length = atan_opencl_source_size;
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &source, &length, &err);
    if (err != CL_SUCCESS) return nullptr;
    std::string options = "-cl-std=CL1.2 -D OPRIG_ATAN_VEC=" + std::to_string(kVectorWidth);
    // An OpenCL device may divide with 2.5 ulp unless asked for correct rounding;
    // ask when the device can, so the reduction's error stays at 0.5 ulp.
    cl_device_fp_config fp = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, nullptr) == CL_SUCCESS &&
        (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0)
      options += " -cl-fp32-correctly-rounded-divide-sqrt";
    err = clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
      // The ABI has no message channel from create; the build log is the one
      // thing a kernel developer needs here, so it goes to stderr.
      size_t log_size = 0;
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size);
      std::string log(log_size, '\0');
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log_size, log.data(), nullptr);
      std::fprintf(stderr, "oprig opsuite: Atan OpenCL build failed (%d):\n%s\n", err, log.c_str());
      clReleaseProgram(program);
      return nullptr;
    }
    return program;
  }

  std::mutex mutex_;
  std::map<std::pair<cl_context, cl_device_id>, cl_program> programs_;
};

ProgramCache& program_cache() {
  static ProgramCache cache;  // never destroyed before the last kernel: see above
  return cache;
}

struct AtanKernel : KernelBase {
  cl_command_queue queue = nullptr;
  cl_kernel f32 = nullptr;
  cl_kernel f16 = nullptr;
  float offset = 0.0f;
  uint32_t dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  size_t count = 0;

  ~AtanKernel() {
    if (f32 != nullptr) clReleaseKernel(f32);
    if (f16 != nullptr) clReleaseKernel(f16);
  }
};

size_t element_size(uint32_t dtype) {
  return dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel);

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     oprig_tensor* outputs, size_t num_outputs) {
  if (handle == nullptr || inputs == nullptr || outputs == nullptr || num_inputs != 1 ||
      num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  AtanKernel* kernel = from_handle<AtanKernel>(handle);
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16)
    return OPRIG_STATUS_UNSUPPORTED;
  if (in.scale != 0.0f || out.scale != 0.0f) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in.rank > OPRIG_MAX_RANK) return OPRIG_STATUS_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < in.rank; ++i)
    if (in.dims[i] < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  out.rank = in.rank;
  for (uint32_t i = 0; i < OPRIG_MAX_RANK; ++i) out.dims[i] = i < in.rank ? in.dims[i] : 0;
  kernel->dtype = in.dtype;
  kernel->count = element_count(in);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  if (handle == nullptr || inputs == nullptr || outputs == nullptr || info == nullptr ||
      num_inputs != 1 || num_outputs != 1 ||
      info->struct_size < offsetof(oprig_execute_info, cl_last_event) + sizeof(void*))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  AtanKernel* kernel = from_handle<AtanKernel>(handle);
  if (kernel->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // no prepare
  if (kernel->count == 0) return OPRIG_STATUS_OK;  // nothing to enqueue, nothing to time

  const size_t bytes = kernel->count * element_size(kernel->dtype);
  const oprig_tensor& in = inputs[0];
  const oprig_tensor& out = outputs[0];
  if (in.data == nullptr || out.data == nullptr || in.bytes < bytes || out.bytes < bytes ||
      in.offset != 0 || out.offset != 0)
    return OPRIG_STATUS_INVALID_ARGUMENT;

  cl_kernel k = kernel->dtype == OPRIG_DTYPE_FLOAT_16 ? kernel->f16 : kernel->f32;
  cl_mem src = static_cast<cl_mem>(in.data);
  cl_mem dst = static_cast<cl_mem>(out.data);
  const cl_ulong n = kernel->count;
  cl_int err = clSetKernelArg(k, 0, sizeof src, &src);
  err |= clSetKernelArg(k, 1, sizeof dst, &dst);
  err |= clSetKernelArg(k, 2, sizeof kernel->offset, &kernel->offset);
  err |= clSetKernelArg(k, 3, sizeof n, &n);
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;

  const size_t global = (kernel->count + kVectorWidth - 1) / kVectorWidth;
  cl_event event = nullptr;
  err = clEnqueueNDRangeKernel(kernel->queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &event);
  if (err == CL_OUT_OF_HOST_MEMORY) return OPRIG_STATUS_OUT_OF_MEMORY;
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  // One launch is both the first and the last event; the host releases each
  // pointer once, so the second pointer carries its own reference.
  clRetainEvent(event);
  info->cl_first_event = event;
  info->cl_last_event = event;
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) {
  delete from_handle<AtanKernel>(handle);
}

oprig_status cost(const oprig_kernel* handle, oprig_cost* out_cost) {
  const AtanKernel* kernel = from_handle<AtanKernel>(handle);
  const uint64_t bytes = kernel->count * element_size(kernel->dtype);
  *out_cost = {kernel->count * kFlopsPerElement, bytes, bytes};
  return OPRIG_STATUS_OK;
}

}  // namespace

extern const KernelOps oprig_atan__opencl;
const KernelOps oprig_atan__opencl = {"Atan", create, prepare, execute, destroy, cost};

namespace {

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (num_params != 0 && params == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const double offset = scalar_param(params, num_params, "offset").value_or(0.0);

  cl_context context = static_cast<cl_context>(ctx->cl_context);
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  cl_program program = program_cache().get(context, device);
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;

  auto* kernel = new (std::nothrow) AtanKernel;
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_atan__opencl;
  kernel->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  kernel->offset = static_cast<float>(offset);
  cl_int err_f32 = CL_SUCCESS;
  cl_int err_f16 = CL_SUCCESS;
  kernel->f32 = clCreateKernel(program, "atan_f32", &err_f32);
  kernel->f16 = clCreateKernel(program, "atan_f16", &err_f16);
  if (err_f32 != CL_SUCCESS || err_f16 != CL_SUCCESS) {
    delete kernel;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

}  // namespace
}  // namespace oprig::opsuite
