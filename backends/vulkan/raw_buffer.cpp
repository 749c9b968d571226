// RawBuffer: ownership of one VkBuffer and its VkDeviceMemory.
#include <utility>

#include "vulkan/vulkan_device.hpp"

namespace oprig::vulkan {

RawBuffer::RawBuffer(VkDevice device, VkBuffer buffer, VkDeviceMemory memory, VkDeviceSize size,
                     void* mapped, bool coherent)
    : device_(device),
      buffer_(buffer),
      memory_(memory),
      size_(size),
      mapped_(mapped),
      coherent_(coherent) {}

RawBuffer::RawBuffer(RawBuffer&& other) noexcept { *this = std::move(other); }

RawBuffer& RawBuffer::operator=(RawBuffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
    coherent_ = other.coherent_;
  }
  return *this;
}

RawBuffer::~RawBuffer() { release(); }

void RawBuffer::release() noexcept {
  if (device_ == VK_NULL_HANDLE) return;
  if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);  // unmaps implicitly
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
}

void RawBuffer::flush_host_writes() const {
  if (coherent_ || mapped_ == nullptr) return;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory_;
  range.size = VK_WHOLE_SIZE;
  check(vkFlushMappedMemoryRanges(device_, 1, &range), "vkFlushMappedMemoryRanges");
}

void RawBuffer::invalidate_for_host_reads() const {
  if (coherent_ || mapped_ == nullptr) return;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory_;
  range.size = VK_WHOLE_SIZE;
  check(vkInvalidateMappedMemoryRanges(device_, 1, &range), "vkInvalidateMappedMemoryRanges");
}

}  // namespace oprig::vulkan
