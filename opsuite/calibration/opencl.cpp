// org.oprig.calibration on the opencl backend: liboprig_calibration_opencl.so.
// Each kernel instance builds its own program from the embedded opencl.cl
// (calibration runs a handful of instances, so no cache is worth its global
// state). execute() enqueues one NDRange and hands the event to the host,
// which waits and takes device time from its profiling info, as for any op.
#include <CL/cl.h>

#include <algorithm>
#include <new>
#include <string>

#include "calibration_kernel.hpp"
#include "calibration_opencl_cl.h"

struct oprig_kernel {
  oprig::calibration::Op op = oprig::calibration::Op::kCopy;
  oprig::calibration::Params params;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  uint32_t fma_vec = 1;
  size_t fma_items = 1;
  size_t fma_local = 1;
  bool strided = false;         // Copy and Triad in their GPU form (opencl.cl)
  size_t stream_max_items = 0;  // its launch, at most
  size_t stream_local = 1;      // and its work-groups
  uint64_t count = 0;
  ~oprig_kernel() {
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
  }
};

namespace oprig::calibration {
namespace {

// Work-items for FmaPeak: on a CPU device one work-group of one item per
// hardware thread, 4 times over (so a slow thread does not idle the rest); on
// a GPU 2048 items per compute unit, enough resident warps to hide latency.
void size_fma(cl_device_id device, oprig_kernel* k) {
  cl_uint units = 1, width = 1;
  cl_device_type type = CL_DEVICE_TYPE_DEFAULT;
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
  clGetDeviceInfo(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof width, &width, nullptr);
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  k->fma_vec = (width == 1 || width == 2 || width == 4 || width == 8 || width == 16) ? width : 1;
  if (type & CL_DEVICE_TYPE_CPU) {
    k->fma_items = 4 * units;
    k->fma_local = 1;
  } else {
    k->fma_items = 2048 * static_cast<size_t>(units);
    k->fma_local = 256;
  }
}

// Copy and Triad on a GPU: the float4 grid-stride form, at most 8 waves of
// 2048 work-items per compute unit (what NVIDIA's SMs since Volta and AMD's
// CUs keep resident), fewer for a small tensor. A CPU device keeps one
// work-item per 16 floats.
constexpr size_t kStreamLocal = 256;  // or the kernel's largest, if smaller
constexpr uint64_t kVectorsPerItem = 4;  // the strided kernels' step

void size_streaming(cl_device_id device, oprig_kernel* k) {
  cl_uint units = 1;
  cl_device_type type = CL_DEVICE_TYPE_DEFAULT;
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  k->strided = (type & CL_DEVICE_TYPE_CPU) == 0;
  k->stream_max_items = 8 * 2048 * static_cast<size_t>(std::max<cl_uint>(units, 1));
}

size_t max_work_group_size(cl_kernel kernel, cl_device_id device) {
  size_t size = 1;
  if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size, &size, nullptr) != CL_SUCCESS)
    return 1;
  return size;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_OPENCL || ctx->cl_context == nullptr || ctx->cl_device == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  Op op;
  if (!op_from_name(op_name, &op)) return OPRIG_STATUS_UNSUPPORTED;
  auto* k = new (std::nothrow) oprig_kernel;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->op = op;
  if (!read_params(op, params, num_params, &k->params)) {
    delete k;
    return OPRIG_STATUS_UNSUPPORTED;
  }
  cl_context context = static_cast<cl_context>(ctx->cl_context);
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  size_fma(device, k);
  size_streaming(device, k);
  const char* source = reinterpret_cast<const char*>(calibration_opencl_source);
  const size_t length = calibration_opencl_source_size;
  cl_int err = CL_SUCCESS;
  k->program = clCreateProgramWithSource(context, 1, &source, &length, &err);
  const std::string options = "-cl-std=CL1.2 -D FMA_VEC=" + std::to_string(k->fma_vec);
  if (err == CL_SUCCESS) err = clBuildProgram(k->program, 1, &device, options.c_str(), nullptr, nullptr);
  const char* name = op == Op::kFmaPeak ? "calibration_fma"
                     : op == Op::kCopy    ? (k->strided ? "calibration_copy_strided" : "calibration_copy")
                                          : (k->strided ? "calibration_triad_strided" : "calibration_triad");
  if (err == CL_SUCCESS) k->kernel = clCreateKernel(k->program, name, &err);
  if (err == CL_SUCCESS && k->strided) {
    // A power of two, so that it divides the launch (a multiple of 2048).
    k->stream_local = kStreamLocal;
    while (k->stream_local > 1 && k->stream_local > max_work_group_size(k->kernel, device)) k->stream_local /= 2;
  }
  if (err != CL_SUCCESS) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = k;
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->op == Op::kFmaPeak) return prepare_fma(inputs, num_inputs, outputs, num_outputs, k->fma_items);
  return prepare_streaming(k->op, inputs, num_inputs, outputs, num_outputs, &k->count);
}

