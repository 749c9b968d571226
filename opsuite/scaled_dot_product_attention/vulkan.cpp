// ScaledDotProductAttention on the vulkan backend: host side of vulkan.comp
// (one fused flash-attention dispatch per execute). The workgroup is 16 x 16
// where the device allows 256 invocations and the shared memory that tiling
// takes, 8 x 8 otherwise (Vulkan guarantees 128 invocations and 16 KiB);
// workgroups (batch and head, tile of queries, chunk of output features).
// Tensors past one binding's range (maxStorageBufferRange) are UNSUPPORTED:
// the shader indexes elements in 32 bits.
#include <vulkan/vulkan.h>

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
  uint32_t half_io, causal, has_mask;
  uint32_t mask_strides[4];
};

struct AttentionVulkan : KernelBase {
  VulkanPipelines pipelines;
  int module = -1;
  uint32_t side = 0;  // the workgroup is side x side; tiles of 4 side queries, keys and features
  bool causal = false;
  std::optional<float> scale;
  bool prepared = false;
  bool has_mask = false;
  sdpa::AttentionProblem shape;
};

// Shared memory of vulkan.comp's tiles for a side x side workgroup, in bytes.
uint32_t shared_bytes(uint32_t side) {
  constexpr uint32_t kChunk = 16, kVec4 = 16;
  const uint32_t padded = side + 1;
  return kVec4 * (kChunk * padded * 2 + 4 * side * padded) + 4 * (4 * side * side);
}

// The largest workgroup side (16, else 8) the device runs vulkan.comp with; 0: none.
uint32_t side_for(const oprig_backend_context& ctx, const VulkanPipelines& pipelines) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx.vk_physical_device), &properties);
  const VkPhysicalDeviceLimits& limits = properties.limits;
  for (uint32_t side : {16u, 8u})
    if (limits.maxComputeWorkGroupInvocations >= side * side && limits.maxComputeWorkGroupSize[0] >= side &&
        limits.maxComputeWorkGroupSize[1] >= side && pipelines.max_shared_bytes() >= shared_bytes(side))
      return side;
  return 0;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<double> causal = scalar_param(params, num_params, "is_causal");
  const std::optional<double> scale = scalar_param(params, num_params, "scale");
  if (scale && !std::isfinite(*scale)) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) AttentionVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_scaled_dot_product_attention__vulkan;
  k->causal = causal.value_or(0.0) != 0.0;
  if (scale) k->scale = static_cast<float>(*scale);
  oprig_status st = k->pipelines.init(*ctx, 5, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->side = side_for(*ctx, k->pipelines);
    if (k->side == 0) st = OPRIG_STATUS_UNSUPPORTED;
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
  const std::array<uint32_t, 2> constants = {k.side, k.side};  // local_size_x, local_size_y
  return k.pipelines.pipeline(k.module, constants);
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<AttentionVulkan>(handle);
  k->prepared = false;
  const oprig_status st =
      sdpa::plan_attention(inputs, num_inputs, outputs, num_outputs, k->causal, k->scale, k->shape, k->has_mask);
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
  push.half_io = p.half ? 1 : 0;
  push.causal = p.causal ? 1 : 0;
  push.has_mask = k->has_mask ? 1 : 0;
  for (int axis = 0; axis < 4; ++axis) push.mask_strides[axis] = static_cast<uint32_t>(p.mask_strides[axis]);
  // Without keys (Sk = 0) K and V may have no buffer, without a mask input 3
  // none: the output stands in (never read).
  auto tensor_or_out = [&](size_t i) { return inputs[i].data != nullptr ? inputs[i] : outputs[0]; };
  const oprig_tensor tensors[5] = {outputs[0], tensor_or_out(0), tensor_or_out(1), tensor_or_out(2),
                                   k->has_mask ? tensor_or_out(3) : outputs[0]};
  const uint64_t tile = 4 * k->side;
  const auto query_tiles = static_cast<uint64_t>((p.query_len + tile - 1) / tile);
  const auto feature_chunks = static_cast<uint64_t>((p.value_depth + tile - 1) / tile);
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
