// Atan, vulkan: the pipeline around vulkan.comp (embedded SPIR-V) and the
// recording of one dispatch into the host's command buffer.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <string_view>
#include <vector>

#include "common/kernel.hpp"
#include "atan_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_atan__vulkan;

namespace {

constexpr uint32_t kLocalSize = 64;        // invocations per workgroup (spec constant 0)
constexpr uint64_t kFlopsPerElement = 18;  // add, divide, 2 reduction adds, z, 4+4 polynomial, 4 to reassemble

// Numbers from the SPIR-V specification (SPV_KHR_float_controls).
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kCapabilityDenormPreserve = 4464;
constexpr uint32_t kCapabilitySignedZeroInfNanPreserve = 4466;
constexpr uint32_t kModeDenormPreserve = 4459;
constexpr uint32_t kModeSignedZeroInfNanPreserve = 4461;

struct PushConstants {
  uint32_t count;
  float offset;
};

struct AtanVulkan : KernelBase {
  VkDevice device = VK_NULL_HANDLE;
  float offset = 0.0f;
  uint32_t max_groups = 1;
  VkDeviceSize max_range = 0;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkPipeline pipeline_f32 = VK_NULL_HANDLE;
  VkPipeline pipeline_f16 = VK_NULL_HANDLE;
  // From the last prepare.
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  uint64_t count = 0;
};

uint64_t element_size(oprig_dtype dtype) { return dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4; }

VkBuffer buffer_of(const oprig_tensor& tensor) {
#if VK_USE_64_BIT_PTR_DEFINES == 1
  return reinterpret_cast<VkBuffer>(tensor.data);
#else
  return static_cast<VkBuffer>(reinterpret_cast<uintptr_t>(tensor.data));
#endif
}

// Which of the float-controls requests in vulkan.comp this device honours.
struct FloatControls {
  bool denorm_preserve = false;
  bool signed_zero_inf_nan_preserve = false;
};

FloatControls float_controls_of(VkPhysicalDevice physical) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical, &properties);
  if (properties.apiVersion < VK_API_VERSION_1_2) return {};
  VkPhysicalDeviceFloatControlsProperties controls{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties2.pNext = &controls;
  vkGetPhysicalDeviceProperties2(physical, &properties2);
  return {controls.shaderDenormPreserveFloat32 == VK_TRUE,
          controls.shaderSignedZeroInfNanPreserveFloat32 == VK_TRUE};
}

// Removes the float-controls capabilities and execution modes the device does
// not support (asking for them there is invalid). The shader is correct
// without them; they only let a capable driver skip nothing it should keep.
bool strip_unsupported_float_controls(std::vector<uint32_t>& words, FloatControls supported) {
  constexpr size_t kHeaderWords = 5;
  if (words.size() < kHeaderWords) return false;
  std::vector<uint32_t> kept(words.begin(), words.begin() + kHeaderWords);
  for (size_t i = kHeaderWords; i < words.size();) {
    const uint32_t opcode = words[i] & 0xffffu;
    const uint32_t length = words[i] >> 16;
    if (length == 0 || i + length > words.size()) return false;
    bool drop = false;
    if (opcode == kOpCapability && length >= 2) {
      drop = (words[i + 1] == kCapabilityDenormPreserve && !supported.denorm_preserve) ||
             (words[i + 1] == kCapabilitySignedZeroInfNanPreserve &&
              !supported.signed_zero_inf_nan_preserve);
    } else if (opcode == kOpExecutionMode && length >= 3) {
      drop = (words[i + 2] == kModeDenormPreserve && !supported.denorm_preserve) ||
             (words[i + 2] == kModeSignedZeroInfNanPreserve &&
              !supported.signed_zero_inf_nan_preserve);
    } else if (opcode == kOpExtension && length >= 2) {
      const char* name = reinterpret_cast<const char*>(&words[i + 1]);
      const size_t max_chars = (length - 1) * sizeof(uint32_t);
      drop = std::string_view(name, strnlen(name, max_chars)) == "SPV_KHR_float_controls" &&
             !supported.denorm_preserve && !supported.signed_zero_inf_nan_preserve;
    }
    if (!drop) kept.insert(kept.end(), words.begin() + i, words.begin() + i + length);
    i += length;
  }
  words = std::move(kept);
  return true;
}

