// The vulkan DeviceStream. Enqueued kernels and device copies are recorded
// into the stream's own command buffer, each after a barrier that makes every
// earlier write (shader, transfer, host) visible to it; nothing is submitted
// until the host needs a result. read() submits the batch with the reading
// copy (staging) or a host barrier (mapped memory) at its end and waits once,
// so a loop iteration of several kernels and its condition readback costs one
// submission. write() first completes the batch (a pending kernel may still
// read the old bytes). A kernel instance recorded twice would see its
// descriptor set rewritten before the first dispatch ran, so a second enqueue
// of one instance submits the batch first.
#include "vulkan/stream.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "vulkan/buffer.hpp"

namespace oprig::vulkan {
namespace {

constexpr VkAccessFlags kAnyWrite =
    VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT;
constexpr VkPipelineStageFlags kAnyStage =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT;

void barrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = kAnyWrite;
  b.dstAccessMask = dst_access;
  vkCmdPipelineBarrier(cmd, kAnyStage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
}

const VulkanBuffer& as_vulkan(const DeviceBuffer& buffer) {
  const auto* v = dynamic_cast<const VulkanBuffer*>(&buffer);
  if (v == nullptr) throw std::invalid_argument("vulkan stream: buffer from another backend");
  return *v;
}

class VulkanStream final : public DeviceStream {
 public:
  explicit VulkanStream(std::shared_ptr<VulkanDevice> device) : device_(std::move(device)) {
    VkDevice d = device_->device();
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = device_->queue_family();
    check(vkCreateCommandPool(d, &pool_info, nullptr, &pool_), "vkCreateCommandPool (stream)");
    VkCommandBufferAllocateInfo buffer_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    buffer_info.commandPool = pool_;
    buffer_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    buffer_info.commandBufferCount = 1;
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkResult r = vkAllocateCommandBuffers(d, &buffer_info, &cmd_);
    if (r == VK_SUCCESS) r = vkCreateFence(d, &fence_info, nullptr, &fence_);
    if (r != VK_SUCCESS) {
      destroy();
      throw VulkanError("creating a stream's command buffer and fence", r);
    }
  }
  ~VulkanStream() override {
    if (open_) submit_batch();
    destroy();
  }
  VulkanStream(const VulkanStream&) = delete;
  VulkanStream& operator=(const VulkanStream&) = delete;

  oprig_status enqueue(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                       std::span<const oprig_tensor> inputs,
                       std::span<const oprig_tensor> outputs) override {
    if (std::find(recorded_.begin(), recorded_.end(), kernel) != recorded_.end() &&
        submit_batch() != VK_SUCCESS)
      return OPRIG_STATUS_BACKEND_ERROR;
    if (begin() != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
    barrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    oprig_execute_info info{};
    info.struct_size = sizeof info;
    info.vk_command_buffer = cmd_;
    const oprig_status status =
        impl.execute(kernel, inputs.data(), inputs.size(), outputs.data(), outputs.size(), &info);
    if (status != OPRIG_STATUS_OK) {
      // What the kernel half-recorded must never run: drop the whole batch
      // (the execution fails at this operation anyway).
      vkEndCommandBuffer(cmd_);
      vkResetCommandBuffer(cmd_, 0);
      open_ = false;
      recorded_.clear();
      return status;
    }
    recorded_.push_back(kernel);
    return OPRIG_STATUS_OK;
  }

  void copy(const DeviceBuffer& src, DeviceBuffer& dst, size_t bytes) override {
    if (bytes == 0) return;
    const VulkanBuffer& from = as_vulkan(src);
    const VulkanBuffer& to = as_vulkan(dst);
    check(begin(), "vkBeginCommandBuffer (stream)");
    barrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    const VkBufferCopy region{from.tensor_offset(), to.tensor_offset(), bytes};
    vkCmdCopyBuffer(cmd_, from.handle(), to.handle(), 1, &region);
  }

  void write(DeviceBuffer& dst, std::span<const std::byte> src) override {
    if (open_) check(submit_batch(), "submitting a stream before a write");
    dynamic_cast<VulkanBuffer&>(dst).upload(src);
  }

  void read(const DeviceBuffer& src, std::span<std::byte> dst) override {
    if (dst.empty()) return;
    const VulkanBuffer& from = as_vulkan(src);
    if (!open_) return from.download(dst);
    if (from.host_mapped()) {
      check(submit_batch(), "submitting a stream for a read");
      return from.download(dst);
    }
    // Device-only memory: the copy into staging rides in the same submission.
    if (staging_.size() < dst.size())
      staging_ = device_->create_buffer(std::max<VkDeviceSize>(dst.size(), 256), MemoryKind::kStaging);
    barrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy region{from.tensor_offset(), 0, dst.size()};
    vkCmdCopyBuffer(cmd_, from.handle(), staging_.buffer(), 1, &region);
    check(submit_batch(), "submitting a stream for a read");
    staging_.invalidate_for_host_reads();
    std::memcpy(dst.data(), staging_.mapped(), dst.size());
  }

  oprig_status finish() override {
    if (!open_) return OPRIG_STATUS_OK;
    return submit_batch() == VK_SUCCESS ? OPRIG_STATUS_OK : OPRIG_STATUS_BACKEND_ERROR;
  }

 private:
  VkResult begin() {
    if (open_) return VK_SUCCESS;
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (VkResult r = vkResetCommandBuffer(cmd_, 0); r != VK_SUCCESS) return r;
    if (VkResult r = vkBeginCommandBuffer(cmd_, &info); r != VK_SUCCESS) return r;
    open_ = true;
    return VK_SUCCESS;
  }

  // Ends the batch with a barrier to the host, submits it and waits.
  VkResult submit_batch() {
    if (!open_) return VK_SUCCESS;
    open_ = false;
    recorded_.clear();
    barrier(cmd_, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if (VkResult r = vkEndCommandBuffer(cmd_); r != VK_SUCCESS) return r;
    return device_->submit_and_wait(cmd_, fence_);
  }

  void destroy() {
    VkDevice d = device_->device();
    if (fence_ != VK_NULL_HANDLE) vkDestroyFence(d, fence_, nullptr);
    if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(d, pool_, nullptr);  // frees cmd_
  }

  std::shared_ptr<VulkanDevice> device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  bool open_ = false;
  std::vector<oprig_kernel*> recorded_;  // kernel instances in the open batch
  RawBuffer staging_;                    // for reads of memory the host cannot map
};

}  // namespace

std::unique_ptr<DeviceStream> open_stream(std::shared_ptr<VulkanDevice> device) {
  return std::make_unique<VulkanStream>(std::move(device));
}

}  // namespace oprig::vulkan
