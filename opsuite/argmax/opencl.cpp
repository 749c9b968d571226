// ArgMax on the opencl backend: host side of opencl.cl. prepare() plans
// the lines, teams and parts (argmax_plan.hpp) and reserves the parts'
// ranks; execute() enqueues the reduction (and, with parts, the merge)
// without waiting.
#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>

#include "argmax/argmax_plan.hpp"
#include "argmax_opencl_cl.h"
#include "common/kernel.hpp"
#include "common/opencl_program.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_argmax__opencl;

namespace {

constexpr size_t kGroup = 256;  // work-items per work-group, at most

struct ArgMaxOpenCL : KernelBase {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  cl_kernel by_type[3] = {};  // f32, f16, i32
  cl_kernel merge = nullptr;
  argmax::Params params;
  bool prepared = false;
  argmax::Shape shape;
  argmax::Launch launch, merge_launch;
  ClScratch partial;
  ~ArgMaxOpenCL() {
    for (cl_kernel kernel : by_type)
      if (kernel != nullptr) clReleaseKernel(kernel);
    if (merge != nullptr) clReleaseKernel(merge);
  }
  cl_kernel kernel_for(oprig_dtype dtype) const {
    return by_type[dtype == OPRIG_DTYPE_FLOAT_16 ? 1 : dtype == OPRIG_DTYPE_INT_32 ? 2 : 0];
  }
};

// The largest power of two up to kGroup that every kernel accepts.
uint32_t group_size(const ArgMaxOpenCL& k) {
  size_t size = kGroup;
  for (cl_kernel kernel : k.by_type) size = std::min(size, max_work_group_size(kernel, k.device));
  size = std::min(size, max_work_group_size(k.merge, k.device));
  return static_cast<uint32_t>(std::bit_floor(std::max<size_t>(size, 1)));
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_context context = static_cast<cl_context>(ctx->cl_context);
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  cl_program program =
      cached_program(context, device, argmax_opencl_source, argmax_opencl_source_size, "-cl-std=CL1.2", "ArgMax");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) ArgMaxOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_argmax__opencl;
  k->context = context;
  k->device = device;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->params = argmax::read_params(params, num_params);
  const char* names[3] = {"argmax_f32", "argmax_f16", "argmax_i32"};
  cl_int err = CL_SUCCESS;
  for (int t = 0; t < 3 && err == CL_SUCCESS; ++t) k->by_type[t] = clCreateKernel(program, names[t], &err);
  if (err == CL_SUCCESS) k->merge = clCreateKernel(program, "argmax_merge", &err);
  if (err != CL_SUCCESS) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ArgMaxOpenCL>(handle);
  k->prepared = false;
  const oprig_status st = argmax::plan_shape(k->params, inputs, num_inputs, outputs, num_outputs, &k->shape);
  if (st != OPRIG_STATUS_OK) return st;
  const uint32_t group = group_size(*k);
  k->launch = argmax::plan_launch(k->shape, group, group);
  if (k->launch.parts > 1) {
    k->merge_launch = argmax::plan_merge(k->shape, group, group, k->launch.parts);
    const oprig_status reserved = k->partial.reserve(k->context, k->shape.lines() * k->launch.parts * 8);
    if (reserved != OPRIG_STATUS_OK) return reserved;
  }
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<ArgMaxOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const argmax::Shape& s = k->shape;
  if (s.lines() == 0) return OPRIG_STATUS_OK;  // an empty output
  const cl_mem x = static_cast<cl_mem>(inputs[0].data), y = static_cast<cl_mem>(outputs[0].data);
  if (x == nullptr || y == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const argmax::Launch& l = k->launch;
  const cl_mem partial = l.parts > 1 ? k->partial.get() : y;  // y stands in (never written as ranks)
  const cl_uint last = k->params.last ? 1 : 0;
  cl_kernel kernel = k->kernel_for(s.dtype);
  if (!set_kernel_args(kernel, x, y, partial, cl_ulong{s.lines()}, static_cast<cl_uint>(s.n), cl_ulong{s.inner},
                       cl_uint{l.team_log2}, cl_uint{l.lane_fast ? 1u : 0u}, cl_uint{l.part_len}, last) ||
      !set_local_arg(kernel, 10, size_t{l.group} * sizeof(cl_int)))
    return OPRIG_STATUS_BACKEND_ERROR;
  ClEnqueue enqueue(k->queue);
  const size_t global[2] = {l.line_groups * l.group, l.parts}, local[2] = {l.group, 1};
  oprig_status st = enqueue.kernel(kernel, 2, global, local);
  if (st == OPRIG_STATUS_OK && l.parts > 1) {
    const argmax::Launch& m = k->merge_launch;
    if (!set_kernel_args(k->merge, partial, y, cl_ulong{s.lines()}, cl_uint{l.parts}, cl_uint{m.team_log2}, last) ||
        !set_local_arg(k->merge, 6, size_t{m.group} * sizeof(cl_int)))
      return OPRIG_STATUS_BACKEND_ERROR;
    const size_t merge_global = m.line_groups * m.group, merge_local = m.group;
    st = enqueue.kernel(k->merge, 1, &merge_global, &merge_local);
  }
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ArgMaxOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = argmax::cost(from_handle<const ArgMaxOpenCL>(handle)->shape);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_argmax__opencl = {"ArgMax", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
