// Concat on the vulkan backend: vulkan.comp over the chunks byte_plan.hpp
// plans, one dispatch per execute, output word by word. Up to 7 inputs (one
// binding each, beside the output); more are UNSUPPORTED, as are outputs
// past 32-bit byte offsets or one binding's size limit.
#include <vulkan/vulkan.h>

#include <new>
#include <span>

#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "concat/byte_plan.hpp"
#include "concat_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_concat__vulkan;

namespace {

constexpr size_t kMaxInputs = 7;

struct PushConstants {
  uint32_t total;
  uint32_t row_bytes;
  uint32_t inputs;
  uint32_t chunk[kMaxInputs];
  uint32_t start[kMaxInputs];
};

struct ConcatVulkan : KernelBase {
  VulkanPipelines pipelines;
  int module = -1;
  int64_t axis = 0;
  bool prepared = false;
  ChunkedRows plan;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* k = new (std::nothrow) ConcatVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_concat__vulkan;
  k->axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(0.0));  // spec default 0
  oprig_status st = k->pipelines.init(*ctx, 1 + kMaxInputs, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->module = k->pipelines.add_module(std::span(concat_vulkan_spirv, concat_vulkan_spirv_size));
    if (k->module < 0) st = OPRIG_STATUS_BACKEND_ERROR;
  }
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ConcatVulkan>(handle);
  k->prepared = false;
  if (num_inputs < 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (num_inputs > kMaxInputs) return OPRIG_STATUS_UNSUPPORTED;
  const oprig_status st = concat::plan_rows(concat::Params{k->axis}, inputs, num_inputs, outputs, num_outputs, &k->plan);
  if (st != OPRIG_STATUS_OK) return st;
  if (k->plan.total > UINT32_MAX - 3 || k->plan.total > k->pipelines.max_range()) return OPRIG_STATUS_UNSUPPORTED;
  if (k->pipelines.pipeline(k->module, 0) == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || info->vk_command_buffer == nullptr || inputs == nullptr || outputs == nullptr ||
      num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<ConcatVulkan>(handle);
  if (!k->prepared || num_inputs != k->plan.chunk.size()) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->plan.total == 0) return OPRIG_STATUS_OK;
  PushConstants push{};
  push.total = static_cast<uint32_t>(k->plan.total);
  push.row_bytes = static_cast<uint32_t>(k->plan.row_bytes);
  push.inputs = static_cast<uint32_t>(num_inputs);
  oprig_tensor tensors[1 + kMaxInputs];
  tensors[0] = outputs[0];
  for (size_t i = 0; i < kMaxInputs; ++i) {
    // Unused slots, and an empty input without a buffer, bind another tensor (never read).
    const oprig_tensor& in = inputs[i < num_inputs ? i : 0];
    tensors[1 + i] = in.data != nullptr ? in : outputs[0];
    if (i < num_inputs) {
      push.chunk[i] = static_cast<uint32_t>(k->plan.chunk[i]);
      push.start[i] = static_cast<uint32_t>(k->plan.start[i]);
    }
  }
  return k->pipelines.record(static_cast<VkCommandBuffer>(info->vk_command_buffer), k->pipelines.pipeline(k->module, 0),
                             tensors, &push, sizeof push, (k->plan.total + 3) / 4);
}

void destroy(oprig_kernel* handle) { delete from_handle<ConcatVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ConcatVulkan>(handle);
  *out = {0, k->plan.total, k->plan.total};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_concat__vulkan = {"Concat", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
