// Internal to the vulkan backend: the device objects every buffer and the
// backend share, and small helpers around VkResult. Buffers hold the device by
// shared_ptr so that a buffer outliving its backend still frees cleanly.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "vulkan/guard_layer_client.hpp"
#include "vulkan/vulkan_backend.hpp"

namespace oprig::vulkan {

// "VK_ERROR_DEVICE_LOST" etc.; the number for codes this file does not name.
std::string result_name(VkResult result);

// Thrown by backend calls whose interface has no status (write, read, allocate).
class VulkanError : public std::runtime_error {
 public:
  VulkanError(const char* what_failed, VkResult result);
  VkResult result() const { return result_; }

 private:
  VkResult result_;
};

inline void check(VkResult result, const char* what_failed) {
  if (result != VK_SUCCESS) throw VulkanError(what_failed, result);
}

// A VkBuffer with its own memory; the building block of device buffers and
// staging buffers. Move-only; frees itself.
class RawBuffer {
 public:
  RawBuffer() = default;
  RawBuffer(VkDevice device, VkBuffer buffer, VkDeviceMemory memory, VkDeviceSize size,
            void* mapped, bool coherent);
  RawBuffer(RawBuffer&& other) noexcept;
  RawBuffer& operator=(RawBuffer&& other) noexcept;
  RawBuffer(const RawBuffer&) = delete;
  RawBuffer& operator=(const RawBuffer&) = delete;
  ~RawBuffer();

  VkBuffer buffer() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  // Host pointer to the whole buffer, nullptr when the memory is not host-visible.
  std::byte* mapped() const { return static_cast<std::byte*>(mapped_); }
  // Make host writes visible to the device / device writes visible to the host
  // (no-ops on coherent memory).
  void flush_host_writes() const;
  void invalidate_for_host_reads() const;

 private:
  void release() noexcept;
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

// Where a buffer's memory comes from.
enum class MemoryKind {
  kDevice,   // the tensor's home: device-local when the device has it, mapped when possible
  kStaging,  // host-visible, for copies to and from device-only memory
};

class VulkanDevice {
 public:
  // Returns nullptr and sets *why when there is no loader/ICD/usable device.
  static std::shared_ptr<VulkanDevice> create(const VulkanOptions& options, std::string* why);
  ~VulkanDevice();
  VulkanDevice(const VulkanDevice&) = delete;
  VulkanDevice& operator=(const VulkanDevice&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_; }
  VkDevice device() const { return device_; }
  uint32_t queue_family() const { return queue_family_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const std::string& driver_description() const { return driver_description_; }
  uint32_t timestamp_valid_bits() const { return timestamp_valid_bits_; }
  // True when tensors live in memory the host cannot map (copies go through staging).
  bool tensors_need_staging() const { return tensors_need_staging_; }

  RawBuffer create_buffer(VkDeviceSize size, MemoryKind kind);
  // VK_LAYER_OPRIG_guard_bands, when it could be enabled (else inactive, and
  // guard_layer_problem() says why).
  const GuardLayerClient& guard_layer() const { return guard_layer_; }
  const std::string& guard_layer_problem() const { return guard_layer_problem_; }

  // Records `record` into the device's one command buffer, submits it and waits.
  // Serialised: the queue and command buffer are shared by all callers.
  void submit_and_wait(const std::function<void(VkCommandBuffer)>& record);

  // The lock and command buffer behind submit_and_wait, for callers (execute)
  // that need to run their own code between recording and waiting.
  std::mutex& queue_mutex() { return queue_mutex_; }
  VkCommandBuffer command_buffer() const { return command_buffer_; }
  // Submits the (ended) command buffer and waits for it. Caller holds queue_mutex.
  VkResult submit_locked_and_wait();
  // Submits another (ended) command buffer signalling `fence`, under
  // queue_mutex, then waits for the fence (not holding the lock) and resets
  // it. For streams, which own their command buffers.
  VkResult submit_and_wait(VkCommandBuffer cmd, VkFence fence);

 private:
  VulkanDevice() = default;
  std::optional<uint32_t> pick_memory_type(uint32_t allowed_types, MemoryKind kind) const;

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  std::string driver_description_;
  uint32_t timestamp_valid_bits_ = 0;
  bool tensors_need_staging_ = false;
  bool force_staging_ = false;

  GuardLayerClient guard_layer_;
  std::string guard_layer_problem_;
  std::mutex queue_mutex_;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

// Two timestamp queries around recorded work.
class TimestampPair {
 public:
  TimestampPair(VkDevice device, uint32_t valid_bits, float period_ns);
  ~TimestampPair();
  TimestampPair(const TimestampPair&) = delete;
  TimestampPair& operator=(const TimestampPair&) = delete;

  bool available() const { return pool_ != VK_NULL_HANDLE; }
  void record_begin(VkCommandBuffer cmd) const;
  void record_end(VkCommandBuffer cmd) const;
  // Nanoseconds between the two timestamps of the last completed submission.
  std::optional<double> elapsed_ns() const;

 private:
  VkDevice device_;
  uint64_t valid_mask_;
  double period_ns_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
};

}  // namespace oprig::vulkan
