// DepthwiseConv2D on the vulkan backend: host side of vulkan.comp. prepare()
// checks the shapes (depthwise_geometry.hpp) and plans the tile
// (device_tile.hpp; FLOAT_16 lanes take pairs of output channels);
// execute() records one dispatch of a workgroup per tile and channel block.
#include <vulkan/vulkan.h>

#include <climits>
#include <cstdint>
#include <new>
#include <span>

#include "common/conv_operands.hpp"
#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "depthwise_conv2d/device_tile.hpp"
#include "depthwise_conv2d_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_depthwise_conv2d__vulkan;

namespace {

struct PushConstants {
  uint32_t has_bias, height, width, channels, multiplier, out_h, out_w, kernel_h, kernel_w;
  uint32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_top, pad_left;
  uint32_t tile_h, tile_w, tiles_x, block, patch_h, patch_w, staged;
};

struct DepthwiseVulkan : KernelBase {
  VulkanPipelines pipelines;
  int module = -1;
  depthwise::Params params;
  depthwise::Geometry g;  // from the last successful prepare
  depthwise::DeviceTile tile;
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
  if (k->pipelines.max_shared_bytes() < depthwise::kPatchFloats * sizeof(float)) return OPRIG_STATUS_UNSUPPORTED;
  k->tile = depthwise::plan_device_tile(g, k->params, half ? 2 : 1);
  k->pipeline = k->pipelines.pipeline(k->module, half ? 1u : 0u);
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
  const depthwise::DeviceTile& t = k->tile;
  auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
  const PushConstants push{g.has_bias ? 1u : 0u, u32(g.height), u32(g.width), u32(g.channels), u32(g.multiplier()),
                           u32(g.out_h), u32(g.out_w), u32(g.kh), u32(g.kw), u32(p.stride[0]), u32(p.stride[1]),
                           u32(p.dilation[0]), u32(p.dilation[1]), static_cast<int32_t>(p.pads[0]),
                           static_cast<int32_t>(p.pads[2]), u32(t.tile_h), u32(t.tile_w), u32(t.tiles_x),
                           u32(t.block), u32(t.patch_h), u32(t.patch_w), t.staged ? 1u : 0u};
  return k->pipelines.record_groups(static_cast<VkCommandBuffer>(info->vk_command_buffer), k->pipeline, tensors,
                                    &push, sizeof push, u32(t.blocks), u32(t.tiles), u32(g.batch));
}

void destroy(oprig_kernel* handle) { delete from_handle<DepthwiseVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = depthwise::cost_of(from_handle<const DepthwiseVulkan>(handle)->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_depthwise_conv2d__vulkan = {"DepthwiseConv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
