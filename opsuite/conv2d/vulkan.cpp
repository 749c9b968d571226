// Conv2D on the vulkan backend: host side of vulkan.comp (NCHW, the spec's
// GPU layout). prepare() checks the shapes (conv_geometry.hpp) and chooses
// the tile as opencl.cpp does for a GPU (a narrow tile for groups of at most
// 16 output channels; the small one when the wide tiles would make fewer than
// 128 workgroups, since Vulkan does not say how many compute units there
// are); no tile has more than 128 invocations, the least
// maxComputeWorkGroupInvocations Vulkan guarantees. execute() records one
// dispatch of a workgroup per tile.
#include <vulkan/vulkan.h>

#include <climits>
#include <cstdint>
#include <new>
#include <span>

#include "common/conv_operands.hpp"
#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "conv2d/conv_geometry.hpp"
#include "conv2d_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_conv2d__vulkan;

namespace {

// vulkan.comp's specialisation: tile and register block (4 pixels x work_c
// channels); local size (tile_p / 4) x (tile_c / work_c), a multiple of tile_p.
struct Tile {
  uint32_t tile_p, tile_c, work_c;
  uint32_t local_x() const { return tile_p / 4; }
  uint32_t local_y() const { return tile_c / work_c; }
  uint32_t shared_bytes() const { return 2 * 16 * (tile_p + tile_c) * 4; }  // two buffers of both tiles
};
constexpr Tile kWide{64, 64, 8};    // 128 invocations
constexpr Tile kSmall{32, 32, 4};   // 64
constexpr Tile kNarrow{64, 16, 4};  // 64, groups of few output channels
constexpr uint32_t kMinGroups = 128;

struct PushConstants {
  uint32_t has_bias, pixels, out_hw, out_w, height, width, c_in, group_in, c_out, group_out, kernel_w, depth;
  uint32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_top, pad_left;
};

struct Conv2DVulkan : KernelBase {
  VulkanPipelines pipelines;
  int module = -1;
  conv2d::Params params;
  conv2d::Geometry g;  // from the last successful prepare
  bool prepared = false;
  Tile tile = kWide;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

uint32_t groups_along(int64_t size, uint32_t tile) { return static_cast<uint32_t>((size + tile - 1) / tile); }

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* k = new (std::nothrow) Conv2DVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_conv2d__vulkan;
  oprig_status st = conv2d::read_params(params, num_params, &k->params) ? OPRIG_STATUS_OK : OPRIG_STATUS_INVALID_ARGUMENT;
  if (st == OPRIG_STATUS_OK) st = k->pipelines.init(*ctx, 4, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->module = k->pipelines.add_module(std::span(conv2d_vulkan_spirv, conv2d_vulkan_spirv_size));
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
  auto* k = from_handle<Conv2DVulkan>(handle);
  k->prepared = false;
  const oprig_status st =
      conv2d::plan(k->params, conv2d::Layout::kNCHW, inputs, num_inputs, outputs, num_outputs, &k->g);
  if (st != OPRIG_STATUS_OK) return st;
  const conv2d::Geometry& g = k->g;
  // 32-bit indices in the shader (signed where padding makes them negative),
  // and one binding has a size limit.
  const uint64_t width = g.dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  for (int64_t count : {static_cast<int64_t>(element_count(inputs[0])), static_cast<int64_t>(element_count(inputs[1])),
                        g.output_elements(), g.depth() + 16})
    if (count > INT_MAX || static_cast<uint64_t>(count) * width > k->pipelines.max_range())
      return OPRIG_STATUS_UNSUPPORTED;
  if (g.group_out <= kNarrow.tile_c) k->tile = kNarrow;
  else if (static_cast<uint64_t>(groups_along(g.pixels(), kWide.tile_p)) * groups_along(g.group_out, kWide.tile_c) *
               static_cast<uint64_t>(k->params.group) >= kMinGroups)
    k->tile = kWide;
  else k->tile = kSmall;
  const Tile& t = k->tile;
  if (t.shared_bytes() > k->pipelines.max_shared_bytes()) return OPRIG_STATUS_UNSUPPORTED;
  const uint32_t constants[6] = {g.dtype == OPRIG_DTYPE_FLOAT_16 ? 1u : 0u, t.tile_p, t.tile_c, t.work_c,
                                 t.local_x(), t.local_y()};
  k->pipeline = k->pipelines.pipeline(k->module, constants);
  if (k->pipeline == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || info->vk_command_buffer == nullptr || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<Conv2DVulkan>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const conv2d::Geometry& g = k->g;
  if (g.output_elements() == 0) return OPRIG_STATUS_OK;
  oprig_tensor tensors[4];
  if (!bound_operands(inputs, num_inputs, outputs, g.has_bias, tensors)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const conv2d::Params& p = k->params;
  auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
  const PushConstants push{g.has_bias ? 1u : 0u, u32(g.pixels()), u32(g.out_h * g.out_w), u32(g.out_w),
                           u32(g.height), u32(g.width), u32(g.c_in), u32(g.group_in), u32(g.c_out),
                           u32(g.group_out), u32(g.kw), u32(g.depth()), u32(p.stride[0]), u32(p.stride[1]),
                           u32(p.dilation[0]), u32(p.dilation[1]), static_cast<int32_t>(g.pad_top),
                           static_cast<int32_t>(g.pad_left)};
  const Tile& t = k->tile;
  return k->pipelines.record_groups(static_cast<VkCommandBuffer>(info->vk_command_buffer), k->pipeline, tensors,
                                    &push, sizeof push, groups_along(g.pixels(), t.tile_p),
                                    groups_along(g.group_out, t.tile_c), u32(p.group));
}

void destroy(oprig_kernel* handle) { delete from_handle<Conv2DVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = conv2d::cost_of(from_handle<const Conv2DVulkan>(handle)->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_conv2d__vulkan = {"Conv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
