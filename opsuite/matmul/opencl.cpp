// MatMul on the opencl backend: host side of opencl.cl and the shared tiled
// GEMM (common/opencl/gemm.cl). prepare() chooses the tile for the device
// and the product (common/gemm_tiles.hpp) and takes the program built for
// that tile, element type and transpose pair from the process-wide cache
// (one build each per process); execute() enqueues one NDRange: tiles of N
// along x, of M along y, the output matrices along z.
#include <CL/cl.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>

#include "common/gemm_tiles.hpp"
#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "matmul/product.hpp"
#include "matmul_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_matmul__opencl;

namespace {

struct MatMulOpenCL : KernelBase {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  GemmDevice limits;
  bool transpose_a = false, transpose_b = false;
  // From prepare().
  bool prepared = false;
  matmul::Product product;
  GemmTiles tiles{};
  std::string options;  // the program of `kernel`
  cl_kernel kernel = nullptr;
  ~MatMulOpenCL() {
    if (kernel != nullptr) clReleaseKernel(kernel);
  }
};

template <class T>
T device_info(cl_device_id device, cl_device_info what) {
  T value{};
  clGetDeviceInfo(device, what, sizeof value, &value, nullptr);
  return value;
}

GemmDevice limits_of(cl_device_id device) {
  GemmDevice d;
  d.cpu = (device_info<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
  size_t item_sizes[3] = {1, 1, 1};
  clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof item_sizes, item_sizes, nullptr);
  // The tiles are square in work-items: the smaller of x and y bounds both.
  const uint64_t side = std::min(item_sizes[0], item_sizes[1]);
  d.max_threads = std::min<uint64_t>(device_info<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE), side * side);
  d.max_local_bytes = device_info<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  d.compute_units = std::max<cl_uint>(1, device_info<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS));
  return d;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) MatMulOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_matmul__opencl;
  k->context = static_cast<cl_context>(ctx->cl_context);
  k->device = static_cast<cl_device_id>(ctx->cl_device);
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->limits = limits_of(k->device);
  k->transpose_a = scalar_param(params, num_params, "transpose_a").value_or(0.0) != 0.0;  // spec default 0
  k->transpose_b = scalar_param(params, num_params, "transpose_b").value_or(0.0) != 0.0;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

// Makes k->kernel the tiled kernel for k->tiles; a kernel the device can
// run with fewer work-items than the tile needs (registers) makes the
// caller choose again with that bound.
oprig_status make_kernel(MatMulOpenCL* k, uint64_t* kernel_threads) {
  const std::string options = "-cl-std=CL1.2" + gemm_build_options(k->tiles, k->transpose_a, k->transpose_b,
                                                                    k->product.dtype == OPRIG_DTYPE_FLOAT_16);
  *kernel_threads = k->tiles.threads();
  if (k->kernel != nullptr && options == k->options) return OPRIG_STATUS_OK;
  if (k->kernel != nullptr) clReleaseKernel(k->kernel);
  k->kernel = nullptr;
  cl_program program =
      cached_program(k->context, k->device, matmul_opencl_source, matmul_opencl_source_size, options, "MatMul");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  cl_int err = CL_SUCCESS;
  k->kernel = clCreateKernel(program, "matmul", &err);
  if (err != CL_SUCCESS) {
    k->kernel = nullptr;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  k->options = options;
  *kernel_threads = max_work_group_size(k->kernel, k->device);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<MatMulOpenCL>(handle);
  k->prepared = false;
  const oprig_status planned =
      matmul::plan_product(inputs, num_inputs, outputs, num_outputs, k->transpose_a, k->transpose_b, &k->product);
  if (planned != OPRIG_STATUS_OK) return planned;
  const matmul::Product& s = k->product;
  // Indices within one matrix, and the batch arithmetic, are 32-bit in the kernel.
  if (s.m * s.k > UINT32_MAX || s.k * s.n > UINT32_MAX || s.m * s.n > UINT32_MAX || s.batches > UINT32_MAX)
    return OPRIG_STATUS_UNSUPPORTED;
  GemmDevice limits = k->limits;
  for (;;) {
    k->tiles = choose_gemm_tiles(limits, s.m, s.n, s.batches);
    if (k->tiles.mwg == 0) return OPRIG_STATUS_UNSUPPORTED;
    uint64_t kernel_threads = 0;
    const oprig_status st = make_kernel(k, &kernel_threads);
    if (st != OPRIG_STATUS_OK) return st;
    if (kernel_threads >= k->tiles.threads()) break;
    limits.max_threads = kernel_threads;
  }
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<MatMulOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const matmul::Product& s = k->product;
  if (s.m == 0 || s.n == 0 || s.batches == 0) return OPRIG_STATUS_OK;
  const cl_mem y = static_cast<cl_mem>(outputs[0].data);
  if (y == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (s.k != 0 && (inputs[0].data == nullptr || inputs[1].data == nullptr)) return OPRIG_STATUS_INVALID_ARGUMENT;
  // With K = 0 the inputs are empty and may have no buffer; y stands in (never read).
  const cl_mem a = inputs[0].data != nullptr ? static_cast<cl_mem>(inputs[0].data) : y;
  const cl_mem b = inputs[1].data != nullptr ? static_cast<cl_mem>(inputs[1].data) : y;
  cl_uint8 dims{}, a_strides{}, b_strides{};
  for (uint32_t d = 0; d < s.batch.merged; ++d) {
    dims.s[d] = static_cast<cl_uint>(s.batch.dims[d]);
    a_strides.s[d] = static_cast<cl_uint>(s.batch.a_strides[d]);
    b_strides.s[d] = static_cast<cl_uint>(s.batch.b_strides[d]);
  }
  if (!set_kernel_args(k->kernel, a, b, y, static_cast<cl_uint>(s.m), static_cast<cl_uint>(s.n),
                       static_cast<cl_uint>(s.k), static_cast<cl_uint>(s.batch.merged), dims, a_strides, b_strides))
    return OPRIG_STATUS_BACKEND_ERROR;
  const GemmTiles& t = k->tiles;
  const size_t global[3] = {(s.n + t.nwg - 1) / t.nwg * t.ndimc, (s.m + t.mwg - 1) / t.mwg * t.mdimc, s.batches};
  const size_t local[3] = {t.ndimc, t.mdimc, 1};
  ClEnqueue enqueue(k->queue);
  const oprig_status st = enqueue.kernel(k->kernel, 3, global, local);
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<MatMulOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = from_handle<const MatMulOpenCL>(handle)->product.cost();
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_matmul__opencl = {"MatMul", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
