// Conv2D on the opencl backend: host side of opencl.cl (NCHW, the spec's GPU
// layout). prepare() checks the shapes (conv_geometry.hpp), chooses the tile
// by the kind of device and the shape (a wide one for large outputs, a
// narrow one for groups of at most 16 output channels, on a GPU a smaller one
// when the wide tiles would not give every compute unit two work-groups, and
// the smallest where the device allows no larger work-group) and takes the
// program built for that tile and data type from the process-wide cache;
// execute() enqueues one NDRange without waiting.
#include <CL/cl.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "common/conv_operands.hpp"
#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "conv2d/conv_geometry.hpp"
#include "conv2d_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_conv2d__opencl;

namespace {

// One tile shape of opencl.cl: the work-group is (tile_p / work_p) x (tile_c / work_c).
struct Tile {
  int tile_p, tile_c, tile_k, work_p, work_c;
  size_t local_x() const { return static_cast<size_t>(tile_p / work_p); }
  size_t local_y() const { return static_cast<size_t>(tile_c / work_c); }
};

// GPUs: many work-items with 8 to 32 sums each (float4 loads from local memory).
constexpr Tile kWide{64, 64, 16, 4, 8};     // 128 work-items, 32 sums each
constexpr Tile kSmall{32, 32, 16, 2, 4};    // the same work-items over a quarter of the tile
constexpr Tile kNarrow{64, 16, 16, 4, 2};   // groups of few output channels
constexpr Tile kMinimal{16, 16, 16, 2, 2};  // 64 work-items, for devices that allow no more
// CPU devices (PoCL): 16 work-items, each 16 (or 4) vectors of 16 pixels, one
// AVX-512 register each; PoCL runs a work-item's vector code as written
// (it vectorises across work-items only where no loop is inside one).
// Measured on PoCL here, in CPU time at 1x64x56x56 -> 64: 11.4 ms against
// 13.9 ms for kWide and 47 ms for CLBlast's convgemm.
constexpr Tile kCpuWide{64, 64, 16, 16, 16};
constexpr Tile kCpuNarrow{64, 16, 16, 16, 4};

struct Conv2DOpenCL : KernelBase {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  size_t compute_units = 1;
  bool cpu_device = false;
  conv2d::Params params;
  conv2d::Geometry g;  // from the last successful prepare
  bool prepared = false;
  Tile tile = kWide;
  cl_kernel kernel = nullptr;                // the chosen one, owned by `kernels`
  std::map<std::string, cl_kernel> kernels;  // by build options: re-prepares reuse them
  ~Conv2DOpenCL() {
    for (const auto& [options, k] : kernels) clReleaseKernel(k);
  }
};

std::string build_options(const Tile& t, bool half) {
  std::string o = "-cl-std=CL1.2 -D TILE_P=" + std::to_string(t.tile_p) + " -D TILE_C=" + std::to_string(t.tile_c) +
                  " -D TILE_K=" + std::to_string(t.tile_k) + " -D WORK_P=" + std::to_string(t.work_p) +
                  " -D WORK_C=" + std::to_string(t.work_c);
  return half ? o + " -D OPRIG_STORAGE_F16=1" : o;
}

// The instance's kernel for tile `t` and the data type, or nullptr when the
// program does not build or the device cannot run that work-group.
cl_kernel kernel_for(Conv2DOpenCL& k, const Tile& t, bool half) {
  const std::string options = build_options(t, half);
  auto it = k.kernels.find(options);
  if (it == k.kernels.end()) {
    cl_program program =
        cached_program(k.context, k.device, conv2d_opencl_source, conv2d_opencl_source_size, options, "Conv2D");
    if (program == nullptr) return nullptr;
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "conv2d_nchw", &err);
    if (err != CL_SUCCESS) return nullptr;
    it = k.kernels.emplace(options, kernel).first;
  }
  return max_work_group_size(it->second, k.device) >= t.local_x() * t.local_y() ? it->second : nullptr;
}

