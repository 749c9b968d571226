// ArgMax on the vulkan backend: host side of vulkan.glsl, compiled as
// vulkan_subgroup.comp where the device has subgroup shuffles in compute
// shaders and as vulkan.comp elsewhere (common/slice_device_vulkan.hpp
// decides, and caps a team on CPU devices). prepare() plans lines, teams
// and parts (argmax_plan.hpp), makes the pipeline for the input type and
// reserves the parts' ranks; execute() records the reduction (and, with
// parts, the merge, in its own descriptor set). Inputs past 32-bit element
// offsets are UNSUPPORTED.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>
#include <span>

#include "argmax/argmax_plan.hpp"
#include "argmax_vulkan_spv.h"
#include "argmax_vulkan_subgroup_spv.h"
#include "common/kernel.hpp"
#include "common/slice_device_vulkan.hpp"
#include "common/vulkan_pipeline.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_argmax__vulkan;

namespace {

constexpr uint32_t kGroup = 256;  // invocations per workgroup, at most
constexpr uint32_t kMergeType = 3;
// Shared memory per invocation: team_reduce.glsl's int and vec2 scratch.
constexpr uint32_t kSharedBytesPerInvocation = 12;

struct PushConstants {
  uint32_t lines, n, inner, team_log2, lane_fast, part_len, last;
};

struct ArgMaxVulkan : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  VulkanPipelines pipelines;
  int module = -1;
  uint32_t group = 1, max_team = 1, max_groups_x = 1;
  argmax::Params params;
  bool prepared = false;
  argmax::Shape shape;
  argmax::Launch launch, merge_launch;
  VkPipeline reduce = VK_NULL_HANDLE, merge = VK_NULL_HANDLE;
  VulkanScratch partial;
};

uint32_t type_constant(oprig_dtype dtype) {
  return dtype == OPRIG_DTYPE_FLOAT_16 ? 1 : dtype == OPRIG_DTYPE_INT_32 ? 2 : 0;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->vk_physical_device == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) ArgMaxVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_argmax__vulkan;
  k->ctx = ctx;
  k->params = argmax::read_params(params, num_params);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx->vk_physical_device), &properties);
  k->max_groups_x = properties.limits.maxComputeWorkGroupCount[0];
  const VulkanSliceDevice device = vulkan_slice_device(*ctx, kSharedBytesPerInvocation);
  // A whole number of subgroups where the butterflies run (min_group).
  k->group = std::max(std::min(kGroup, device.slices.max_group), device.slices.min_group);
  k->max_team = std::min(k->group, device.slices.max_members);
  oprig_status st = k->pipelines.init(*ctx, 3, sizeof(PushConstants), 2);
  if (st == OPRIG_STATUS_OK) {
    k->module = add_slice_module(k->pipelines, device, std::span(argmax_vulkan_spirv, argmax_vulkan_spirv_size),
                                 std::span(argmax_vulkan_subgroup_spirv, argmax_vulkan_subgroup_spirv_size));
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
  auto* k = from_handle<ArgMaxVulkan>(handle);
  k->prepared = false;
  const oprig_status st = argmax::plan_shape(k->params, inputs, num_inputs, outputs, num_outputs, &k->shape);
  if (st != OPRIG_STATUS_OK) return st;
  const argmax::Shape& s = k->shape;
  if (s.elements() > UINT32_MAX) return OPRIG_STATUS_UNSUPPORTED;
  k->launch = argmax::plan_launch(s, k->group, k->max_team);
  if (k->launch.line_groups > k->max_groups_x) return OPRIG_STATUS_UNSUPPORTED;
  const uint32_t constants[2] = {k->group, type_constant(s.dtype)};
  k->reduce = k->pipelines.pipeline(k->module, constants);
  if (k->reduce == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
  if (k->launch.parts > 1) {
    k->merge_launch = argmax::plan_merge(s, k->group, k->max_team, k->launch.parts);
    const uint32_t merge_constants[2] = {k->group, kMergeType};
    k->merge = k->pipelines.pipeline(k->module, merge_constants);
    if (k->merge == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
    const oprig_status reserved = k->partial.reserve(*k->ctx, s.lines() * k->launch.parts * 8);
    if (reserved != OPRIG_STATUS_OK) return reserved;
  }
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<ArgMaxVulkan>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const argmax::Shape& s = k->shape;
  if (s.lines() == 0) return OPRIG_STATUS_OK;  // an empty output
  auto cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  const argmax::Launch& l = k->launch;
  const uint64_t partial_bytes = s.lines() * l.parts * 8;
  // Without parts the output stands in for the ranks' binding (never written as ranks).
  const oprig_tensor partial = l.parts > 1 ? k->partial.tensor(partial_bytes) : outputs[0];
  const oprig_tensor tensors[3] = {inputs[0], outputs[0], partial};
  const PushConstants push{static_cast<uint32_t>(s.lines()), static_cast<uint32_t>(s.n),
                           static_cast<uint32_t>(s.inner), l.team_log2,
                           l.lane_fast ? 1u : 0u,          l.part_len,
                           k->params.last ? 1u : 0u};
  oprig_status st = k->pipelines.record_groups(cmd, k->reduce, tensors, &push, sizeof push,
                                               static_cast<uint32_t>(l.line_groups), l.parts, 1, 0);
  if (st != OPRIG_STATUS_OK || l.parts == 1) return st;
  const argmax::Launch& m = k->merge_launch;
  const PushConstants merge_push{static_cast<uint32_t>(s.lines()), l.parts, 1, m.team_log2, 1, l.parts,
                                 k->params.last ? 1u : 0u};
  return k->pipelines.record_groups(cmd, k->merge, tensors, &merge_push, sizeof merge_push,
                                    static_cast<uint32_t>(m.line_groups), 1, 1, 1);
}

void destroy(oprig_kernel* handle) { delete from_handle<ArgMaxVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = argmax::cost(from_handle<const ArgMaxVulkan>(handle)->shape);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_argmax__vulkan = {"ArgMax", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
