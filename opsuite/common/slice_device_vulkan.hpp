// A Vulkan device as the slice kernels (Softmax, LayerNorm, RMSNorm) see it
// (common/slice_layout.hpp): whether subgroup shuffles work in compute
// shaders (then the ops' vulkan_subgroup.comp reduces a slice's invocations
// by butterflies, team_reduce.glsl), the subgroup size, the workgroup limits
// and the registers each invocation caches (spec constant kCache), by device
// type. Chosen on lavapipe (CPU: 8-wide subgroups, so a 1024-element row is
// one workgroup of subgroups) and for GPUs from their usual shape.
#pragma once

#include <vulkan/vulkan.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>

#include "common/slice_layout.hpp"
#include "common/vulkan_pipeline.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite {

struct VulkanSliceDevice {
  SliceDevice slices;
  bool subgroup_shuffle = false;  // use the ops' vulkan_subgroup.comp
};

inline VulkanSliceDevice vulkan_slice_device(const oprig_backend_context& ctx, uint32_t bytes_per_invocation) {
  VulkanSliceDevice d;
  VkPhysicalDevice physical = static_cast<VkPhysicalDevice>(ctx.vk_physical_device);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical, &properties);
  uint32_t subgroup_size = 1;
  if (properties.apiVersion >= VK_API_VERSION_1_1) {
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties2.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(physical, &properties2);
    const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    d.subgroup_shuffle = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0 &&
                         (subgroup.supportedOperations & needed) == needed && subgroup.subgroupSize >= 1 &&
                         std::has_single_bit(subgroup.subgroupSize);
    subgroup_size = std::max<uint32_t>(1, subgroup.subgroupSize);
  }
  const VkPhysicalDeviceLimits& limits = properties.limits;
  uint32_t max_group = std::min({limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupInvocations, 1024u,
                                 limits.maxComputeSharedMemorySize / std::max<uint32_t>(1, bytes_per_invocation)});
  max_group = std::bit_floor(std::max<uint32_t>(1, max_group));
  SliceDevice& s = d.slices;
  s.max_group = max_group;
  s.preferred_group = std::min<uint32_t>(max_group, 256);
  s.max_members = max_group;
  s.cache = 16;  // GPUs: a 1024-element row is 64 invocations (two warps) holding 16 each
  // The butterflies number invocations by subgroup: a workgroup of whole subgroups.
  if (d.subgroup_shuffle && subgroup_size > max_group) d.subgroup_shuffle = false;
  if (d.subgroup_shuffle) s.min_group = subgroup_size;
  // CPU devices (lavapipe, measured): a slice gets at most one subgroup, so
  // no reduction waits at a barrier (lavapipe runs a workgroup's subgroups
  // one after another and switches between them at every barrier: a
  // 128-invocation team took three times as long), and no registers are
  // kept: a slice is read again in each pass, from the core's cache (a
  // cache of 8 was slower, and its unrolled loops took lavapipe 100 ms to
  // compile per pipeline).
  if (properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && d.subgroup_shuffle) {
    s.max_members = subgroup_size;
    s.cache = 1;
  }
  return d;
}

// Adds the op's shader: its vulkan_subgroup.comp where the device has
// subgroup shuffles, else its vulkan.comp. The module's index, or -1.
inline int add_slice_module(VulkanPipelines& pipelines, const VulkanSliceDevice& device,
                            std::span<const unsigned char> plain, std::span<const unsigned char> subgroup) {
  return pipelines.add_module(device.subgroup_shuffle ? subgroup : plain);
}

// The end of a slice kernel's prepare(), after the op's own checks:
// `outer` x `inner` slices of `length` elements, FLOAT_16 if `half` else
// FLOAT_32 (contiguous FLOAT_16 slices go in words of two elements).
// UNSUPPORTED past the shaders' 32-bit element indices, one binding's size
// or 2^32 workgroups; else the layout and the pipeline specialised on
// (group size, half, cache) of `module`. Nothing to lay out for no elements.
inline oprig_status prepare_slice_pipeline(VulkanPipelines& pipelines, int module, const VulkanSliceDevice& device,
                                           uint64_t outer, uint64_t length, uint64_t inner, bool half,
                                           SliceLayout* layout, VkPipeline* pipeline) {
  const uint64_t count = outer * length * inner;
  if (count >= (uint64_t{1} << 32) || count * (half ? 2 : 4) > pipelines.max_range()) return OPRIG_STATUS_UNSUPPORTED;
  if (count == 0) return OPRIG_STATUS_OK;
  const uint64_t units = half && inner == 1 ? length / 2 + 1 : length;
  *layout = layout_slices(outer, units, inner, device.slices);
  if (layout->groups >= (uint64_t{1} << 32)) return OPRIG_STATUS_UNSUPPORTED;
  const uint32_t constants[3] = {layout->group, half ? 1u : 0u, device.slices.cache};
  *pipeline = pipelines.pipeline(module, constants);
  return *pipeline == VK_NULL_HANDLE ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
}

// Records a slice kernel over `layout`: up to 65535 workgroups (every device
// allows that many; the shaders loop over the rest), then the barrier.
inline oprig_status record_slice_groups(VulkanPipelines& pipelines, const oprig_execute_info& info, VkPipeline pipeline,
                                        std::span<const oprig_tensor> tensors, const void* push, uint32_t push_bytes,
                                        const SliceLayout& layout) {
  const auto dispatched = static_cast<uint32_t>(std::min<uint64_t>(layout.groups, 65535));
  return pipelines.record_groups(static_cast<VkCommandBuffer>(info.vk_command_buffer), pipeline, tensors, push,
                                 push_bytes, dispatched);
}

}  // namespace oprig::opsuite
