// The Vulkan objects of one kernel instance that dispatches compute shaders
// over N storage buffers with push constants: shader modules, descriptor
// sets (one per dispatch the instance records into one command buffer; each
// is rewritten at its next use: the host never records an instance twice into
// work it has not waited for), pipelines per specialisation, and the
// recording of a dispatch followed by a barrier that makes its writes
// visible to the host, transfers and later shaders. Plus device buffers a
// kernel keeps for itself (VulkanScratch: intermediate results between its
// dispatches). For the kernels written after Atan (which has its own,
// atan/vulkan.cpp).
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

  // Layout of `bindings` storage buffers and `push_bytes` of push constants,
  // with `sets` descriptor sets: a kernel that records several dispatches per
  // execute gives each its own set (set index 0 .. sets-1 in record*()).
  oprig_status init(const oprig_backend_context& ctx, uint32_t bindings, uint32_t push_bytes, uint32_t sets = 1);
  // Adds a shader module; returns its index (or -1 on failure).
  int add_module(std::span<const unsigned char> spirv);
  // A pipeline of module `module` with spec constant 0 = kLocalSize and
  // spec constant 1 = `variant` (a bool or uint in the shader); created on
  // first use, then cached. A shader with a literal local size simply has no
  // constant 0 (Vulkan ignores map entries of absent constants).
  VkPipeline pipeline(int module, uint32_t variant);
  // The same with spec constants 1, 2, ... = `constants` (at most 7), for
  // shaders specialised on several values (type, tile shape, a flag).
  VkPipeline pipeline(int module, std::span<const uint32_t> constants);

  // Binds the tensors (whole 32-bit words) to set `set`, pushes constants
  // and records ceil(invocations / kLocalSize) workgroups (capped by the
  // device's limit; shaders loop grid-stride), then the barrier.
  oprig_status record(VkCommandBuffer cmd, VkPipeline pipeline, std::span<const oprig_tensor> tensors,
                      const void* push, uint32_t push_bytes, uint64_t invocations, uint32_t set = 0);
  // The same with the workgroup counts given in three dimensions (tiled
  // shaders: a tile per workgroup). Counts above the device's limits are
  // UNSUPPORTED; a zero count records nothing.
  oprig_status record_groups(VkCommandBuffer cmd, VkPipeline pipeline, std::span<const oprig_tensor> tensors,
                             const void* push, uint32_t push_bytes, uint32_t groups_x, uint32_t groups_y = 1,
                             uint32_t groups_z = 1, uint32_t set = 0);

  VkDeviceSize max_range() const { return max_range_; }
  bool has_float64() const { return float64_; }
  // The device's per-workgroup shared memory, in bytes.
  uint32_t max_shared_bytes() const { return max_shared_; }
  // The subgroup size (1 when the device does not report one).
  uint32_t subgroup_size() const { return subgroup_size_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t max_groups_[3] = {1, 1, 1};
  VkDeviceSize max_range_ = 0;
  uint32_t max_shared_ = 0;
  uint32_t subgroup_size_ = 1;
  bool float64_ = false;
  uint32_t bindings_ = 0;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets_;
  std::vector<VkShaderModule> modules_;
  std::map<std::pair<int, std::vector<uint32_t>>, VkPipeline> pipelines_;

  oprig_status bind(VkCommandBuffer cmd, VkPipeline pipeline, std::span<const oprig_tensor> tensors, const void* push,
                    uint32_t push_bytes, uint32_t set);
  void barrier_after(VkCommandBuffer cmd);
};

// A device-local storage buffer a kernel instance owns (intermediate results
// between its own dispatches, never seen by the host), bound like a tensor.
class VulkanScratch {
 public:
  VulkanScratch() = default;
  ~VulkanScratch();
  VulkanScratch(const VulkanScratch&) = delete;
  VulkanScratch& operator=(const VulkanScratch&) = delete;

  // Makes the buffer at least `bytes` long (rounded up to whole words); keeps
  // a large enough one. OUT_OF_MEMORY when the device has no room.
  oprig_status reserve(const oprig_backend_context& ctx, uint64_t bytes);
  // The buffer as a binding of `bytes` (at most the reserved size).
  oprig_tensor tensor(uint64_t bytes) const;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint64_t size_ = 0;
  void release();
};

}  // namespace oprig::opsuite
