#include "common/vulkan_code_pipeline.hpp"

#include <algorithm>

#include "common/grid_stride.hpp"

namespace oprig::opsuite {

oprig_status VulkanCodePipeline::create(const oprig_backend_context& ctx, std::span<const unsigned char> spirv,
                                        uint32_t push_bytes) {
  const oprig_status st = pipelines_.init(ctx, 2, push_bytes);
  if (st != OPRIG_STATUS_OK) return st;
  module_ = pipelines_.add_module(spirv);
  return module_ < 0 ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
}

oprig_status VulkanCodePipeline::prepare(uint64_t count, bool is_signed) {
  if (count > UINT32_MAX / 4 || 4 * count > pipelines_.max_range()) return OPRIG_STATUS_UNSUPPORTED;
  is_signed_ = is_signed;
  if (pipelines_.pipeline(module_, is_signed ? 1 : 0) == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
  return OPRIG_STATUS_OK;
}

oprig_status VulkanCodePipeline::record(const oprig_execute_info& info, const oprig_tensor& in,
                                        const oprig_tensor& out, const void* push, uint32_t push_bytes,
                                        uint32_t count) {
  if (count == 0) return OPRIG_STATUS_OK;
  const oprig_tensor tensors[2] = {in, out};
  return pipelines_.record(static_cast<VkCommandBuffer>(info.vk_command_buffer),
                           pipelines_.pipeline(module_, is_signed_ ? 1 : 0), tensors, push, push_bytes,
                           std::min<uint64_t>(count / 4, kGridStrideMaxItems));
}

}  // namespace oprig::opsuite
