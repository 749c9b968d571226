// Pool2D on the opencl backend: host side of opencl.cl. create() takes the
// shared program (built with fp64 and correctly rounded division where the
// device has them); prepare() plans the output (pool2d/pooling.hpp), picks
// the kernel for the type, the reduction and the widest channel vector, and
// refuses what the device cannot compute as the cpu does (UINT_8 with
// another output quantisation needs fp64) or what does not fit 32-bit
// offsets; execute() enqueues one NDRange over the pixel grid without
// waiting (common/opencl_pixel_grid.hpp).
#include <CL/cl.h>

#include <cstdint>
#include <new>
#include <string>

#include "common/kernel.hpp"
#include "common/opencl_pixel_grid.hpp"
#include "common/opencl_program.hpp"
#include "common/pixel_grid.hpp"
#include "pool2d/pooling.hpp"
#include "pool2d_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_pool2d__opencl;

namespace {

struct Pool2DOpenCL : KernelBase, pool2d::Pooling, pool2d::Geometry {
  ClPixelKernel device;
  bool fp64 = false;
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
  k->device.from_context(*ctx, program);
  k->fp64 = fp64;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<Pool2DOpenCL>(handle);
  k->device.forget();
  const oprig_status st = pool2d::plan_geometry(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  if (k->needs_fp64() && !k->fp64) return OPRIG_STATUS_UNSUPPORTED;
  if (k->input_elements() > INT32_MAX || k->output_elements() > INT32_MAX) return OPRIG_STATUS_UNSUPPORTED;
  const uint64_t pixel_bytes = static_cast<uint64_t>(k->channels) * k->element_bytes();
  const uint64_t run_bytes = widest_run(pixel_bytes, k->element_bytes());  // opencl.cl has a kernel for each
  const char* type = k->dtype == OPRIG_DTYPE_FLOAT_32 ? "f32" : k->dtype == OPRIG_DTYPE_FLOAT_16 ? "f16" : "u8";
  return k->device.choose(std::string(k->kind == pool2d::Kind::kMax ? "pool_max_" : "pool_avg_") + type + "_" +
                              std::to_string(run_bytes / k->element_bytes()),
                          pixel_grid(pixel_bytes, run_bytes, k->out_height, k->out_width, k->batches));
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<Pool2DOpenCL>(handle);
  cl_int16 g{};
  const int64_t values[16] = {k->height,   k->width,    k->channels, k->out_height, k->out_width,
                              k->kernel_h, k->kernel_w, k->stride_h, k->stride_w,   k->pad_top,
                              k->pad_left, k->count_include_pad,     k->in_zero,    k->out_zero,
                              k->same_quantization(),   0};
  for (int i = 0; i < 16; ++i) g.s[i] = static_cast<cl_int>(values[i]);
  const cl_float2 scales{{static_cast<cl_float>(k->in_scale), static_cast<cl_float>(k->out_scale)}};
  return k->device.launch(inputs, num_inputs, outputs, num_outputs, info, g, scales);
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
