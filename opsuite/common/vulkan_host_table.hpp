// A small read-only table a kernel instance computes on the host in
// prepare() and its shaders read, bound like a tensor (Resize: the input rows
// and columns and the weights of every output row and column). Kernels
// cannot submit work (they only record into the host's command buffer), so
// the table lives in host-visible memory, device-local where the device has
// such memory (NVIDIA's BAR heap; lavapipe's one heap), written through a
// persistent mapping. Writing in prepare() is safe: the host waits for every
// execute before it prepares again.
#pragma once

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "oprig/oprig_package.h"

namespace oprig::opsuite {

class VulkanHostTable {
 public:
  VulkanHostTable() = default;
  ~VulkanHostTable() { release(); }
  VulkanHostTable(const VulkanHostTable&) = delete;
  VulkanHostTable& operator=(const VulkanHostTable&) = delete;

  // Copies `bytes` of `data` into the table (at least one word; a larger
  // buffer replaces a smaller one). OUT_OF_MEMORY when there is no room.
  oprig_status write(const oprig_backend_context& ctx, const void* data, uint64_t bytes) {
    if (ctx.vk_device == nullptr || ctx.vk_physical_device == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    const uint64_t size = std::max<uint64_t>(4, (bytes + 3) / 4 * 4);
    if (buffer_ == VK_NULL_HANDLE || size_ < size) {
      const oprig_status st = allocate(ctx, size);
      if (st != OPRIG_STATUS_OK) return st;
    }
    std::memcpy(mapped_, data, bytes);
    bytes_ = size;
    return OPRIG_STATUS_OK;
  }

  // The table as a binding.
  oprig_tensor tensor() const {
    oprig_tensor t{};
    t.dtype = OPRIG_DTYPE_UINT_32;
    t.rank = 1;
    t.dims[0] = static_cast<int64_t>(bytes_ / 4);
#if VK_USE_64_BIT_PTR_DEFINES == 1
    t.data = reinterpret_cast<void*>(buffer_);
#else
    t.data = reinterpret_cast<void*>(static_cast<uintptr_t>(buffer_));
#endif
    t.bytes = bytes_;
    return t;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* mapped_ = nullptr;
  uint64_t size_ = 0, bytes_ = 0;

  void release() {
    if (device_ == VK_NULL_HANDLE) return;
    if (mapped_ != nullptr) vkUnmapMemory(device_, memory_);
    if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
    mapped_ = nullptr;
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    size_ = bytes_ = 0;
  }

  oprig_status allocate(const oprig_backend_context& ctx, uint64_t size) {
    release();
    device_ = static_cast<VkDevice>(ctx.vk_device);
    VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    buffer_info.size = size;
    buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (vkCreateBuffer(device_, &buffer_info, nullptr, &buffer_) != VK_SUCCESS) {
      buffer_ = VK_NULL_HANDLE;
      return OPRIG_STATUS_OUT_OF_MEMORY;
    }
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(device_, buffer_, &needs);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(static_cast<VkPhysicalDevice>(ctx.vk_physical_device), &memory);
    constexpr VkMemoryPropertyFlags kMapped = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t chosen = UINT32_MAX;
    for (const VkMemoryPropertyFlags wanted : {kMapped | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, kMapped})
      for (uint32_t i = 0; i < memory.memoryTypeCount && chosen == UINT32_MAX; ++i)
        if ((needs.memoryTypeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) chosen = i;
    VkMemoryAllocateInfo allocate_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate_info.allocationSize = needs.size;
    allocate_info.memoryTypeIndex = chosen;
    if (chosen == UINT32_MAX || vkAllocateMemory(device_, &allocate_info, nullptr, &memory_) != VK_SUCCESS) {
      memory_ = VK_NULL_HANDLE;
      release();
      return OPRIG_STATUS_OUT_OF_MEMORY;
    }
    if (vkBindBufferMemory(device_, buffer_, memory_, 0) != VK_SUCCESS ||
        vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_) != VK_SUCCESS) {
      mapped_ = nullptr;
      release();
      return OPRIG_STATUS_BACKEND_ERROR;
    }
    size_ = size;
    return OPRIG_STATUS_OK;
  }
};

}  // namespace oprig::opsuite
