// The vulkan Backend: device info, buffers, copies and timed kernel execution.
#include <chrono>
#include <cstdio>

#include "vulkan/buffer.hpp"
#include "vulkan/stream.hpp"
#include "vulkan/vulkan_backend.hpp"
#include "vulkan/vulkan_device.hpp"

namespace oprig::vulkan {
namespace {

std::string vendor_name(uint32_t vendor_id) {
  switch (vendor_id) {
    case 0x1002: return "AMD";
    case 0x1010: return "Imagination";
    case 0x10de: return "NVIDIA";
    case 0x13b5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x8086: return "Intel";
    case VK_VENDOR_ID_MESA: return "Mesa";
    default: {
      char text[16];
      std::snprintf(text, sizeof text, "0x%04x", vendor_id);
      return text;
    }
  }
}

std::string api_version_text(uint32_t version) {
  return "Vulkan " + std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

double elapsed_ns_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

// Orders everything before it (host writes, staging copies) before the
// kernel's shader reads and writes.
void barrier_before_kernel(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                       nullptr);
}

// Kernels record their own barrier for the host; this one makes the results
// readable even when a vendor's kernel forgets it, so a missing barrier shows
// up on real GPUs as the kernel's bug, not as flaky rig reads.
void barrier_after_kernel(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                       &barrier, 0, nullptr, 0, nullptr);
}

class VulkanBackend final : public Backend {
 public:
  explicit VulkanBackend(std::shared_ptr<VulkanDevice> device)
      : device_(std::move(device)),
        timestamps_(device_->device(), device_->timestamp_valid_bits(),
                    device_->properties().limits.timestampPeriod) {
    const VkPhysicalDeviceProperties& properties = device_->properties();
    info_.backend = "vulkan";
    info_.available = true;
    info_.device_name = properties.deviceName;
    info_.vendor = vendor_name(properties.vendorID);
    info_.driver_version = device_->driver_description();
    info_.api_version = api_version_text(properties.apiVersion);
    // fp16 tensors are stored as packed 32-bit words and converted in the
    // shader (unpackHalf2x16/packHalf2x16), which every device supports; 8-
    // and 16-bit integers likewise as bytes of 32-bit words (bitfieldExtract),
    // so no 8/16-bit storage feature is needed.
    info_.dtypes = {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_INT_8,  OPRIG_DTYPE_INT_16,
                    OPRIG_DTYPE_INT_32,   OPRIG_DTYPE_UINT_8,   OPRIG_DTYPE_UINT_16, OPRIG_DTYPE_UINT_32,
                    OPRIG_DTYPE_BOOL_8};
    info_.deterministic = true;
    info_.device_timer = timestamps_.available();

    context_.struct_size = sizeof(oprig_backend_context);
    context_.kind = OPRIG_BACKEND_VULKAN;
    context_.vk_instance = device_->instance();
    context_.vk_physical_device = device_->physical_device();
    context_.vk_device = device_->device();
    context_.vk_queue_family = device_->queue_family();
  }

  oprig_backend_kind kind() const override { return OPRIG_BACKEND_VULKAN; }
  const DeviceInfo& info() const override { return info_; }
  const oprig_backend_context& context() const override { return context_; }

  std::unique_ptr<DeviceBuffer> allocate(size_t bytes) override {
    return std::make_unique<VulkanBuffer>(device_, bytes);
  }

  double write(DeviceBuffer& dst, std::span<const std::byte> src) override {
    const auto start = std::chrono::steady_clock::now();
    dynamic_cast<VulkanBuffer&>(dst).upload(src);
    return elapsed_ns_since(start);
  }

  double read(const DeviceBuffer& src, std::span<std::byte> dst) override {
    const auto start = std::chrono::steady_clock::now();
    dynamic_cast<const VulkanBuffer&>(src).download(dst);
    return elapsed_ns_since(start);
  }

  oprig_status execute(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                       std::span<const oprig_tensor> inputs, std::span<const oprig_tensor> outputs,
                       ExecTiming& timing) override {
    std::lock_guard lock(device_->queue_mutex());
    VkCommandBuffer cmd = device_->command_buffer();
    if (vkResetCommandBuffer(cmd, 0) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (vkBeginCommandBuffer(cmd, &begin) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
    barrier_before_kernel(cmd);
    timestamps_.record_begin(cmd);

    oprig_execute_info exec_info{};
    exec_info.struct_size = sizeof exec_info;
    exec_info.vk_command_buffer = cmd;
    const oprig_status status = impl.execute(kernel, inputs.data(), inputs.size(), outputs.data(),
                                             outputs.size(), &exec_info);
    if (status != OPRIG_STATUS_OK) {
      vkEndCommandBuffer(cmd);  // left unsubmitted; the next call resets it
      return status;
    }
    timestamps_.record_end(cmd);
    barrier_after_kernel(cmd);
    if (vkEndCommandBuffer(cmd) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;

    const auto start = std::chrono::steady_clock::now();
    if (device_->submit_locked_and_wait() != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
    const double host_ns = elapsed_ns_since(start);
    timing = ExecTiming{};
    timing.compute_ns = timestamps_.elapsed_ns().value_or(host_ns);
    return OPRIG_STATUS_OK;
  }

  std::unique_ptr<DeviceStream> open_stream() override { return vulkan::open_stream(device_); }

 private:
  std::shared_ptr<VulkanDevice> device_;
  TimestampPair timestamps_;
  DeviceInfo info_;
  oprig_backend_context context_{};
};

}  // namespace

std::unique_ptr<Backend> create_backend(const VulkanOptions& options, std::string* why) {
  try {
    std::shared_ptr<VulkanDevice> device = VulkanDevice::create(options, why);
    if (!device) return nullptr;
    return std::make_unique<VulkanBackend>(std::move(device));
  } catch (const std::exception& error) {
    if (why != nullptr) *why = error.what();
    return nullptr;
  }
}

}  // namespace oprig::vulkan
