// The Vulkan objects of one kernel instance that dispatches compute shaders
// over N storage buffers with push constants: shader modules, one
// descriptor set (rewritten at every execute: the host never records an
// instance twice into work it has not waited for), pipelines per
// specialisation, and the recording of a dispatch followed by a barrier
// that makes its writes visible to the host, transfers and later shaders.
// For the kernels written after Atan (which has its own, atan/vulkan.cpp).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "oprig/oprig_package.h"

namespace oprig::opsuite {

class VulkanPipelines {
 public:
  static constexpr uint32_t kLocalSize = 64;  // invocations per workgroup (spec constant 0)

  VulkanPipelines() = default;
  ~VulkanPipelines();
  VulkanPipelines(const VulkanPipelines&) = delete;
  VulkanPipelines& operator=(const VulkanPipelines&) = delete;

  // Layout of `bindings` storage buffers and `push_bytes` of push constants.
  oprig_status init(const oprig_backend_context& ctx, uint32_t bindings, uint32_t push_bytes);
  // Adds a shader module; returns its index (or -1 on failure).
  int add_module(std::span<const unsigned char> spirv);
  // A pipeline of module `module` with spec constant 0 = kLocalSize and
  // spec constant 1 = `variant` (a bool or uint in the shader); created on
  // first use, then cached.
  VkPipeline pipeline(int module, uint32_t variant);

  // Binds the tensors (whole 32-bit words), pushes constants and records
  // ceil(invocations / kLocalSize) workgroups (capped by the device's limit;
  // shaders loop grid-stride), then the barrier.
  oprig_status record(VkCommandBuffer cmd, VkPipeline pipeline, std::span<const oprig_tensor> tensors,
                      const void* push, uint32_t push_bytes, uint64_t invocations);

  VkDeviceSize max_range() const { return max_range_; }
  bool has_float64() const { return float64_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t max_groups_ = 1;
  VkDeviceSize max_range_ = 0;
  bool float64_ = false;
  uint32_t bindings_ = 0;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  std::vector<VkShaderModule> modules_;
  std::map<std::pair<int, uint32_t>, VkPipeline> pipelines_;
};

}  // namespace oprig::opsuite
