// Pool2D on the opencl backend: host side of opencl.cl. create() takes the
// shared program (built with fp64 and correctly rounded division where the
// device has them); prepare() plans the output (pool2d/pooling.hpp), picks
// the kernel for the type, the reduction and the channel vector width, and
// refuses what the device cannot compute as the cpu does (UINT_8 with
// another output quantisation needs fp64) or what does not fit 32-bit
// offsets; execute() sets the arguments and enqueues one NDRange without
// waiting.
#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>
#include <string>

#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "pool2d/pooling.hpp"
#include "pool2d_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_pool2d__opencl;

namespace {

struct Pool2DOpenCL : KernelBase, pool2d::Pooling, pool2d::Geometry {
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;  // owned by the program cache
  bool fp64 = false;
  cl_kernel kernel = nullptr;  // the one prepare chose
  uint32_t lanes = 1;
  bool prepared = false;
  ~Pool2DOpenCL() {
    if (kernel != nullptr) clReleaseKernel(kernel);
  }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<pool2d::Pooling> pooling = pool2d::read_pooling(params, num_params);
  if (!pooling) return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  const bool fp64 = device_has_fp64(device);
  std::string options = "-cl-std=CL1.2";
  if (fp64) options += " -D OPRIG_FP64=1";
  if (device_divides_correctly(device)) options += " -cl-fp32-correctly-rounded-divide-sqrt";
  cl_program program = cached_program(static_cast<cl_context>(ctx->cl_context), device, pool2d_opencl_source,
                                      pool2d_opencl_source_size, options, "Pool2D");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) Pool2DOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_pool2d__opencl;
  static_cast<pool2d::Pooling&>(*k) = *pooling;
  k->device = device;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->program = program;
  k->fp64 = fp64;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

// The widest vector of at most 16 bytes whose lanes divide the channels
// (opencl.cl has a kernel for each).
uint32_t lanes_for(const pool2d::Geometry& g) {
  uint32_t lanes = 16 / static_cast<uint32_t>(g.element_bytes());
  while (lanes > 1 && g.channels % lanes != 0) lanes /= 2;
  return lanes;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<Pool2DOpenCL>(handle);
  k->prepared = false;
  const oprig_status st = pool2d::plan_geometry(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  if (k->dtype == OPRIG_DTYPE_UINT_8 && !k->same_quantization() && !k->fp64) return OPRIG_STATUS_UNSUPPORTED;
  if (k->input_elements() > INT32_MAX || k->output_elements() > INT32_MAX) return OPRIG_STATUS_UNSUPPORTED;
  k->lanes = lanes_for(*k);
  const char* type = k->dtype == OPRIG_DTYPE_FLOAT_32 ? "f32" : k->dtype == OPRIG_DTYPE_FLOAT_16 ? "f16" : "u8";
  const std::string name = std::string(k->kind == pool2d::Kind::kMax ? "pool_max_" : "pool_avg_") + type + "_" +
                           std::to_string(k->lanes);
  if (k->kernel != nullptr) clReleaseKernel(k->kernel);
  cl_int err = CL_SUCCESS;
  k->kernel = clCreateKernel(k->program, name.c_str(), &err);
  if (err != CL_SUCCESS) {
    k->kernel = nullptr;
    return OPRIG_STATUS_BACKEND_ERROR;
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
  auto* k = from_handle<Pool2DOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto groups = static_cast<uint64_t>(k->channels) / k->lanes;
  const uint64_t row_items = static_cast<uint64_t>(k->out_width) * groups;
  if (row_items == 0 || k->out_height == 0 || k->batches == 0) return OPRIG_STATUS_OK;
  const cl_mem x = static_cast<cl_mem>(inputs[0].data), y = static_cast<cl_mem>(outputs[0].data);
  if (x == nullptr || y == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_int16 g{};
  const int64_t values[16] = {k->height,   k->width,    k->channels, k->out_height, k->out_width,
                              k->kernel_h, k->kernel_w, k->stride_h, k->stride_w,   k->pad_top,
                              k->pad_left, k->count_include_pad,     k->in_zero,    k->out_zero,
                              k->same_quantization(),   static_cast<int64_t>(groups)};
  for (int i = 0; i < 16; ++i) g.s[i] = static_cast<cl_int>(values[i]);
  const cl_float2 scales{{static_cast<cl_float>(k->in_scale), static_cast<cl_float>(k->out_scale)}};
  const cl_int2 row{{static_cast<cl_int>(row_items), std::has_single_bit(groups) ? std::countr_zero(groups) : -1}};
  if (!set_kernel_args(k->kernel, x, y, g, scales, row)) return OPRIG_STATUS_BACKEND_ERROR;
  // (work-items of an output row, output rows, images): the row and the
  // image come without a division.
  const size_t local[3] = {std::min<size_t>({256, max_work_group_size(k->kernel, k->device), std::bit_ceil(row_items)}),
                           1, 1};
  const size_t global[3] = {(row_items + local[0] - 1) / local[0] * local[0], static_cast<size_t>(k->out_height),
                            static_cast<size_t>(k->batches)};
  ClEnqueue enqueue(k->queue);
  const oprig_status st = enqueue.kernel(k->kernel, 3, global, local);
  if (st == OPRIG_STATUS_OK) enqueue.finish(info);
  return st;
}

void destroy(oprig_kernel* handle) { delete from_handle<Pool2DOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const Pool2DOpenCL>(handle);
  *out = pool2d::pooling_cost(*k, *k);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_pool2d__opencl = {"Pool2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
