// MatMul on the vulkan backend: host side of vulkan.comp and the shared
// tiled GEMM (common/glsl/gemm.glsl). prepare() chooses the tile for the
// device and the product (common/gemm_tiles.hpp) and makes the pipeline
// specialised on it, the transposes and the element type; execute() records
// one dispatch: tiles of N along x, of M along y, output matrices along z.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <span>
#include <thread>

#include "common/gemm_tiles.hpp"
#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "matmul/product.hpp"
#include "matmul_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_matmul__vulkan;

namespace {

constexpr uint32_t kMaxBatchRank = OPRIG_MAX_RANK - 2;

struct PushConstants {
  uint32_t m, n, k;
  uint32_t batches;
  uint32_t batch_rank;
  uint32_t dims[kMaxBatchRank];
  uint32_t a_strides[kMaxBatchRank];
  uint32_t b_strides[kMaxBatchRank];
};

// Work-groups that run at once on a GPU, about: Vulkan does not report
// compute units; this is a large GPU's count (an H100 has 132 SMs).
constexpr uint64_t kGpuComputeUnits = 128;

struct MatMulVulkan : KernelBase {
  VulkanPipelines pipelines;
  int module = -1;
  GemmDevice limits;
  uint32_t max_groups[3] = {1, 1, 1};
  bool transpose_a = false, transpose_b = false;
  // From prepare().
  bool prepared = false;
  matmul::Product product;
  GemmTiles tiles{};
  VkPipeline pipeline = VK_NULL_HANDLE;
};

GemmDevice limits_of(const oprig_backend_context& ctx, uint32_t max_groups[3]) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx.vk_physical_device), &properties);
  const VkPhysicalDeviceLimits& l = properties.limits;
  GemmDevice d;
  d.cpu = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  const uint64_t side = std::min(l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupSize[1]);
  d.max_threads = std::min<uint64_t>(l.maxComputeWorkGroupInvocations, side * side);
  d.max_local_bytes = l.maxComputeSharedMemorySize;
  // A CPU driver (lavapipe) runs work-groups on a thread per core.
  d.compute_units = d.cpu ? std::max(1u, std::thread::hardware_concurrency()) : kGpuComputeUnits;
  std::copy(l.maxComputeWorkGroupCount, l.maxComputeWorkGroupCount + 3, max_groups);
  return d;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->vk_device == nullptr || ctx->vk_physical_device == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) MatMulVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_matmul__vulkan;
  k->transpose_a = scalar_param(params, num_params, "transpose_a").value_or(0.0) != 0.0;  // spec default 0
  k->transpose_b = scalar_param(params, num_params, "transpose_b").value_or(0.0) != 0.0;
  k->limits = limits_of(*ctx, k->max_groups);
  oprig_status st = k->pipelines.init(*ctx, 3, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->module = k->pipelines.add_module(std::span(matmul_vulkan_spirv, matmul_vulkan_spirv_size));
    if (k->module < 0) st = OPRIG_STATUS_BACKEND_ERROR;
  }
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<MatMulVulkan>(handle);
  k->prepared = false;
  const oprig_status planned =
      matmul::plan_product(inputs, num_inputs, outputs, num_outputs, k->transpose_a, k->transpose_b, &k->product);
  if (planned != OPRIG_STATUS_OK) return planned;
  const matmul::Product& s = k->product;
  // Element indices are 32-bit in the shader, and one binding has a size limit.
  const bool half = s.dtype == OPRIG_DTYPE_FLOAT_16;
  for (const uint64_t count : {s.a_elements, s.b_elements, s.m * s.n * s.batches})
    if (count >= UINT32_MAX || count * (half ? 2 : 4) > k->pipelines.max_range()) return OPRIG_STATUS_UNSUPPORTED;
  k->tiles = choose_gemm_tiles(k->limits, s.m, s.n, s.batches);
  if (k->tiles.mwg == 0) return OPRIG_STATUS_UNSUPPORTED;
  const GemmTiles& t = k->tiles;
  // One matrix's tiles must fit the dispatch in x and y; beyond its z limit, work-groups walk z (vulkan.comp).
  if ((s.n + t.nwg - 1) / t.nwg > k->max_groups[0] || (s.m + t.mwg - 1) / t.mwg > k->max_groups[1])
    return OPRIG_STATUS_UNSUPPORTED;
  const uint32_t constants[7] = {(k->transpose_a ? 1u : 0u) | (k->transpose_b ? 2u : 0u) | (t.prefetch ? 4u : 0u),
                                 t.mwg | t.nwg << 16,
                                 t.kwg | t.pad << 16,
                                 t.vwm | t.vwn << 8,
                                 t.mdimc,
                                 t.ndimc,
                                 half ? 1u : 0u};
  k->pipeline = k->pipelines.pipeline(k->module, constants);
  if (k->pipeline == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<MatMulVulkan>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const matmul::Product& s = k->product;
  if (s.m == 0 || s.n == 0 || s.batches == 0) return OPRIG_STATUS_OK;
  if (s.k != 0 && (inputs[0].data == nullptr || inputs[1].data == nullptr)) return OPRIG_STATUS_INVALID_ARGUMENT;
  PushConstants push{};
  push.m = static_cast<uint32_t>(s.m);
  push.n = static_cast<uint32_t>(s.n);
  push.k = static_cast<uint32_t>(s.k);
  push.batches = static_cast<uint32_t>(s.batches);
  push.batch_rank = s.batch.merged;
  for (uint32_t d = 0; d < s.batch.merged; ++d) {
    push.dims[d] = static_cast<uint32_t>(s.batch.dims[d]);
    push.a_strides[d] = static_cast<uint32_t>(s.batch.a_strides[d]);
    push.b_strides[d] = static_cast<uint32_t>(s.batch.b_strides[d]);
  }
  // With K = 0 the inputs are empty and may have no buffer; y stands in (never read).
  const oprig_tensor tensors[3] = {inputs[0].data != nullptr ? inputs[0] : outputs[0],
                                   inputs[1].data != nullptr ? inputs[1] : outputs[0], outputs[0]};
  const GemmTiles& t = k->tiles;
  const auto groups_z = static_cast<uint32_t>(std::min<uint64_t>(s.batches, k->max_groups[2]));
  return k->pipelines.record_groups(static_cast<VkCommandBuffer>(info->vk_command_buffer), k->pipeline, tensors, &push,
                                    sizeof push, static_cast<uint32_t>((s.n + t.nwg - 1) / t.nwg),
                                    static_cast<uint32_t>((s.m + t.mwg - 1) / t.mwg), groups_z);
}

void destroy(oprig_kernel* handle) { delete from_handle<MatMulVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = from_handle<const MatMulVulkan>(handle)->product.cost();
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_matmul__vulkan = {"MatMul", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