size_t work_groups(const conv2d::Geometry& g, int64_t group, const Tile& t) {
  return static_cast<size_t>((g.pixels() + t.tile_p - 1) / t.tile_p * ((g.group_out + t.tile_c - 1) / t.tile_c) * group);
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) Conv2DOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_conv2d__opencl;
  k->context = static_cast<cl_context>(ctx->cl_context);
  k->device = static_cast<cl_device_id>(ctx->cl_device);
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  cl_uint units = 1;
  if (clGetDeviceInfo(k->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr) == CL_SUCCESS && units > 0)
    k->compute_units = units;
  cl_device_type type = CL_DEVICE_TYPE_GPU;
  if (clGetDeviceInfo(k->device, CL_DEVICE_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS)
    k->cpu_device = (type & CL_DEVICE_TYPE_CPU) != 0;
  // OPRIG_CONV2D_TILES=gpu or cpu takes that tile set whatever the device is
  // (gpu_test.cpp runs the GPU tiles on PoCL).
  if (const char* forced = std::getenv("OPRIG_CONV2D_TILES"); forced != nullptr) {
    if (std::string_view(forced) == "gpu") k->cpu_device = false;
    if (std::string_view(forced) == "cpu") k->cpu_device = true;
  }
  if (!conv2d::read_params(params, num_params, &k->params)) {
    delete k;
    return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<Conv2DOpenCL>(handle);
  k->prepared = false;
  const oprig_status st =
      conv2d::plan(k->params, conv2d::Layout::kNCHW, inputs, num_inputs, outputs, num_outputs, &k->g);
  if (st != OPRIG_STATUS_OK) return st;
  const conv2d::Geometry& g = k->g;
  // The kernel indexes with int.
  for (int64_t count : {static_cast<int64_t>(element_count(inputs[0])), static_cast<int64_t>(element_count(inputs[1])),
                        g.output_elements(), g.depth() + 16})
    if (count > INT_MAX) return OPRIG_STATUS_UNSUPPORTED;
  const bool half = g.dtype == OPRIG_DTYPE_FLOAT_16;
  std::vector<Tile> order;
  if (k->cpu_device) order = {g.group_out <= kCpuNarrow.tile_c ? kCpuNarrow : kCpuWide, kMinimal};
  else if (g.group_out <= kNarrow.tile_c) order = {kNarrow, kMinimal};
  else if (work_groups(g, k->params.group, kWide) >= 2 * k->compute_units) order = {kWide, kSmall, kMinimal};
  else order = {kSmall, kMinimal};
  k->kernel = nullptr;
  for (const Tile& t : order) {
    k->kernel = kernel_for(*k, t, half);
    if (k->kernel != nullptr) {
      k->tile = t;
      break;
    }
  }
  if (k->kernel == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<Conv2DOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const conv2d::Geometry& g = k->g;
  if (g.output_elements() == 0) return OPRIG_STATUS_OK;
  oprig_tensor bound[4];
  if (!bound_operands(inputs, num_inputs, outputs, g.has_bias, bound)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const cl_mem x = static_cast<cl_mem>(bound[0].data), w = static_cast<cl_mem>(bound[1].data);
  const cl_mem bias = static_cast<cl_mem>(bound[2].data), y = static_cast<cl_mem>(bound[3].data);
  auto i32 = [](int64_t v) { return static_cast<cl_int>(v); };
  const conv2d::Params& p = k->params;
  if (!set_kernel_args(k->kernel, x, w, bias, y, i32(g.has_bias), i32(g.pixels()), i32(g.out_h * g.out_w),
                       i32(g.out_w), i32(g.height), i32(g.width), i32(g.c_in), i32(g.group_in), i32(g.c_out),
                       i32(g.group_out), i32(g.kw), i32(g.depth()), i32(p.stride[0]), i32(p.stride[1]),
                       i32(p.dilation[0]), i32(p.dilation[1]), i32(g.pad_top), i32(g.pad_left)))
    return OPRIG_STATUS_BACKEND_ERROR;
  const Tile& t = k->tile;
  const size_t local[3] = {t.local_x(), t.local_y(), 1};
  const size_t global[3] = {static_cast<size_t>((g.pixels() + t.tile_p - 1) / t.tile_p) * local[0],
                            static_cast<size_t>((g.group_out + t.tile_c - 1) / t.tile_c) * local[1],
                            static_cast<size_t>(p.group)};
  ClEnqueue enqueue(k->queue);
  const oprig_status st = enqueue.kernel(k->kernel, 3, global, local);
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<Conv2DOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = conv2d::cost_of(from_handle<const Conv2DOpenCL>(handle)->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_conv2d__opencl = {"Conv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
