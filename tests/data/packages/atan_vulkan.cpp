// The vulkan kernel of the test packages (OPRIG_TEST_WITH_VULKAN): the
// pipeline around atan_vulkan.comp, with each tensor bound to exactly its
// bytes, as a careful vendor kernel binds it. With OPRIG_TEST_GPU_FAULT =
// kOutOfBounds the shader stores one element past the end of a
// kFaultyElementCount-element output: outside the binding, where a driver
// bounds-checking storage buffers drops it unless the host makes the binding
// reach into its red zone (backends/vulkan/README.md).
#include <vulkan/vulkan.h>

#include <cstring>
#include <new>
#include <vector>

#include "atan_vulkan_spv.h"
#include "oprig/oprig_package.h"
#include "test_package_config.hpp"

const oprig_implementation_v1* oprig_test_vulkan_implementation();

namespace {

constexpr bool kOutOfBounds = OPRIG_TEST_GPU_FAULT == oprig_test::Fault::kOutOfBounds;
constexpr uint32_t kLocalSize = 64;

struct PushConstants {
  uint32_t count;
  uint32_t past_end;
  float offset;
};

struct AtanVulkan {
  VkDevice device = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  float offset = 0;
  uint32_t count = 0;
};

VkBuffer buffer_of(const oprig_tensor& t) {
#if VK_USE_64_BIT_PTR_DEFINES == 1
  return reinterpret_cast<VkBuffer>(t.data);
#else
  return static_cast<VkBuffer>(reinterpret_cast<uintptr_t>(t.data));
#endif
}

float read_offset(const oprig_param* params, size_t num_params) {
  for (size_t i = 0; i < num_params; ++i)
    if (params[i].name != nullptr && std::strcmp(params[i].name, "offset") == 0 &&
        params[i].dtype == OPRIG_DTYPE_FLOAT_32 && params[i].count == 1 && params[i].data != nullptr) {
      float v;
      std::memcpy(&v, params[i].data, sizeof v);
      return v;
    }
  return 0.0f;
}

void destroy(oprig_kernel* handle) {
  auto* k = reinterpret_cast<AtanVulkan*>(handle);
  if (k == nullptr) return;
  if (k->pipeline) vkDestroyPipeline(k->device, k->pipeline, nullptr);
  if (k->pool) vkDestroyDescriptorPool(k->device, k->pool, nullptr);
  if (k->pipeline_layout) vkDestroyPipelineLayout(k->device, k->pipeline_layout, nullptr);
  if (k->set_layout) vkDestroyDescriptorSetLayout(k->device, k->set_layout, nullptr);
  if (k->module) vkDestroyShaderModule(k->device, k->module, nullptr);
  delete k;
}

bool create_objects(AtanVulkan& k) {
  // Copied into words: the embedded bytes need not be 4-byte aligned.
  std::vector<uint32_t> words(atan_vulkan_spirv_size / sizeof(uint32_t));
  std::memcpy(words.data(), atan_vulkan_spirv, words.size() * sizeof(uint32_t));
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * sizeof(uint32_t);
  module_info.pCode = words.data();
  if (vkCreateShaderModule(k.device, &module_info, nullptr, &k.module) != VK_SUCCESS) return false;
  VkDescriptorSetLayoutBinding bindings[2] = {};
  for (uint32_t b = 0; b < 2; ++b) {
    bindings[b].binding = b;
    bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[b].descriptorCount = 1;
    bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 2;
  set_info.pBindings = bindings;
  if (vkCreateDescriptorSetLayout(k.device, &set_info, nullptr, &k.set_layout) != VK_SUCCESS) return false;
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(PushConstants)};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &k.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  if (vkCreatePipelineLayout(k.device, &layout_info, nullptr, &k.pipeline_layout) != VK_SUCCESS) return false;
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = k.module;
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = k.pipeline_layout;
  if (vkCreateComputePipelines(k.device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &k.pipeline) != VK_SUCCESS)
    return false;
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  if (vkCreateDescriptorPool(k.device, &pool_info, nullptr, &k.pool) != VK_SUCCESS) return false;
  VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate.descriptorPool = k.pool;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &k.set_layout;
  return vkAllocateDescriptorSets(k.device, &allocate, &k.set) == VK_SUCCESS;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || op_name == nullptr || ctx->kind != OPRIG_BACKEND_VULKAN || ctx->vk_device == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (std::strcmp(op_name, "Atan") != 0) return OPRIG_STATUS_UNSUPPORTED;
  auto* k = new (std::nothrow) AtanVulkan();
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->device = static_cast<VkDevice>(ctx->vk_device);
  k->offset = read_offset(params, num_params);
  if (!create_objects(*k)) {
    destroy(reinterpret_cast<oprig_kernel*>(k));
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = reinterpret_cast<oprig_kernel*>(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (handle == nullptr || num_inputs < 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != in.dtype || in.rank > OPRIG_MAX_RANK) return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = in.rank;
  uint64_t count = 1;
  for (uint32_t d = 0; d < in.rank; ++d) {
    outputs[0].dims[d] = in.dims[d];
    count *= static_cast<uint64_t>(in.dims[d]);
  }
  reinterpret_cast<AtanVulkan*>(handle)->count = static_cast<uint32_t>(count);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  if (handle == nullptr || num_inputs < 1 || num_outputs != 1 || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = reinterpret_cast<AtanVulkan*>(handle);
  if (k->count == 0) return OPRIG_STATUS_OK;
  const VkDeviceSize bytes = VkDeviceSize{k->count} * sizeof(float);
  // Exactly the tensor: the range a kernel derives from the shapes it was prepared for.
  const VkDescriptorBufferInfo buffers[2] = {{buffer_of(inputs[0]), inputs[0].offset, bytes},
                                             {buffer_of(outputs[0]), outputs[0].offset, bytes}};
  VkWriteDescriptorSet writes[2] = {};
  for (uint32_t b = 0; b < 2; ++b) {
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = k->set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &buffers[b];
  }
  vkUpdateDescriptorSets(k->device, 2, writes, 0, nullptr);
  VkCommandBuffer cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline_layout, 0, 1, &k->set, 0, nullptr);
  const PushConstants push{k->count, kOutOfBounds && k->count == oprig_test::kFaultyElementCount ? 1u : 0u, k->offset};
  vkCmdPushConstants(cmd, k->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  vkCmdDispatch(cmd, (k->count + kLocalSize - 1) / kLocalSize, 1, 1);
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                       nullptr);
  return OPRIG_STATUS_OK;
}

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_VULKAN,
    create, prepare, execute, destroy, /*cost*/ nullptr, /*resolve_shapes*/ nullptr, {}};

}  // namespace

const oprig_implementation_v1* oprig_test_vulkan_implementation() { return &kImplementation; }