oprig_status execute(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (k == nullptr || inputs == nullptr || outputs == nullptr || info == nullptr || num_outputs != 1 ||
      num_inputs != inputs_of(k->op))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = info->cl_last_event = nullptr;
  cl_int err = CL_SUCCESS;
  cl_uint arg = 0;
  for (size_t i = 0; i < num_inputs; ++i) {
    cl_mem m = static_cast<cl_mem>(inputs[i].data);
    err |= clSetKernelArg(k->kernel, arg++, sizeof m, &m);
  }
  cl_mem dst = static_cast<cl_mem>(outputs[0].data);
  err |= clSetKernelArg(k->kernel, arg++, sizeof dst, &dst);
  size_t global = 0;
  const size_t* local = nullptr;
  if (k->op == Op::kTriad) err |= clSetKernelArg(k->kernel, arg++, sizeof(float), &k->params.scalar);
  if (k->op == Op::kFmaPeak) {
    const cl_uint iterations = k->params.iterations;
    err |= clSetKernelArg(k->kernel, arg++, sizeof iterations, &iterations);
    global = k->fma_items;
    local = &k->fma_local;
  } else if (k->strided) {
    const cl_ulong vectors = k->count / 4;
    err |= clSetKernelArg(k->kernel, arg++, sizeof vectors, &vectors);
    const uint64_t per_group = kVectorsPerItem * k->stream_local;
    global = std::min<size_t>(static_cast<size_t>((vectors + per_group - 1) / per_group) * k->stream_local,
                              k->stream_max_items);
    local = &k->stream_local;
    if (global == 0) return OPRIG_STATUS_OK;
  } else {
    global = k->count / 16;
    if (global == 0) return OPRIG_STATUS_OK;
  }
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  cl_event event = nullptr;
  err = clEnqueueNDRangeKernel(k->queue, k->kernel, 1, nullptr, &global, local, 0, nullptr, &event);
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  clRetainEvent(event);  // one reference per pointer handed back
  info->cl_first_event = event;
  info->cl_last_event = event;
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* k) { delete k; }

oprig_status cost(const oprig_kernel* k, oprig_cost* out) {
  if (out == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out = oprig_cost{};
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->op == Op::kFmaPeak)
    *out = {static_cast<uint64_t>(k->fma_items) * k->params.iterations * 8u * k->fma_vec * 2u, 8,
            static_cast<uint64_t>(k->fma_items) * 4};
  else
    *out = streaming_cost(k->op, k->count);
  return OPRIG_STATUS_OK;
}

const oprig_implementation_v1 kOpenCL = {OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_OPENCL,
                                         create, prepare, execute, destroy, cost, nullptr, {}};

}  // namespace
}  // namespace oprig::calibration

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (backend_kind != OPRIG_BACKEND_OPENCL || max_version < OPRIG_ABI_VERSION) return nullptr;
  return &oprig::calibration::kOpenCL;
}
