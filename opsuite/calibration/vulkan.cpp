// org.oprig.calibration on the vulkan backend: liboprig_calibration_vulkan.so.
// One compute pipeline per kernel instance from the embedded SPIR-V
// (copy.comp, triad.comp, fma.comp, compiled by glslc at build time); execute
// records one dispatch and a barrier into the host's command buffer, which
// the host brackets with timestamps, submits and waits for, as for any op.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <vector>

#include "calibration_kernel.hpp"
#include "calibration_copy_spv.h"
#include "calibration_fma_spv.h"
#include "calibration_triad_spv.h"

struct oprig_kernel {
  oprig::calibration::Op op = oprig::calibration::Op::kCopy;
  oprig::calibration::Params params;
  VkDevice device = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  uint32_t bindings = 2;
  uint32_t max_groups = 1;
  VkDeviceSize max_range = 0;
  uint32_t fma_groups = 1;
  uint32_t fma_local = 64;  // FmaPeak's local size and chains per invocation (fma.comp)
  uint32_t fma_chains = 8;
  uint64_t count = 0;
  ~oprig_kernel() {
    if (pipeline) vkDestroyPipeline(device, pipeline, nullptr);
    if (pool) vkDestroyDescriptorPool(device, pool, nullptr);
    if (pipeline_layout) vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
    if (set_layout) vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
    if (module) vkDestroyShaderModule(device, module, nullptr);
  }
};

