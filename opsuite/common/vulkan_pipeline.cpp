#include "common/vulkan_pipeline.hpp"

#include <algorithm>
#include <cstring>

namespace oprig::opsuite {
namespace {

VkBuffer buffer_of(const oprig_tensor& tensor) {
#if VK_USE_64_BIT_PTR_DEFINES == 1
  return reinterpret_cast<VkBuffer>(tensor.data);
#else
  return static_cast<VkBuffer>(reinterpret_cast<uintptr_t>(tensor.data));
#endif
}

VkDeviceSize whole_words(uint64_t bytes) { return std::max<uint64_t>(4, (bytes + 3) / 4 * 4); }

}  // namespace

VulkanPipelines::~VulkanPipelines() {
  if (device_ == VK_NULL_HANDLE) return;
  for (const auto& [key, p] : pipelines_)
    if (p != VK_NULL_HANDLE) vkDestroyPipeline(device_, p, nullptr);
  if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
  if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  for (VkShaderModule m : modules_) vkDestroyShaderModule(device_, m, nullptr);
}

oprig_status VulkanPipelines::init(const oprig_backend_context& ctx, uint32_t bindings, uint32_t push_bytes) {
  if (ctx.vk_device == nullptr || ctx.vk_physical_device == nullptr || bindings > 8)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  device_ = static_cast<VkDevice>(ctx.vk_device);
  VkPhysicalDevice physical = static_cast<VkPhysicalDevice>(ctx.vk_physical_device);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical, &properties);
  // The oprig vulkan backend enables shaderFloat64 wherever the device has it.
  VkPhysicalDeviceFeatures features;
  vkGetPhysicalDeviceFeatures(physical, &features);
  float64_ = features.shaderFloat64 == VK_TRUE;
  max_groups_ = properties.limits.maxComputeWorkGroupCount[0];
  max_range_ = properties.limits.maxStorageBufferRange;
  if (properties.limits.maxComputeWorkGroupSize[0] < kLocalSize ||
      properties.limits.maxPushConstantsSize < push_bytes)
    return OPRIG_STATUS_UNSUPPORTED;
  bindings_ = bindings;
  VkDescriptorSetLayoutBinding binding[8] = {};
  for (uint32_t b = 0; b < bindings; ++b) {
    binding[b].binding = b;
    binding[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    binding[b].descriptorCount = 1;
    binding[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = bindings;
  set_info.pBindings = binding;
  if (vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout_) != VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;
  const VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
  layout_info.pPushConstantRanges = &push_range;
  if (vkCreatePipelineLayout(device_, &layout_info, nullptr, &layout_) != VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bindings};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  if (vkCreateDescriptorPool(device_, &pool_info, nullptr, &pool_) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  VkDescriptorSetAllocateInfo allocate_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate_info.descriptorPool = pool_;
  allocate_info.descriptorSetCount = 1;
  allocate_info.pSetLayouts = &set_layout_;
  if (vkAllocateDescriptorSets(device_, &allocate_info, &set_) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  return OPRIG_STATUS_OK;
}

int VulkanPipelines::add_module(std::span<const unsigned char> spirv) {
  std::vector<uint32_t> words(spirv.size() / sizeof(uint32_t));
  std::memcpy(words.data(), spirv.data(), words.size() * sizeof(uint32_t));
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = words.size() * sizeof(uint32_t);
  info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  if (vkCreateShaderModule(device_, &info, nullptr, &module) != VK_SUCCESS) return -1;
  modules_.push_back(module);
  return static_cast<int>(modules_.size() - 1);
}

VkPipeline VulkanPipelines::pipeline(int module, uint32_t variant) {
  if (module < 0 || static_cast<size_t>(module) >= modules_.size()) return VK_NULL_HANDLE;
  VkPipeline& slot = pipelines_[{module, variant}];
  if (slot != VK_NULL_HANDLE) return slot;
  struct SpecData {
    uint32_t local_size;
    uint32_t variant;
  } const data{kLocalSize, variant};
  const VkSpecializationMapEntry entries[2] = {{0, offsetof(SpecData, local_size), sizeof(uint32_t)},
                                               {1, offsetof(SpecData, variant), sizeof(uint32_t)}};
  VkSpecializationInfo spec{2, entries, sizeof data, &data};
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = modules_[static_cast<size_t>(module)];
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &spec;
  info.layout = layout_;
  if (vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &slot) != VK_SUCCESS)
    slot = VK_NULL_HANDLE;
  return slot;
}

oprig_status VulkanPipelines::record(VkCommandBuffer cmd, VkPipeline pipeline, std::span<const oprig_tensor> tensors,
                                     const void* push, uint32_t push_bytes, uint64_t invocations) {
  if (pipeline == VK_NULL_HANDLE || tensors.size() != bindings_) return OPRIG_STATUS_INVALID_ARGUMENT;
  VkDescriptorBufferInfo buffers[8];
  VkWriteDescriptorSet writes[8] = {};
  for (uint32_t b = 0; b < bindings_; ++b) {
    if (tensors[b].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    buffers[b] = {buffer_of(tensors[b]), tensors[b].offset, whole_words(tensors[b].bytes)};
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = set_;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &buffers[b];
  }
  vkUpdateDescriptorSets(device_, bindings_, writes, 0, nullptr);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  if (push_bytes) vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  const uint64_t groups =
      std::clamp<uint64_t>((invocations + kLocalSize - 1) / kLocalSize, 1, max_groups_);
  vkCmdDispatch(cmd, static_cast<uint32_t>(groups), 1, 1);
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite
