// ScaledDotProductAttention on the vulkan backend: host side of vulkan.comp
// (one fused flash-attention dispatch per execute). The workgroup is 16 x 8
// (tiles of 32 queries, 64 keys, 64 features) where the device has the
// shared memory that tiling takes (20 KiB), 8 x 8 otherwise (Vulkan
// guarantees 16 KiB and 128 invocations); workgroups (batch and head, tile of
// queries, chunk of output features).
// Tensors past one binding's range (maxStorageBufferRange) are UNSUPPORTED:
// the shader indexes elements in 32 bits.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <new>
#include <optional>

#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "scaled_dot_product_attention/attention_shapes.hpp"
#include "scaled_dot_product_attention_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_scaled_dot_product_attention__vulkan;

namespace {

struct PushConstants {
  uint32_t heads;
  uint32_t sq, sk;
  uint32_t depth, value_depth;
  float scale;
  uint32_t causal, has_mask;
  uint32_t mask_strides[4];
};

struct AttentionVulkan : KernelBase {
  VulkanPipelines pipelines;
  int module = -1;
  uint32_t tx = 0, ty = 0;  // the workgroup; tiles of 4 ty queries, 4 tx keys and 4 tx features
  sdpa::AttentionParams params;
  bool prepared = false;
  bool has_mask = false;
  sdpa::AttentionProblem shape;
};

// Shared memory of vulkan.comp's tiles for a tx x ty workgroup, in bytes
// (its qv, ks, ps and red).
uint32_t shared_bytes(uint32_t tx, uint32_t ty) {
  constexpr uint32_t kChunk = 16, kVec4 = 16;
  const uint32_t qv = std::max(kChunk * (ty + 1), kChunk * tx), ks = kChunk * (tx + 1), ps = 4 * tx * (ty + 1);
  return kVec4 * (qv + ks + ps) + 4 * (4 * ty * tx);
}

// The first workgroup shape the device runs vulkan.comp with: 16 x 8, else 8 x 8.
bool choose_workgroup(const oprig_backend_context& ctx, const VulkanPipelines& pipelines, AttentionVulkan& k) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx.vk_physical_device), &properties);
  const VkPhysicalDeviceLimits& limits = properties.limits;
  constexpr uint32_t kShapes[][2] = {{16, 8}, {8, 8}};
  for (const auto& [tx, ty] : kShapes)
    if (limits.maxComputeWorkGroupInvocations >= tx * ty && limits.maxComputeWorkGroupSize[0] >= tx &&
        limits.maxComputeWorkGroupSize[1] >= ty && pipelines.max_shared_bytes() >= shared_bytes(tx, ty)) {
      k.tx = tx;
      k.ty = ty;
      return true;
    }
  return false;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<sdpa::AttentionParams> attention = sdpa::read_params(params, num_params);
  if (!attention) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) AttentionVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_scaled_dot_product_attention__vulkan;
  k->params = *attention;
  oprig_status st = k->pipelines.init(*ctx, 5, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    if (!choose_workgroup(*ctx, k->pipelines, *k)) st = OPRIG_STATUS_UNSUPPORTED;
  }
  if (st == OPRIG_STATUS_OK) {
    k->module = k->pipelines.add_module(
        std::span(scaled_dot_product_attention_vulkan_spirv, scaled_dot_product_attention_vulkan_spirv_size));
    if (k->module < 0) st = OPRIG_STATUS_BACKEND_ERROR;
  }
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

VkPipeline pipeline_of(AttentionVulkan& k) {
  const std::array<uint32_t, 3> constants = {k.tx, k.ty, k.shape.half ? 1u : 0u};  // local_size_x, _y, kHalf
  return k.pipelines.pipeline(k.module, constants);
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<AttentionVulkan>(handle);
  k->prepared = false;
  const oprig_status st =
      sdpa::plan_attention(inputs, num_inputs, outputs, num_outputs, k->params, k->shape, k->has_mask);
  if (st != OPRIG_STATUS_OK) return st;
  const sdpa::AttentionProblem& p = k->shape;
  const uint64_t width = p.half ? 2 : 4;
  const auto heads = static_cast<uint64_t>(p.batch * p.heads);
  for (const uint64_t elements :
       {heads * static_cast<uint64_t>(p.query_len * p.depth), heads * static_cast<uint64_t>(p.key_len * p.depth),
        heads * static_cast<uint64_t>(p.key_len * p.value_depth),
        heads * static_cast<uint64_t>(p.query_len * p.value_depth)})
    if (elements * width > k->pipelines.max_range() || elements > UINT32_MAX - 64) return OPRIG_STATUS_UNSUPPORTED;
  if (k->has_mask && inputs[3].bytes > k->pipelines.max_range()) return OPRIG_STATUS_UNSUPPORTED;
  if (pipeline_of(*k) == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || info->vk_command_buffer == nullptr || inputs == nullptr || outputs == nullptr ||
      num_outputs != 1 || num_inputs < 3)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<AttentionVulkan>(handle);
  if (!k->prepared || (k->has_mask && num_inputs != 4)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const sdpa::AttentionProblem& p = k->shape;
  const int64_t heads = p.batch * p.heads;
  if (heads == 0 || p.query_len == 0 || p.value_depth == 0) return OPRIG_STATUS_OK;
  PushConstants push{};
  push.heads = static_cast<uint32_t>(p.heads);
  push.sq = static_cast<uint32_t>(p.query_len);
  push.sk = static_cast<uint32_t>(p.key_len);
  push.depth = static_cast<uint32_t>(p.depth);
  push.value_depth = static_cast<uint32_t>(p.value_depth);
  push.scale = p.scale;
  push.causal = p.causal ? 1 : 0;
  push.has_mask = k->has_mask ? 1 : 0;
  for (int axis = 0; axis < 4; ++axis) push.mask_strides[axis] = static_cast<uint32_t>(p.mask_strides[axis]);
  // Without keys (Sk = 0) K and V may have no buffer, without a mask input 3
  // none: the output stands in (never read).
  auto tensor_or_out = [&](size_t i) { return inputs[i].data != nullptr ? inputs[i] : outputs[0]; };
  const oprig_tensor tensors[5] = {outputs[0], tensor_or_out(0), tensor_or_out(1), tensor_or_out(2),
                                   k->has_mask ? tensor_or_out(3) : outputs[0]};
  const uint64_t queries = 4 * k->ty, features = 4 * k->tx;
  const auto query_tiles = (static_cast<uint64_t>(p.query_len) + queries - 1) / queries;
  const auto feature_chunks = (static_cast<uint64_t>(p.value_depth) + features - 1) / features;
  if (static_cast<uint64_t>(heads) > UINT32_MAX || query_tiles > UINT32_MAX || feature_chunks > UINT32_MAX)
    return OPRIG_STATUS_UNSUPPORTED;
  return k->pipelines.record_groups(static_cast<VkCommandBuffer>(info->vk_command_buffer), pipeline_of(*k), tensors,
                                    &push, sizeof push, static_cast<uint32_t>(heads),
                                    static_cast<uint32_t>(query_tiles), static_cast<uint32_t>(feature_chunks));
}

void destroy(oprig_kernel* handle) { delete from_handle<AttentionVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = sdpa::attention_cost(from_handle<const AttentionVulkan>(handle)->shape);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_scaled_dot_product_attention__vulkan = {"ScaledDotProductAttention", create, prepare, execute,
                                                              destroy, cost};

}  // namespace oprig::opsuite
