#include "vulkan/buffer.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

namespace oprig::vulkan {
namespace {

constexpr VkDeviceSize kGuardBytes = 256;  // >= every device's minStorageBufferOffsetAlignment

VkDeviceSize round_up(VkDeviceSize value, VkDeviceSize multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

VkDeviceSize tensor_offset_for(const VulkanDevice& device) {
  const VkDeviceSize alignment =
      std::max<VkDeviceSize>(1, device.properties().limits.minStorageBufferOffsetAlignment);
  return round_up(kGuardBytes, alignment);
}

}  // namespace

VulkanBuffer::VulkanBuffer(std::shared_ptr<VulkanDevice> device, size_t bytes)
    : device_(std::move(device)), bytes_(bytes), tensor_offset_(tensor_offset_for(*device_)) {
  // The tail guard starts right after the tensor; the total is a multiple of 4
  // so kernels that read whole 32-bit words (fp16 pairs) stay inside the buffer.
  const VkDeviceSize total = round_up(tensor_offset_ + bytes + kGuardBytes, 4);
  memory_ = device_->create_buffer(total, MemoryKind::kDevice);
  std::vector<std::byte> pattern(total);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = guard_byte(i);
  copy_in(0, pattern);
  device_->guard_layer().register_buffer(memory_.buffer(), memory_.size());
}

VulkanBuffer::~VulkanBuffer() { device_->guard_layer().unregister_buffer(memory_.buffer()); }

void VulkanBuffer::bind(oprig_tensor& tensor) const {
  tensor.data = buffer_to_data(memory_.buffer());
  tensor.offset = tensor_offset_;
  tensor.bytes = bytes_;
}

std::vector<GuardDamage> VulkanBuffer::guard_damage() const {
  std::vector<std::byte> all(memory_.size());
  copy_out(0, all);
  return find_guard_damage(all, tensor_offset_, bytes_, guard_byte);
}

void VulkanBuffer::upload(std::span<const std::byte> src) {
  if (src.size() > bytes_) throw std::length_error("vulkan: write larger than the buffer");
  copy_in(tensor_offset_, src);
}

void VulkanBuffer::download(std::span<std::byte> dst) const {
  if (dst.size() > bytes_) throw std::length_error("vulkan: read larger than the buffer");
  copy_out(tensor_offset_, dst);
}

void VulkanBuffer::copy_in(VkDeviceSize offset, std::span<const std::byte> src) {
  if (src.empty()) return;
  if (std::byte* mapped = memory_.mapped()) {
    std::memcpy(mapped + offset, src.data(), src.size());
    memory_.flush_host_writes();
    return;
  }
  RawBuffer staging = device_->create_buffer(src.size(), MemoryKind::kStaging);
  std::memcpy(staging.mapped(), src.data(), src.size());
  staging.flush_host_writes();
  device_->submit_and_wait([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, offset, src.size()};
    vkCmdCopyBuffer(cmd, staging.buffer(), memory_.buffer(), 1, &region);
  });
}

void VulkanBuffer::copy_out(VkDeviceSize offset, std::span<std::byte> dst) const {
  if (dst.empty()) return;
  if (const std::byte* mapped = memory_.mapped()) {
    memory_.invalidate_for_host_reads();
    std::memcpy(dst.data(), mapped + offset, dst.size());
    return;
  }
  RawBuffer staging = device_->create_buffer(dst.size(), MemoryKind::kStaging);
  device_->submit_and_wait([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{offset, 0, dst.size()};
    vkCmdCopyBuffer(cmd, memory_.buffer(), staging.buffer(), 1, &region);
    // Make the copy's writes visible to the host before the fence is waited on.
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &barrier, 0, nullptr, 0, nullptr);
  });
  staging.invalidate_for_host_reads();
  std::memcpy(dst.data(), staging.mapped(), dst.size());
}

}  // namespace oprig::vulkan
