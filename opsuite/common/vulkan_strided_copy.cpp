// The vulkan half of strided_copy_kernel.hpp.
#include "common/strided_copy_kernel.hpp"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <memory>
#include <new>
#include <vector>

#include "common/vulkan_pipeline.hpp"

namespace oprig::opsuite {
namespace {

struct VkStridedCopy : StridedCopyKernel {
  const oprig_backend_context* ctx = nullptr;
  std::span<const unsigned char> spirv;
  std::unique_ptr<VulkanPipelines> pipelines;  // with `sets` descriptor sets
  int module = -1;
  uint32_t sets = 0;
  std::vector<VkPipeline> pipeline_of;  // per block: the one of its unit width
};

// Pipelines with a descriptor set for each of `blocks` dispatches; made
// again (shaders compiled again) only when a prepare needs more sets.
oprig_status reserve_sets(VkStridedCopy& k, size_t blocks) {
  if (k.pipelines != nullptr && k.sets >= blocks) return OPRIG_STATUS_OK;
  const auto sets = static_cast<uint32_t>(std::max<size_t>({blocks, 1, k.sets}));
  auto pipelines = std::unique_ptr<VulkanPipelines>(new (std::nothrow) VulkanPipelines);
  if (pipelines == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  const oprig_status st = pipelines->init(*k.ctx, 2, sizeof(CopyGeometry), sets);
  if (st != OPRIG_STATUS_OK) return st;
  const int module = pipelines->add_module(k.spirv);
  if (module < 0) return OPRIG_STATUS_BACKEND_ERROR;
  k.pipelines = std::move(pipelines);
  k.module = module;
  k.sets = sets;
  return OPRIG_STATUS_OK;
}

size_t tensor_bytes(const oprig_tensor& t) { return element_count(t) * element_bytes(t.dtype); }

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    CopyLayoutFactory layout, std::span<const unsigned char> spirv, const KernelOps* ops,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto k = std::unique_ptr<VkStridedCopy>(new (std::nothrow) VkStridedCopy);
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  oprig_status st = layout(params, num_params, &k->layout);
  if (st != OPRIG_STATUS_OK) return st;
  k->ops = ops;
  k->ctx = ctx;
  k->spirv = spirv;
  st = reserve_sets(*k, 1);  // the device and the shader checked here, not first in prepare
  if (st != OPRIG_STATUS_OK) return st;
  *out_kernel = to_handle(k.release());
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<VkStridedCopy>(handle);
  oprig_status st = k->plan_copies(inputs, num_inputs, outputs, num_outputs, true);
  if (st == OPRIG_STATUS_OK) st = reserve_sets(*k, k->plan.blocks.size());
  if (st != OPRIG_STATUS_OK) return st;
  k->pipeline_of.clear();
  for (size_t i = 0; i < k->plan.blocks.size(); ++i) {
    const CopyBlock& b = k->plan.blocks[i];
    if (std::max(tensor_bytes(inputs[b.src]), tensor_bytes(outputs[b.dst])) > k->pipelines->max_range())
      return OPRIG_STATUS_UNSUPPORTED;
    const VkPipeline pipeline = k->pipelines->pipeline(k->module, k->copies[i].width);
    if (pipeline == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
    k->pipeline_of.push_back(pipeline);
  }
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<VkStridedCopy>(handle);
  if (info == nullptr || info->vk_command_buffer == nullptr || !k->ready(inputs, num_inputs, outputs, num_outputs))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  for (size_t i = 0; i < k->plan.blocks.size(); ++i) {
    const CopyBlock& b = k->plan.blocks[i];
    const CopyGeometry& g = k->copies[i].geometry;
    const oprig_tensor tensors[2] = {outputs[b.dst], inputs[b.src]};
    const oprig_status st =
        k->pipelines->record(cmd, k->pipeline_of[i], tensors, &g, sizeof g, g.units, static_cast<uint32_t>(i));
    if (st != OPRIG_STATUS_OK) return st;
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<VkStridedCopy>(handle); }

}  // namespace

const StridedCopyApi strided_copy_on_vulkan = {create, prepare, execute, destroy};

}  // namespace oprig::opsuite