namespace oprig::calibration {
namespace {

constexpr uint32_t kLocalSize = 64;  // Copy and Triad (copy.comp, triad.comp)

struct PushConstants {
  uint32_t count;  // vec4s (Copy, Triad) or iterations (FmaPeak)
  float scalar;
};

VkBuffer buffer_of(const oprig_tensor& tensor) {
#if VK_USE_64_BIT_PTR_DEFINES == 1
  return reinterpret_cast<VkBuffer>(tensor.data);
#else
  return static_cast<VkBuffer>(reinterpret_cast<uintptr_t>(tensor.data));
#endif
}

// FmaPeak's specialization constants: 0 the local size, 1 WIDE (16 chains).
struct FmaSpecialization {
  uint32_t local_size;
  VkBool32 wide;
};

oprig_status build(oprig_kernel& k, const unsigned char* spirv, size_t spirv_size,
                   const VkSpecializationInfo* specialization = nullptr) {
  std::vector<uint32_t> words(spirv_size / sizeof(uint32_t));
  std::memcpy(words.data(), spirv, words.size() * sizeof(uint32_t));
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * sizeof(uint32_t);
  module_info.pCode = words.data();
  if (vkCreateShaderModule(k.device, &module_info, nullptr, &k.module) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;

  VkDescriptorSetLayoutBinding bindings[3] = {};
  for (uint32_t b = 0; b < k.bindings; ++b)
    bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = k.bindings;
  set_info.pBindings = bindings;
  if (vkCreateDescriptorSetLayout(k.device, &set_info, nullptr, &k.set_layout) != VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(PushConstants)};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &k.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  if (vkCreatePipelineLayout(k.device, &layout_info, nullptr, &k.pipeline_layout) != VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, k.bindings};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  if (vkCreateDescriptorPool(k.device, &pool_info, nullptr, &k.pool) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate.descriptorPool = k.pool;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &k.set_layout;
  if (vkAllocateDescriptorSets(k.device, &allocate, &k.set) != VK_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = k.module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = specialization;
  info.layout = k.pipeline_layout;
  if (vkCreateComputePipelines(k.device, VK_NULL_HANDLE, 1, &info, nullptr, &k.pipeline) != VK_SUCCESS)
    return OPRIG_STATUS_BACKEND_ERROR;
  return OPRIG_STATUS_OK;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_VULKAN || ctx->vk_device == nullptr ||
      ctx->vk_physical_device == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  Op op;
  if (!op_from_name(op_name, &op)) return OPRIG_STATUS_UNSUPPORTED;
  auto* k = new (std::nothrow) oprig_kernel;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->op = op;
  k->device = static_cast<VkDevice>(ctx->vk_device);
  if (!read_params(op, params, num_params, &k->params)) {
    delete k;
    return OPRIG_STATUS_UNSUPPORTED;
  }
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx->vk_physical_device), &properties);
  k->max_groups = properties.limits.maxComputeWorkGroupCount[0];
  k->max_range = properties.limits.maxStorageBufferRange;
  // FmaPeak: on a CPU driver 32 workgroups of 64 (a few per host thread) and
  // 8 chains. A GPU: work-groups of 256 (or the device's largest, if
  // smaller), 16 chains, and 16384 groups: core Vulkan does not say how many
  // compute units there are, and so many groups are over a dozen waves on
  // any GPU (an H100: 8 groups of 256 resident per SM), so the last, partly
  // filled one costs a few percent; 8192 groups of 64 were 2.25 waves there.
  if (properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
    k->fma_groups = 32;
  } else {
    k->fma_local = std::min({256u, properties.limits.maxComputeWorkGroupSize[0],
                             properties.limits.maxComputeWorkGroupInvocations});
    k->fma_chains = 16;
    k->fma_groups = std::min(k->max_groups, 16384u);
  }
  oprig_status status = OPRIG_STATUS_OK;
  if (op == Op::kCopy) status = build(*k, calibration_copy_spirv, calibration_copy_spirv_size);
  if (op == Op::kTriad) {
    k->bindings = 3;
    status = build(*k, calibration_triad_spirv, calibration_triad_spirv_size);
  }
  if (op == Op::kFmaPeak) {
    const FmaSpecialization values{k->fma_local, k->fma_chains == 16 ? VK_TRUE : VK_FALSE};
    const VkSpecializationMapEntry entries[2] = {{0, offsetof(FmaSpecialization, local_size), sizeof(uint32_t)},
                                                 {1, offsetof(FmaSpecialization, wide), sizeof(VkBool32)}};
    const VkSpecializationInfo specialization{2, entries, sizeof values, &values};
    status = build(*k, calibration_fma_spirv, calibration_fma_spirv_size, &specialization);
  }
  if (status != OPRIG_STATUS_OK) {
    delete k;
    return status;
  }
  *out_kernel = k;
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->op == Op::kFmaPeak)
    return prepare_fma(inputs, num_inputs, outputs, num_outputs, uint64_t{k->fma_groups} * k->fma_local);
  const oprig_status status = prepare_streaming(k->op, inputs, num_inputs, outputs, num_outputs, &k->count);
  if (status != OPRIG_STATUS_OK) return status;
  // One binding covers a whole tensor, and the shader counts vec4s in 32 bits.
  if (k->count * 4 > k->max_range || k->count / 4 > UINT32_MAX) return OPRIG_STATUS_UNSUPPORTED;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (k == nullptr || inputs == nullptr || outputs == nullptr || info == nullptr || info->vk_command_buffer == nullptr ||
      num_outputs != 1 || num_inputs != inputs_of(k->op))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  VkDescriptorBufferInfo buffers[3] = {};
  for (size_t i = 0; i < num_inputs; ++i) buffers[i] = {buffer_of(inputs[i]), inputs[i].offset, inputs[i].bytes};
  buffers[num_inputs] = {buffer_of(outputs[0]), outputs[0].offset, outputs[0].bytes};
  VkWriteDescriptorSet writes[3] = {};
  for (uint32_t b = 0; b < k->bindings; ++b) {
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = k->set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &buffers[b];
  }
  vkUpdateDescriptorSets(k->device, k->bindings, writes, 0, nullptr);
  VkCommandBuffer cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline_layout, 0, 1, &k->set, 0, nullptr);
  PushConstants push{0, k->params.scalar};
  uint32_t groups = 1;
  if (k->op == Op::kFmaPeak) {
    push.count = k->params.iterations;
    groups = k->fma_groups;
  } else {
    push.count = static_cast<uint32_t>(k->count / 4);
    groups = static_cast<uint32_t>(std::min<uint64_t>((push.count + kLocalSize - 1) / kLocalSize, k->max_groups));
    if (groups == 0) return OPRIG_STATUS_OK;
  }
  vkCmdPushConstants(cmd, k->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  vkCmdDispatch(cmd, groups, 1, 1);
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = buffers[num_inputs].buffer;
  barrier.offset = buffers[num_inputs].offset;
  barrier.size = buffers[num_inputs].range;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 0, nullptr, 1, &barrier, 0, nullptr);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* k) { delete k; }

oprig_status cost(const oprig_kernel* k, oprig_cost* out) {
  if (out == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out = oprig_cost{};
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->op == Op::kFmaPeak) {
    const uint64_t invocations = uint64_t{k->fma_groups} * k->fma_local;
    *out = {invocations * k->params.iterations * k->fma_chains * 2, 8, invocations * 4};
  } else {
    *out = streaming_cost(k->op, k->count);
  }
  return OPRIG_STATUS_OK;
}

const oprig_implementation_v1 kVulkan = {OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_VULKAN,
                                         create, prepare, execute, destroy, cost, nullptr, {}};

}  // namespace
}  // namespace oprig::calibration

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (backend_kind != OPRIG_BACKEND_VULKAN || max_version < OPRIG_ABI_VERSION) return nullptr;
  return &oprig::calibration::kVulkan;
}