void destroy_kernel(oprig_kernel* handle) {
  AtanVulkan* kernel = from_handle<AtanVulkan>(handle);
  if (kernel == nullptr) return;
  VkDevice device = kernel->device;
  if (kernel->pipeline_f32) vkDestroyPipeline(device, kernel->pipeline_f32, nullptr);
  if (kernel->pipeline_f16) vkDestroyPipeline(device, kernel->pipeline_f16, nullptr);
  if (kernel->pool) vkDestroyDescriptorPool(device, kernel->pool, nullptr);  // frees the set
  if (kernel->pipeline_layout) vkDestroyPipelineLayout(device, kernel->pipeline_layout, nullptr);
  if (kernel->set_layout) vkDestroyDescriptorSetLayout(device, kernel->set_layout, nullptr);
  if (kernel->module) vkDestroyShaderModule(device, kernel->module, nullptr);
  delete kernel;
}

oprig_status create_objects(AtanVulkan& kernel, VkPhysicalDevice physical) {
  std::vector<uint32_t> words(atan_vulkan_spirv_size / sizeof(uint32_t));
  std::memcpy(words.data(), atan_vulkan_spirv, words.size() * sizeof(uint32_t));
  if (!strip_unsupported_float_controls(words, float_controls_of(physical)))
    return OPRIG_STATUS_INTERNAL;
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * sizeof(uint32_t);
  module_info.pCode = words.data();
  if (vkCreateShaderModule(kernel.device, &module_info, nullptr, &kernel.module) != VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;

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
  if (vkCreateDescriptorSetLayout(kernel.device, &set_info, nullptr, &kernel.set_layout) !=
      VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;

  const VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(PushConstants)};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &kernel.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push_range;
  if (vkCreatePipelineLayout(kernel.device, &layout_info, nullptr, &kernel.pipeline_layout) !=
      VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;

  // One set per kernel instance, rewritten at each execute: the host waits for
  // every submission, so the set is never in use while it is updated.
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  if (vkCreateDescriptorPool(kernel.device, &pool_info, nullptr, &kernel.pool) != VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;
  VkDescriptorSetAllocateInfo allocate_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate_info.descriptorPool = kernel.pool;
  allocate_info.descriptorSetCount = 1;
  allocate_info.pSetLayouts = &kernel.set_layout;
  if (vkAllocateDescriptorSets(kernel.device, &allocate_info, &kernel.set) != VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;
  return OPRIG_STATUS_OK;
}

// Compiles the pipeline for one dtype (spec constant 1) on first use.
oprig_status ensure_pipeline(AtanVulkan& kernel, oprig_dtype dtype) {
  VkPipeline& pipeline = dtype == OPRIG_DTYPE_FLOAT_16 ? kernel.pipeline_f16 : kernel.pipeline_f32;
  if (pipeline != VK_NULL_HANDLE) return OPRIG_STATUS_OK;
  struct SpecData {
    uint32_t local_size;
    VkBool32 half;
  } const data{kLocalSize, dtype == OPRIG_DTYPE_FLOAT_16 ? VK_TRUE : VK_FALSE};
  const VkSpecializationMapEntry entries[2] = {
      {0, offsetof(SpecData, local_size), sizeof(uint32_t)},
      {1, offsetof(SpecData, half), sizeof(VkBool32)}};
  VkSpecializationInfo spec{2, entries, sizeof data, &data};
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = kernel.module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &spec;
  info.layout = kernel.pipeline_layout;
  if (vkCreateComputePipelines(kernel.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) !=
      VK_SUCCESS) {
    pipeline = VK_NULL_HANDLE;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  return OPRIG_STATUS_OK;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->vk_device == nullptr || ctx->vk_physical_device == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  AtanVulkan* kernel = new (std::nothrow) AtanVulkan();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_atan__vulkan;
  kernel->device = static_cast<VkDevice>(ctx->vk_device);
  kernel->offset = static_cast<float>(scalar_param(params, num_params, "offset").value_or(0.0));
  VkPhysicalDevice physical = static_cast<VkPhysicalDevice>(ctx->vk_physical_device);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical, &properties);
  kernel->max_groups = properties.limits.maxComputeWorkGroupCount[0];
  kernel->max_range = properties.limits.maxStorageBufferRange;
  if (properties.limits.maxComputeWorkGroupSize[0] < kLocalSize) {
    destroy_kernel(to_handle(kernel));
    return OPRIG_STATUS_UNSUPPORTED;
  }
  const oprig_status status = create_objects(*kernel, physical);
  if (status != OPRIG_STATUS_OK) {
    destroy_kernel(to_handle(kernel));
    return status;
  }
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

// Bytes a binding covers: whole 32-bit words, as the shader reads them.
VkDeviceSize bound_range(uint64_t bytes) { return (bytes + 3) / 4 * 4; }

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     oprig_tensor* outputs, size_t num_outputs) {
  AtanVulkan& kernel = *from_handle<AtanVulkan>(handle);
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  const auto dtype = static_cast<oprig_dtype>(in.dtype);
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype == OPRIG_DTYPE_INVALID) out.dtype = in.dtype;
  if (out.dtype != in.dtype) return OPRIG_STATUS_UNSUPPORTED;
  if (in.rank > OPRIG_MAX_RANK) return OPRIG_STATUS_INVALID_ARGUMENT;
  for (uint32_t d = 0; d < in.rank; ++d)
    if (in.dims[d] < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  out.rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, out.dims);
  const uint64_t count = element_count(in);
  if (count > UINT32_MAX / 4 || bound_range(count * element_size(dtype)) > kernel.max_range)
    return OPRIG_STATUS_UNSUPPORTED;  // larger than one storage-buffer binding may be
  const oprig_status status = ensure_pipeline(kernel, dtype);
  if (status != OPRIG_STATUS_OK) return status;
  kernel.dtype = dtype;
  kernel.count = count;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  AtanVulkan& kernel = *from_handle<AtanVulkan>(handle);
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr ||
      info == nullptr || info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (kernel.dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (kernel.count == 0) return OPRIG_STATUS_OK;  // nothing to record
  const uint64_t bytes = kernel.count * element_size(kernel.dtype);
  if (inputs[0].data == nullptr || outputs[0].data == nullptr || inputs[0].bytes < bytes ||
      outputs[0].bytes < bytes)
    return OPRIG_STATUS_INVALID_ARGUMENT;

  const VkDescriptorBufferInfo buffers[2] = {
      {buffer_of(inputs[0]), inputs[0].offset, bound_range(bytes)},
      {buffer_of(outputs[0]), outputs[0].offset, bound_range(bytes)}};
  VkWriteDescriptorSet writes[2] = {};
  for (uint32_t b = 0; b < 2; ++b) {
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = kernel.set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &buffers[b];
  }
  vkUpdateDescriptorSets(kernel.device, 2, writes, 0, nullptr);

  VkCommandBuffer cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  VkPipeline pipeline =
      kernel.dtype == OPRIG_DTYPE_FLOAT_16 ? kernel.pipeline_f16 : kernel.pipeline_f32;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline_layout, 0, 1,
                          &kernel.set, 0, nullptr);
  const PushConstants push{static_cast<uint32_t>(kernel.count), kernel.offset};
  vkCmdPushConstants(cmd, kernel.pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                     &push);
  // One invocation per 16 bytes (at least one, for the tail); the shader's
  // grid-stride loop covers what the workgroup-count limit leaves over.
  const uint64_t invocations = std::max<uint64_t>(1, bytes / 16);
  const uint64_t groups = std::min<uint64_t>((invocations + kLocalSize - 1) / kLocalSize,
                                             kernel.max_groups);
  vkCmdDispatch(cmd, static_cast<uint32_t>(groups), 1, 1);

  // Results go to the host (mapped reads or staging copies) or to the next kernel.
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask =
      VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = buffer_of(outputs[0]);
  barrier.offset = outputs[0].offset;
  barrier.size = bound_range(bytes);
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 0, nullptr, 1, &barrier, 0, nullptr);
  return OPRIG_STATUS_OK;
}

oprig_status cost(const oprig_kernel* handle, oprig_cost* out_cost) {
  const AtanVulkan& kernel = *from_handle<AtanVulkan>(handle);
  const uint64_t bytes = kernel.count * element_size(kernel.dtype);
  out_cost->flops = kernel.count * kFlopsPerElement;
  out_cost->bytes_read = bytes;
  out_cost->bytes_written = bytes;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_atan__vulkan = {"Atan", create, prepare, execute, destroy_kernel, cost};

}  // namespace oprig::opsuite
