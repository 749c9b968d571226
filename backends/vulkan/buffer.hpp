// A device buffer of the vulkan backend: one VkBuffer with the tensor at an
// offset aligned to minStorageBufferOffsetAlignment and guard bands of a known
// byte pattern on both sides, so out-of-bounds writes by a kernel are caught.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "backend.hpp"
#include "vulkan/vulkan_device.hpp"

namespace oprig::vulkan {

class VulkanBuffer final : public DeviceBuffer {
 public:
  VulkanBuffer(std::shared_ptr<VulkanDevice> device, size_t bytes);
  ~VulkanBuffer() override;
  VulkanBuffer(const VulkanBuffer&) = delete;
  VulkanBuffer& operator=(const VulkanBuffer&) = delete;

  size_t bytes() const override { return bytes_; }
  void bind(oprig_tensor& tensor) const override;
  std::vector<GuardDamage> guard_damage() const override;

  // Blocking copies of the first src.size() / dst.size() bytes of the tensor.
  void upload(std::span<const std::byte> src);
  void download(std::span<std::byte> dst) const;

  VkBuffer handle() const { return memory_.buffer(); }
  // True when the host maps the memory (reads need no staging copy).
  bool host_mapped() const { return memory_.mapped() != nullptr; }
  VkDeviceSize tensor_offset() const { return tensor_offset_; }

 private:
  // Copies [offset, offset + size) of the whole buffer between host and device.
  void copy_in(VkDeviceSize offset, std::span<const std::byte> src);
  void copy_out(VkDeviceSize offset, std::span<std::byte> dst) const;

  std::shared_ptr<VulkanDevice> device_;
  size_t bytes_;
  VkDeviceSize tensor_offset_;
  RawBuffer memory_;
};

// The guard pattern: a byte that depends on its position, so neither zeros
// nor a constant fill nor a shifted copy can pass for it.
inline std::byte guard_byte(size_t position) {
  return static_cast<std::byte>((position * 131u + 0x5au) & 0xffu);
}

// Stores a VkBuffer in oprig_tensor::data and gets it back; VkBuffer is a
// pointer on 64-bit platforms and a uint64_t on 32-bit ones.
inline void* buffer_to_data(VkBuffer buffer) { return (void*)(buffer); }

}  // namespace oprig::vulkan
