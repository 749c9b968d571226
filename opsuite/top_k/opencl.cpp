// TopK on the opencl backend: host side of opencl.cl. create() makes the
// kernels and reads the device's local memory; prepare() plans the tile or
// the sort path (top_k_plan.hpp) and reserves its ranks buffer; execute()
// enqueues the launches without waiting.
#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>

#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "top_k/top_k_plan.hpp"
#include "top_k_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_top_k__opencl;

namespace {

constexpr size_t kGroup = 256;                // work-items per work-group, at most
constexpr cl_ulong kLocalBytes = 32 * 1024;   // local memory a work-group's ranks may take

enum Kernel { kTilesF32, kTilesF16, kTilesI32, kFillF32, kFillF16, kFillI32, kEmit32, kEmit16, kSortLocal, kSortStep,
              kIndexOrder, kKernels };
constexpr const char* kNames[kKernels] = {"topk_tiles_f32", "topk_tiles_f16", "topk_tiles_i32", "topk_fill_f32",
                                          "topk_fill_f16",  "topk_fill_i32",  "topk_emit_32",   "topk_emit_16",
                                          "topk_sort_local", "topk_sort_step", "topk_index_order"};

struct TopKOpenCL : KernelBase {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  cl_kernel kernels[kKernels] = {};
  uint64_t capacity = 0;  // ranks a work-group holds in local memory
  uint32_t max_group = 1;
  top_k::Params params;
  bool prepared = false;
  top_k::Shape shape;
  top_k::Plan plan;
  ClScratch ranks;
  ~TopKOpenCL() {
    for (cl_kernel kernel : kernels)
      if (kernel != nullptr) clReleaseKernel(kernel);
  }
  int type_index() const { return shape.dtype == OPRIG_DTYPE_FLOAT_16 ? 1 : shape.dtype == OPRIG_DTYPE_INT_32 ? 2 : 0; }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<top_k::Params> p = top_k::read_params(params, num_params);
  if (!p) return OPRIG_STATUS_INVALID_ARGUMENT;  // k is mandatory
  cl_context context = static_cast<cl_context>(ctx->cl_context);
  cl_device_id device = static_cast<cl_device_id>(ctx->cl_device);
  cl_program program =
      cached_program(context, device, top_k_opencl_source, top_k_opencl_source_size, "-cl-std=CL1.2", "TopK");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) TopKOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_top_k__opencl;
  k->context = context;
  k->device = device;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->params = *p;
  cl_int err = CL_SUCCESS;
  size_t group = kGroup;
  for (int i = 0; i < kKernels && err == CL_SUCCESS; ++i) {
    k->kernels[i] = clCreateKernel(program, kNames[i], &err);
    if (err == CL_SUCCESS) group = std::min(group, max_work_group_size(k->kernels[i], device));
  }
  cl_ulong local_bytes = 0;
  if (err == CL_SUCCESS)
    err = clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes, nullptr);
  if (err != CL_SUCCESS) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  k->capacity = std::bit_floor(std::min(local_bytes, kLocalBytes) / 8);
  k->max_group = static_cast<uint32_t>(std::bit_floor(std::max<size_t>(group, 1)));
  if (k->capacity < 2) {
    delete k;
    return OPRIG_STATUS_UNSUPPORTED;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<TopKOpenCL>(handle);
  k->prepared = false;
  const oprig_status st = top_k::plan_shape(k->params, inputs, num_inputs, outputs, num_outputs, &k->shape);
  if (st != OPRIG_STATUS_OK) return st;
  const top_k::Shape& s = k->shape;
  if (s.lines() > UINT32_MAX) return OPRIG_STATUS_UNSUPPORTED;  // lines are 32-bit in the kernels
  k->plan = top_k::plan_launches(s, k->capacity, k->max_group);
  const top_k::Plan& p = k->plan;
  uint64_t bytes = 0;
  if (p.sort_path) bytes = s.lines() * p.sort_bytes();
  else if (p.tiles.parts > 1) bytes = s.lines() * p.tiles.parts * s.k * 8;
  if (bytes > 0) {
    const oprig_status reserved = k->ranks.reserve(k->context, bytes);
    if (reserved != OPRIG_STATUS_OK) return reserved;
  }
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

struct Buffers {
  cl_mem x, values, indices, ranks;
};

oprig_status enqueue_tiles(const TopKOpenCL& k, ClEnqueue& enqueue, const Buffers& b, const top_k::TilePass& t,
                           bool from_ranks) {
  const top_k::Shape& s = k.shape;
  cl_kernel kernel = k.kernels[kTilesF32 + k.type_index()];
  const cl_int flip = k.params.largest ? 0 : -1;
  if (!set_kernel_args(kernel, b.x, b.ranks, b.values, b.indices, static_cast<cl_uint>(s.lines()),
                       static_cast<cl_uint>(s.n), static_cast<cl_uint>(s.inner), static_cast<cl_uint>(s.k),
                       cl_uint{k.plan.k_log2}, cl_uint{t.seg_log2}, cl_uint{t.segs_log2}, cl_uint{t.lane_fast},
                       cl_uint{t.part_len}, cl_uint{t.line_len}, flip, cl_uint{k.params.sorted},
                       cl_uint{from_ranks}) ||
      !set_local_arg(kernel, 17, size_t{t.local_entries()} * sizeof(cl_ulong)))
    return OPRIG_STATUS_BACKEND_ERROR;
  const size_t global[2] = {t.line_groups * t.group, t.parts}, local[2] = {t.group, 1};
  return enqueue.kernel(kernel, 2, global, local);
}

// Sorts the first 1 << len_log2 ranks of every line, descending.
oprig_status enqueue_sort(const TopKOpenCL& k, ClEnqueue& enqueue, cl_mem ranks, uint32_t len_log2) {
  const top_k::Plan& p = k.plan;
  const uint64_t lines = k.shape.lines();
  const uint32_t block_log2 = std::min(p.block_log2, len_log2);
  const size_t group = std::min<size_t>(p.block_group, std::max<size_t>(1, (size_t{1} << block_log2) / 2));
  const size_t local_global = (lines << (len_log2 - block_log2)) * group;
  cl_kernel local = k.kernels[kSortLocal], step = k.kernels[kSortStep];
  auto sort_local = [&](cl_uint stage_log2) {
    if (!set_kernel_args(local, ranks, cl_uint{p.line_log2}, cl_uint{len_log2}, cl_uint{block_log2}, stage_log2) ||
        !set_local_arg(local, 5, (size_t{1} << block_log2) * sizeof(cl_ulong)))
      return OPRIG_STATUS_BACKEND_ERROR;
    return enqueue.kernel(local, 1, &local_global, &group);
  };
  oprig_status st = sort_local(0);
  for (uint32_t stage = block_log2 + 1; stage <= len_log2 && st == OPRIG_STATUS_OK; ++stage) {
    for (uint32_t j = stage; j-- > block_log2 && st == OPRIG_STATUS_OK;) {
      if (!set_kernel_args(step, ranks, cl_uint{p.line_log2}, cl_uint{len_log2}, cl_uint{stage}, cl_uint{j}))
        return OPRIG_STATUS_BACKEND_ERROR;
      const size_t pairs = lines << (len_log2 - 1);
      st = enqueue.kernel(step, 1, &pairs);
    }
    if (st == OPRIG_STATUS_OK) st = sort_local(stage);
  }
  return st;
}

oprig_status enqueue_sort_path(const TopKOpenCL& k, ClEnqueue& enqueue, const Buffers& b) {
  const top_k::Shape& s = k.shape;
  const top_k::Plan& p = k.plan;
  const cl_uint lines = static_cast<cl_uint>(s.lines()), n = static_cast<cl_uint>(s.n),
                inner = static_cast<cl_uint>(s.inner), count = static_cast<cl_uint>(s.k);
  cl_kernel fill = k.kernels[kFillF32 + k.type_index()];
  const cl_int flip = k.params.largest ? 0 : -1;
  if (!set_kernel_args(fill, b.x, b.ranks, lines, n, inner, cl_uint{p.line_log2}, flip))
    return OPRIG_STATUS_BACKEND_ERROR;
  const size_t all = s.lines() << p.line_log2;
  oprig_status st = enqueue.kernel(fill, 1, &all);
  if (st == OPRIG_STATUS_OK) st = enqueue_sort(k, enqueue, b.ranks, p.line_log2);
  if (st == OPRIG_STATUS_OK && !k.params.sorted) {
    cl_kernel order = k.kernels[kIndexOrder];
    if (!set_kernel_args(order, b.ranks, cl_uint{p.line_log2}, count, cl_uint{p.k_log2}))
      return OPRIG_STATUS_BACKEND_ERROR;
    const size_t firsts = s.lines() << p.k_log2;
    st = enqueue.kernel(order, 1, &firsts);
    if (st == OPRIG_STATUS_OK) st = enqueue_sort(k, enqueue, b.ranks, p.k_log2);
  }
  if (st != OPRIG_STATUS_OK) return st;
  cl_kernel emit = k.kernels[s.element_bytes() == 2 ? kEmit16 : kEmit32];
  if (!set_kernel_args(emit, b.x, b.ranks, b.values, b.indices, lines, n, inner, count, cl_uint{p.line_log2}))
    return OPRIG_STATUS_BACKEND_ERROR;
  const size_t outputs = s.lines() * s.k;
  return enqueue.kernel(emit, 1, &outputs);
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 2 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<TopKOpenCL>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->shape.lines() == 0) return OPRIG_STATUS_OK;  // empty outputs
  Buffers b{static_cast<cl_mem>(inputs[0].data), static_cast<cl_mem>(outputs[0].data),
            static_cast<cl_mem>(outputs[1].data), k->ranks.get()};
  if (b.x == nullptr || b.values == nullptr || b.indices == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (b.ranks == nullptr) b.ranks = b.indices;  // stands in, never used as ranks
  const top_k::Plan& p = k->plan;
  ClEnqueue enqueue(k->queue);
  oprig_status st;
  if (p.sort_path) {
    st = enqueue_sort_path(*k, enqueue, b);
  } else {
    st = enqueue_tiles(*k, enqueue, b, p.tiles, false);
    if (st == OPRIG_STATUS_OK && p.tiles.parts > 1) st = enqueue_tiles(*k, enqueue, b, p.merge, true);
  }
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<TopKOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = top_k::cost(from_handle<const TopKOpenCL>(handle)->shape);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_top_k__opencl = {"TopK", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
