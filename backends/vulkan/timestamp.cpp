// Device time of one submission from two timestamp queries. Only the bits the
// queue family declares valid are used, so a counter that wrapped between the
// two writes still gives the right difference.
#include "vulkan/vulkan_device.hpp"

namespace oprig::vulkan {

TimestampPair::TimestampPair(VkDevice device, uint32_t valid_bits, float period_ns)
    : device_(device),
      valid_mask_(valid_bits >= 64 ? ~0ull : (1ull << valid_bits) - 1),
      period_ns_(period_ns) {
  if (valid_bits == 0) return;  // this queue cannot write timestamps: host time is used instead
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2;
  if (vkCreateQueryPool(device_, &info, nullptr, &pool_) != VK_SUCCESS) pool_ = VK_NULL_HANDLE;
}

TimestampPair::~TimestampPair() {
  if (pool_ != VK_NULL_HANDLE) vkDestroyQueryPool(device_, pool_, nullptr);
}

void TimestampPair::record_begin(VkCommandBuffer cmd) const {
  if (pool_ == VK_NULL_HANDLE) return;
  vkCmdResetQueryPool(cmd, pool_, 0, 2);
  // TOP_OF_PIPE: written as soon as the commands before it have started,
  // i.e. before the kernel's first dispatch begins.
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool_, 0);
}

void TimestampPair::record_end(VkCommandBuffer cmd) const {
  if (pool_ == VK_NULL_HANDLE) return;
  // BOTTOM_OF_PIPE: written once every earlier command has completed.
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 1);
}

std::optional<double> TimestampPair::elapsed_ns() const {
  if (pool_ == VK_NULL_HANDLE) return std::nullopt;
  uint64_t ticks[2] = {0, 0};
  const VkResult r = vkGetQueryPoolResults(device_, pool_, 0, 2, sizeof ticks, ticks,
                                           sizeof(uint64_t),
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  if (r != VK_SUCCESS) return std::nullopt;
  const uint64_t delta = (ticks[1] - ticks[0]) & valid_mask_;
  return static_cast<double>(delta) * period_ns_;
}

}  // namespace oprig::vulkan
