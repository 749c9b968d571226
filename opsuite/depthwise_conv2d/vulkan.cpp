// DepthwiseConv2D on the vulkan backend: host side of vulkan.comp. prepare()
// checks the shapes (depthwise_geometry.hpp), plans the grid
// (device_grid.hpp; FLOAT_16 invocations take pairs of output channels at
// least) and makes the pipeline for it; execute() records one dispatch.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <new>
#include <span>

#include "common/conv_operands.hpp"
#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "depthwise_conv2d/device_grid.hpp"
#include "depthwise_conv2d_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_depthwise_conv2d__vulkan;

namespace {

struct PushConstants {
  uint32_t has_bias, height, width, channels, multiplier, out_h, out_w, kernel_h, kernel_w;
  uint32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_top, pad_left;
  uint32_t columns, batch;
};

struct DepthwiseVulkan : KernelBase {
  VulkanPipelines pipelines;
  int module = -1;
  uint32_t max_groups[3] = {1, 1, 1};
  int64_t max_threads = 1;
  depthwise::Params params;
  depthwise::Geometry g;  // from the last successful prepare
  depthwise::DeviceGrid grid;
  bool prepared = false;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* k = new (std::nothrow) DepthwiseVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_depthwise_conv2d__vulkan;
  oprig_status st =
      depthwise::read_params(params, num_params, &k->params) ? OPRIG_STATUS_OK : OPRIG_STATUS_INVALID_ARGUMENT;
  if (st == OPRIG_STATUS_OK) st = k->pipelines.init(*ctx, 4, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->module =
        k->pipelines.add_module(std::span(depthwise_conv2d_vulkan_spirv, depthwise_conv2d_vulkan_spirv_size));
    if (k->module < 0) st = OPRIG_STATUS_BACKEND_ERROR;
  }
  if (st == OPRIG_STATUS_OK) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx->vk_physical_device), &properties);
    const VkPhysicalDeviceLimits& l = properties.limits;
    std::copy(l.maxComputeWorkGroupCount, l.maxComputeWorkGroupCount + 3, k->max_groups);
    k->max_threads = std::min<int64_t>(
        l.maxComputeWorkGroupInvocations, std::min(l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupSize[1]));
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
  auto* k = from_handle<DepthwiseVulkan>(handle);
  k->prepared = false;
  const oprig_status st = depthwise::plan(k->params, inputs, num_inputs, outputs, num_outputs, &k->g);
  if (st != OPRIG_STATUS_OK) return st;
  const depthwise::Geometry& g = k->g;
  const bool half = g.dtype == OPRIG_DTYPE_FLOAT_16;
  const uint64_t width = half ? 2 : 4;
  for (int64_t count : {static_cast<int64_t>(element_count(inputs[0])), static_cast<int64_t>(element_count(inputs[1])),
                        g.output_elements()})
    if (count > INT_MAX || static_cast<uint64_t>(count) * width > k->pipelines.max_range())
      return OPRIG_STATUS_UNSUPPORTED;
  k->grid = depthwise::plan_device_grid(g, half, k->max_threads);
  const depthwise::DeviceGrid& d = k->grid;
  if ((d.vectors + d.local_x - 1) / d.local_x > k->max_groups[0] || d.columns > UINT32_MAX)
    return OPRIG_STATUS_UNSUPPORTED;
  const uint32_t constants[4] = {half ? 1u : 0u, static_cast<uint32_t>(d.vec), static_cast<uint32_t>(d.local_x),
                                 static_cast<uint32_t>(d.local_y)};  // kHalf, kVec, the workgroup
  k->pipeline = k->pipelines.pipeline(k->module, constants);
  if (k->pipeline == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || info->vk_command_buffer == nullptr || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<DepthwiseVulkan>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const depthwise::Geometry& g = k->g;
  if (g.output_elements() == 0) return OPRIG_STATUS_OK;
  oprig_tensor tensors[4];
  if (!bound_operands(inputs, num_inputs, outputs, g.has_bias, tensors)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const depthwise::Params& p = k->params;
  auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
  const depthwise::DeviceGrid& d = k->grid;
  const PushConstants push{g.has_bias ? 1u : 0u, u32(g.height), u32(g.width), u32(g.channels), u32(g.multiplier()),
                           u32(g.out_h), u32(g.out_w), u32(g.kh), u32(g.kw), u32(p.stride[0]), u32(p.stride[1]),
                           u32(p.dilation[0]), u32(p.dilation[1]), static_cast<int32_t>(p.pads[0]),
                           static_cast<int32_t>(p.pads[2]), u32(d.columns), u32(g.batch)};
  // Columns and images beyond the device's workgroup counts: the shader's grid-stride loops.
  const uint64_t groups_y = std::min<uint64_t>((d.columns + d.local_y - 1) / d.local_y, k->max_groups[1]);
  const uint64_t groups_z = std::min<uint64_t>(g.batch, k->max_groups[2]);
  return k->pipelines.record_groups(static_cast<VkCommandBuffer>(info->vk_command_buffer), k->pipeline, tensors,
                                    &push, sizeof push, u32((d.vectors + d.local_x - 1) / d.local_x), u32(groups_y),
                                    u32(groups_z));
}

void destroy(oprig_kernel* handle) { delete from_handle<DepthwiseVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = depthwise::cost_of(from_handle<const DepthwiseVulkan>(handle)->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_depthwise_conv2d__vulkan = {"DepthwiseConv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
