// LeakyRelu on the vulkan backend, as the vendor of the walkthrough writes it
// over the stub: create() makes the pipelines of acmeops.comp (SPIR-V embedded
// by oprig_add_package as acmeops_spirv) on the host's device, one per dtype
// (specialisation constant 0), execute() records one dispatch and a barrier
// into the host's command buffer; the host submits, waits and times it.
#include <oprig/oprig_package.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "acmeops_spv.h"
#include "leaky_relu_params.hpp"

namespace {

constexpr uint32_t kLocalSize = 64;  // local_size_x of acmeops.comp

// The injected bug of the walkthrough reaches the shader as specialisation
// constant 1 when this file is compiled with -DWALKTHROUGH_BUG=1.
#if defined(WALKTHROUGH_BUG) && WALKTHROUGH_BUG
constexpr VkBool32 kDropAlpha = VK_TRUE;
#else
constexpr VkBool32 kDropAlpha = VK_FALSE;
#endif

struct PushConstants {
  uint32_t count;
  float alpha;
};

struct Kernel {
  VkDevice device = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkPipeline f32 = VK_NULL_HANDLE;
  VkPipeline f16 = VK_NULL_HANDLE;
  uint32_t max_groups = 1;
  VkDeviceSize max_range = 0;
  float alpha = acme::kDefaultAlpha;
  uint32_t dtype = OPRIG_DTYPE_INVALID;
  size_t count = 0;

  ~Kernel() {
    if (f32 != VK_NULL_HANDLE) vkDestroyPipeline(device, f32, nullptr);
    if (f16 != VK_NULL_HANDLE) vkDestroyPipeline(device, f16, nullptr);
    if (pool != VK_NULL_HANDLE) vkDestroyDescriptorPool(device, pool, nullptr);  // frees the set
    if (pipeline_layout != VK_NULL_HANDLE) vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
    if (set_layout != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
    if (module != VK_NULL_HANDLE) vkDestroyShaderModule(device, module, nullptr);
  }
};

VkBuffer buffer_of(const oprig_tensor& tensor) {
#if VK_USE_64_BIT_PTR_DEFINES == 1
  return reinterpret_cast<VkBuffer>(tensor.data);
#else
  return static_cast<VkBuffer>(reinterpret_cast<uintptr_t>(tensor.data));
#endif
}

// The shader reads and writes whole 32-bit words; oprig's buffers extend to
// the next multiple of 4 bytes past a tensor (oprig_package.h).
VkDeviceSize word_range(size_t bytes) { return (bytes + 3) / 4 * 4; }

size_t element_bytes(uint32_t dtype) { return dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4; }

VkPipeline make_pipeline(const Kernel& kernel, bool half) {
  struct Constants {
    VkBool32 half;
    VkBool32 drop_alpha;
  } const constants{half ? VK_TRUE : VK_FALSE, kDropAlpha};
  const VkSpecializationMapEntry entries[2] = {{0, offsetof(Constants, half), sizeof(VkBool32)},
                                               {1, offsetof(Constants, drop_alpha), sizeof(VkBool32)}};
  const VkSpecializationInfo specialization{2, entries, sizeof constants, &constants};
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = kernel.module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = kernel.pipeline_layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  if (vkCreateComputePipelines(kernel.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) != VK_SUCCESS)
    return VK_NULL_HANDLE;
  return pipeline;
}

// Shader module, one descriptor set of two storage buffers, push constants,
// and both pipelines: everything a kernel instance records with.
bool make_objects(Kernel& kernel) {
  // The embedded SPIR-V is an array of bytes; Vulkan wants aligned 32-bit words.
  static_assert(acmeops_spirv_size % sizeof(uint32_t) == 0, "SPIR-V is whole words");
  std::array<uint32_t, acmeops_spirv_size / sizeof(uint32_t)> words;
  std::memcpy(words.data(), acmeops_spirv, words.size() * sizeof(uint32_t));
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * sizeof(uint32_t);
  module_info.pCode = words.data();
  if (vkCreateShaderModule(kernel.device, &module_info, nullptr, &kernel.module) != VK_SUCCESS) return false;

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
  if (vkCreateDescriptorSetLayout(kernel.device, &set_info, nullptr, &kernel.set_layout) != VK_SUCCESS) return false;

  const VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(PushConstants)};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &kernel.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push_range;
  if (vkCreatePipelineLayout(kernel.device, &layout_info, nullptr, &kernel.pipeline_layout) != VK_SUCCESS)
    return false;

