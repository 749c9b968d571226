// DepthwiseConv2D on the opencl backend: host side of opencl.cl. prepare()
// checks the shapes (depthwise_geometry.hpp), plans the grid
// (device_grid.hpp) and takes the program for the data type and the
// channels per work-item from the process-wide cache; execute() enqueues one
// NDRange without waiting.
#include <CL/cl.h>

#include <climits>
#include <new>
#include <string>

#include "common/conv_operands.hpp"
#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "depthwise_conv2d/device_grid.hpp"
#include "depthwise_conv2d_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_depthwise_conv2d__opencl;

namespace {

struct DepthwiseOpenCL : KernelBase {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  cl_kernel kernel = nullptr;  // of `options`, made when they change
  std::string options;
  depthwise::Params params;
  depthwise::Geometry g;  // from the last successful prepare
  depthwise::DeviceGrid grid;
  bool prepared = false;
  ~DepthwiseOpenCL() {
    if (kernel != nullptr) clReleaseKernel(kernel);
  }
};

oprig_status make_kernel(DepthwiseOpenCL* k, const std::string& options) {
  if (k->kernel != nullptr && options == k->options) return OPRIG_STATUS_OK;
  if (k->kernel != nullptr) clReleaseKernel(k->kernel);
  k->kernel = nullptr;
  cl_program program = cached_program(k->context, k->device, depthwise_conv2d_opencl_source,
                                      depthwise_conv2d_opencl_source_size, options, "DepthwiseConv2D");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  cl_int err = CL_SUCCESS;
  k->kernel = clCreateKernel(program, "depthwise_nhwc", &err);
  if (err != CL_SUCCESS) {
    k->kernel = nullptr;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  k->options = options;
  return OPRIG_STATUS_OK;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) DepthwiseOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_depthwise_conv2d__opencl;
  k->context = static_cast<cl_context>(ctx->cl_context);
  k->device = static_cast<cl_device_id>(ctx->cl_device);
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  if (!depthwise::read_params(params, num_params, &k->params)) {
    delete k;
    return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<DepthwiseOpenCL>(handle);
  k->prepared = false;
  const oprig_status st = depthwise::plan(k->params, inputs, num_inputs, outputs, num_outputs, &k->g);
  if (st != OPRIG_STATUS_OK) return st;
  const depthwise::Geometry& g = k->g;
  for (int64_t count : {static_cast<int64_t>(element_count(inputs[0])), static_cast<int64_t>(element_count(inputs[1])),
                        g.output_elements()})
    if (count > INT_MAX) return OPRIG_STATUS_UNSUPPORTED;  // the kernel indexes with int
  const bool half = g.dtype == OPRIG_DTYPE_FLOAT_16;
  const std::string options = "-cl-std=CL1.2 -D DW_VEC=" + std::to_string(depthwise::channels_per_item(g, false)) +
                              (half ? " -D OPRIG_STORAGE_F16=1" : "");
  const oprig_status made = make_kernel(k, options);
  if (made != OPRIG_STATUS_OK) return made;
  k->grid = depthwise::plan_device_grid(g, false, static_cast<int64_t>(max_work_group_size(k->kernel, k->device)));
  if (k->grid.columns > INT_MAX) return OPRIG_STATUS_UNSUPPORTED;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<DepthwiseOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const depthwise::Geometry& g = k->g;
  if (g.output_elements() == 0) return OPRIG_STATUS_OK;
  oprig_tensor bound[4];
  if (!bound_operands(inputs, num_inputs, outputs, g.has_bias, bound)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const cl_mem x = static_cast<cl_mem>(bound[0].data), w = static_cast<cl_mem>(bound[1].data);
  const cl_mem bias = static_cast<cl_mem>(bound[2].data), y = static_cast<cl_mem>(bound[3].data);
  cl_kernel kernel = k->kernel;
  auto i32 = [](int64_t v) { return static_cast<cl_int>(v); };
  const depthwise::Params& p = k->params;
  const depthwise::DeviceGrid& d = k->grid;
  if (!set_kernel_args(kernel, x, w, bias, y, i32(g.has_bias), i32(g.height), i32(g.width), i32(g.channels),
                       i32(g.multiplier()), i32(g.out_h), i32(g.out_w), i32(g.kh), i32(g.kw), i32(p.stride[0]),
                       i32(p.stride[1]), i32(p.dilation[0]), i32(p.dilation[1]), i32(p.pads[0]), i32(p.pads[2]),
                       i32(d.columns)))
    return OPRIG_STATUS_BACKEND_ERROR;
  auto round_up = [](int64_t n, int64_t m) { return static_cast<size_t>((n + m - 1) / m * m); };
  const size_t local[3] = {static_cast<size_t>(d.local_x), static_cast<size_t>(d.local_y), 1};
  const size_t global[3] = {round_up(d.vectors, d.local_x), round_up(d.columns, d.local_y),
                            static_cast<size_t>(g.batch)};
  ClEnqueue enqueue(k->queue);
  const oprig_status st = enqueue.kernel(kernel, 3, global, local);
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<DepthwiseOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = depthwise::cost_of(from_handle<const DepthwiseOpenCL>(handle)->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_depthwise_conv2d__opencl = {"DepthwiseConv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
