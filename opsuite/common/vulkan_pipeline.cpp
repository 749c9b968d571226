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

oprig_status VulkanPipelines::init(const oprig_backend_context& ctx, uint32_t bindings, uint32_t push_bytes,
                                   uint32_t sets) {
  if (ctx.vk_device == nullptr || ctx.vk_physical_device == nullptr || bindings > 8 || sets == 0)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  device_ = static_cast<VkDevice>(ctx.vk_device);
  VkPhysicalDevice physical = static_cast<VkPhysicalDevice>(ctx.vk_physical_device);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical, &properties);
  // The oprig vulkan backend enables shaderFloat64 wherever the device has it.
  VkPhysicalDeviceFeatures features;
  vkGetPhysicalDeviceFeatures(physical, &features);
  float64_ = features.shaderFloat64 == VK_TRUE;
  for (int d = 0; d < 3; ++d) max_groups_[d] = properties.limits.maxComputeWorkGroupCount[d];
  max_range_ = properties.limits.maxStorageBufferRange;
  max_shared_ = properties.limits.maxComputeSharedMemorySize;
  if (properties.apiVersion >= VK_API_VERSION_1_1) {
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties2.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(physical, &properties2);
    subgroup_size_ = std::max<uint32_t>(1, subgroup.subgroupSize);
  }
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
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bindings * sets};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = sets;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  if (vkCreateDescriptorPool(device_, &pool_info, nullptr, &pool_) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  const std::vector<VkDescriptorSetLayout> layouts(sets, set_layout_);
  sets_.assign(sets, VK_NULL_HANDLE);
  VkDescriptorSetAllocateInfo allocate_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate_info.descriptorPool = pool_;
  allocate_info.descriptorSetCount = sets;
  allocate_info.pSetLayouts = layouts.data();
  if (vkAllocateDescriptorSets(device_, &allocate_info, sets_.data()) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
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
  const uint32_t constants[1] = {variant};
  return pipeline(module, constants);
}

VkPipeline VulkanPipelines::pipeline(int module, std::span<const uint32_t> constants) {
  constexpr size_t kMaxConstants = 7;
  if (module < 0 || static_cast<size_t>(module) >= modules_.size() || constants.size() > kMaxConstants)
    return VK_NULL_HANDLE;
  VkPipeline& slot = pipelines_[{module, std::vector<uint32_t>(constants.begin(), constants.end())}];
  if (slot != VK_NULL_HANDLE) return slot;
  uint32_t data[1 + kMaxConstants] = {kLocalSize};
  VkSpecializationMapEntry entries[1 + kMaxConstants];
  const auto count = static_cast<uint32_t>(1 + constants.size());
  for (uint32_t id = 0; id < count; ++id) {
    if (id > 0) data[id] = constants[id - 1];
    entries[id] = {id, id * static_cast<uint32_t>(sizeof(uint32_t)), sizeof(uint32_t)};
  }
  VkSpecializationInfo spec{count, entries, count * sizeof(uint32_t), data};
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

oprig_status VulkanPipelines::bind(VkCommandBuffer cmd, VkPipeline pipeline, std::span<const oprig_tensor> tensors,
                                   const void* push, uint32_t push_bytes, uint32_t set) {
  if (pipeline == VK_NULL_HANDLE || tensors.size() != bindings_ || set >= sets_.size())
    return OPRIG_STATUS_INVALID_ARGUMENT;
  VkDescriptorBufferInfo buffers[8];
  VkWriteDescriptorSet writes[8] = {};
  for (uint32_t b = 0; b < bindings_; ++b) {
    if (tensors[b].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    buffers[b] = {buffer_of(tensors[b]), tensors[b].offset, whole_words(tensors[b].bytes)};
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = sets_[set];
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &buffers[b];
  }
  vkUpdateDescriptorSets(device_, bindings_, writes, 0, nullptr);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets_[set], 0, nullptr);
  if (push_bytes) vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  return OPRIG_STATUS_OK;
}

void VulkanPipelines::barrier_after(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
}

oprig_status VulkanPipelines::record(VkCommandBuffer cmd, VkPipeline pipeline, std::span<const oprig_tensor> tensors,
                                     const void* push, uint32_t push_bytes, uint64_t invocations, uint32_t set) {
  const oprig_status st = bind(cmd, pipeline, tensors, push, push_bytes, set);
  if (st != OPRIG_STATUS_OK) return st;
  const uint64_t groups = std::clamp<uint64_t>((invocations + kLocalSize - 1) / kLocalSize, 1, max_groups_[0]);
  vkCmdDispatch(cmd, static_cast<uint32_t>(groups), 1, 1);
  barrier_after(cmd);
  return OPRIG_STATUS_OK;
}

oprig_status VulkanPipelines::record_groups(VkCommandBuffer cmd, VkPipeline pipeline,
                                            std::span<const oprig_tensor> tensors, const void* push,
                                            uint32_t push_bytes, uint32_t groups_x, uint32_t groups_y,
                                            uint32_t groups_z, uint32_t set) {
  if (groups_x > max_groups_[0] || groups_y > max_groups_[1] || groups_z > max_groups_[2])
    return OPRIG_STATUS_UNSUPPORTED;
  if (groups_x == 0 || groups_y == 0 || groups_z == 0) return OPRIG_STATUS_OK;
  const oprig_status st = bind(cmd, pipeline, tensors, push, push_bytes, set);
  if (st != OPRIG_STATUS_OK) return st;
  vkCmdDispatch(cmd, groups_x, groups_y, groups_z);
  barrier_after(cmd);
  return OPRIG_STATUS_OK;
}

VulkanScratch::~VulkanScratch() { release(); }

void VulkanScratch::release() {
  if (device_ == VK_NULL_HANDLE) return;
  if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  size_ = 0;
}

oprig_status VulkanScratch::reserve(const oprig_backend_context& ctx, uint64_t bytes) {
  if (ctx.vk_device == nullptr || ctx.vk_physical_device == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const VkDeviceSize size = whole_words(bytes);
  if (buffer_ != VK_NULL_HANDLE && size_ >= size) return OPRIG_STATUS_OK;
  release();
  device_ = static_cast<VkDevice>(ctx.vk_device);
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = size;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (vkCreateBuffer(device_, &buffer_info, nullptr, &buffer_) != VK_SUCCESS) {
    buffer_ = VK_NULL_HANDLE;
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  VkMemoryRequirements needs;
  vkGetBufferMemoryRequirements(device_, buffer_, &needs);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(static_cast<VkPhysicalDevice>(ctx.vk_physical_device), &memory);
  // Device-local where the device has such memory (every GPU; lavapipe's one heap is).
  uint32_t chosen = UINT32_MAX;
  for (uint32_t i = 0; i < memory.memoryTypeCount && chosen == UINT32_MAX; ++i)
    if ((needs.memoryTypeBits & (1u << i)) &&
        (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
      chosen = i;
  for (uint32_t i = 0; i < memory.memoryTypeCount && chosen == UINT32_MAX; ++i)
    if (needs.memoryTypeBits & (1u << i)) chosen = i;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = needs.size;
  allocate.memoryTypeIndex = chosen;
  if (chosen == UINT32_MAX || vkAllocateMemory(device_, &allocate, nullptr, &memory_) != VK_SUCCESS) {
    memory_ = VK_NULL_HANDLE;
    release();
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  if (vkBindBufferMemory(device_, buffer_, memory_, 0) != VK_SUCCESS) {
    release();
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  size_ = size;
  return OPRIG_STATUS_OK;
}

oprig_tensor VulkanScratch::tensor(uint64_t bytes) const {
  oprig_tensor t{};
  t.dtype = OPRIG_DTYPE_UINT_32;
  t.rank = 1;
  t.dims[0] = static_cast<int64_t>(std::min<uint64_t>(bytes, size_) / 4);
#if VK_USE_64_BIT_PTR_DEFINES == 1
  t.data = reinterpret_cast<void*>(buffer_);
#else
  t.data = reinterpret_cast<void*>(static_cast<uintptr_t>(buffer_));
#endif
  t.offset = 0;
  t.bytes = std::min<uint64_t>(bytes, size_);
  return t;
}

}  // namespace oprig::opsuite