  // One set per instance, rewritten at each execute: the host waits for each
  // submission, so the set is never in use while it is rewritten.
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  if (vkCreateDescriptorPool(kernel.device, &pool_info, nullptr, &kernel.pool) != VK_SUCCESS) return false;
  VkDescriptorSetAllocateInfo allocate_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate_info.descriptorPool = kernel.pool;
  allocate_info.descriptorSetCount = 1;
  allocate_info.pSetLayouts = &kernel.set_layout;
  if (vkAllocateDescriptorSets(kernel.device, &allocate_info, &kernel.set) != VK_SUCCESS) return false;

  kernel.f32 = make_pipeline(kernel, false);
  kernel.f16 = make_pipeline(kernel, true);
  return kernel.f32 != VK_NULL_HANDLE && kernel.f16 != VK_NULL_HANDLE;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (std::strcmp(op_name, "LeakyRelu") != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (ctx->vk_device == nullptr || ctx->vk_physical_device == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = new (std::nothrow) Kernel;
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->device = static_cast<VkDevice>(ctx->vk_device);
  if (!acme::read_alpha(params, num_params, &kernel->alpha)) {
    delete kernel;
    return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx->vk_physical_device), &properties);
  kernel->max_groups = properties.limits.maxComputeWorkGroupCount[0];
  kernel->max_range = properties.limits.maxStorageBufferRange;
  if (properties.limits.maxComputeWorkGroupSize[0] < kLocalSize) {
    delete kernel;
    return OPRIG_STATUS_UNSUPPORTED;
  }
  if (!make_objects(*kernel)) {
    delete kernel;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = reinterpret_cast<oprig_kernel*>(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (handle == nullptr || num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = reinterpret_cast<Kernel*>(handle);
  const uint32_t dtype = inputs[0].dtype;
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!acme::same_shape_as_input(inputs[0], outputs[0])) return OPRIG_STATUS_INVALID_ARGUMENT;
  const size_t count = acme::element_count(inputs[0]);
  if (count > UINT32_MAX || word_range(count * element_bytes(dtype)) > kernel->max_range)
    return OPRIG_STATUS_UNSUPPORTED;  // larger than one storage-buffer binding
  kernel->dtype = dtype;
  kernel->count = count;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (handle == nullptr || num_inputs != 1 || num_outputs != 1 || info == nullptr || info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = reinterpret_cast<Kernel*>(handle);
  if (kernel->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // no prepare
  if (kernel->count == 0) return OPRIG_STATUS_OK;
  const size_t bytes = kernel->count * element_bytes(kernel->dtype);
  if (inputs[0].bytes < bytes || outputs[0].bytes < bytes) return OPRIG_STATUS_INVALID_ARGUMENT;

  const VkDescriptorBufferInfo buffers[2] = {{buffer_of(inputs[0]), inputs[0].offset, word_range(bytes)},
                                             {buffer_of(outputs[0]), outputs[0].offset, word_range(bytes)}};
  VkWriteDescriptorSet writes[2] = {};
  for (uint32_t b = 0; b < 2; ++b) {
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = kernel->set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &buffers[b];
  }
  vkUpdateDescriptorSets(kernel->device, 2, writes, 0, nullptr);

  auto cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel->dtype == OPRIG_DTYPE_FLOAT_16 ? kernel->f16 : kernel->f32);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel->pipeline_layout, 0, 1, &kernel->set, 0, nullptr);
  const PushConstants push{static_cast<uint32_t>(kernel->count), kernel->alpha};
  vkCmdPushConstants(cmd, kernel->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  const size_t words = word_range(bytes) / 4;
  const size_t groups = std::min<size_t>((words + kLocalSize - 1) / kLocalSize, kernel->max_groups);
  vkCmdDispatch(cmd, static_cast<uint32_t>(groups), 1, 1);

  // The output is read next by the host (mapped or by a copy) or by the next kernel.
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = buffer_of(outputs[0]);
  barrier.offset = outputs[0].offset;
  barrier.size = word_range(bytes);
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 0, nullptr, 1, &barrier, 0, nullptr);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete reinterpret_cast<Kernel*>(handle); }

const oprig_implementation_v1 kImplementation = {OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_VULKAN,
                                                 create, prepare, execute, destroy, nullptr, nullptr, {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                  uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION && backend_kind == OPRIG_BACKEND_VULKAN ? &kImplementation : nullptr;
}
