// Pool2D on the vulkan backend: host side of pool2d.glsl, through
// vulkan_fp64.comp on devices with shaderFloat64 (the backend enables it
// where present) and vulkan.comp elsewhere, where UINT_8 with another output
// quantisation (requantised in double on the cpu) is UNSUPPORTED. prepare()
// plans the output (pool2d/pooling.hpp) and picks the path by how the
// channels fill 32-bit words; execute() records one dispatch.
#include <vulkan/vulkan.h>

#include <bit>
#include <cstdint>
#include <new>
#include <span>

#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "pool2d/pooling.hpp"
#include "pool2d_vulkan_fp64_spv.h"
#include "pool2d_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_pool2d__vulkan;

namespace {

// pool2d.glsl's push constants, in its order.
struct PushConstants {
  uint32_t height, width, channels, out_height, out_width;
  uint32_t kernel_h, kernel_w, stride_h, stride_w, pad_top, pad_left;
  uint32_t count_include_pad, same_quantization;
  int32_t in_zero, out_zero;
  uint32_t groups, group_shift, row_items, total, out_elements;
  float in_scale, out_scale;
};

enum Path : uint32_t { kQuads, kWords, kElements };  // pool2d.glsl's kPath

struct Pool2DVulkan : KernelBase, pool2d::Pooling, pool2d::Geometry {
  VulkanPipelines pipelines;
  int module = -1;
  bool fp64 = false;
  VkPipeline pipeline = VK_NULL_HANDLE;  // the one prepare chose
  PushConstants push{};
  Path path = kElements;
  uint32_t dispatch[3] = {0, 0, 0};  // paths 0 and 1: work-groups (row, out_height, batch)
};

// Every device takes at least this many work-groups along each dimension.
constexpr uint64_t kMinGroupCount = 65535;

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<pool2d::Pooling> pooling = pool2d::read_pooling(params, num_params);
  if (!pooling) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) Pool2DVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_pool2d__vulkan;
  static_cast<pool2d::Pooling&>(*k) = *pooling;
  oprig_status st = k->pipelines.init(*ctx, 2, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->fp64 = k->pipelines.has_float64();
    k->module = k->fp64 ? k->pipelines.add_module(std::span(pool2d_vulkan_fp64_spirv, pool2d_vulkan_fp64_spirv_size))
                        : k->pipelines.add_module(std::span(pool2d_vulkan_spirv, pool2d_vulkan_spirv_size));
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
  auto* k = from_handle<Pool2DVulkan>(handle);
  k->pipeline = VK_NULL_HANDLE;
  const oprig_status st = pool2d::plan_geometry(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  if (k->dtype == OPRIG_DTYPE_UINT_8 && !k->same_quantization() && !k->fp64) return OPRIG_STATUS_UNSUPPORTED;
  const uint64_t in_bytes = static_cast<uint64_t>(k->input_elements()) * k->element_bytes();
  const uint64_t out_bytes = static_cast<uint64_t>(k->output_elements()) * k->element_bytes();
  if (in_bytes > UINT32_MAX || out_bytes > UINT32_MAX || in_bytes > k->pipelines.max_range() ||
      out_bytes > k->pipelines.max_range())
    return OPRIG_STATUS_UNSUPPORTED;
  const uint64_t row_bytes = static_cast<uint64_t>(k->channels) * k->element_bytes();
  const uint64_t lanes = (row_bytes % 16 == 0 ? 16 : 4) / k->element_bytes();
  const uint64_t groups = static_cast<uint64_t>(k->channels) / lanes;
  const uint64_t row_items = groups * static_cast<uint64_t>(k->out_width);
  const uint64_t row_groups = (row_items + VulkanPipelines::kLocalSize - 1) / VulkanPipelines::kLocalSize;
  // Element by element where the channels do not fill words, or where the
  // grid of work-groups would be too large.
  const bool by_pixel = row_bytes % 4 == 0 && row_groups <= kMinGroupCount &&
                        static_cast<uint64_t>(k->out_height) <= kMinGroupCount &&
                        static_cast<uint64_t>(k->batches) <= kMinGroupCount;
  const Path path = !by_pixel ? kElements : row_bytes % 16 == 0 ? kQuads : kWords;
  const uint32_t type = k->dtype == OPRIG_DTYPE_FLOAT_32 ? 0 : k->dtype == OPRIG_DTYPE_FLOAT_16 ? 1 : 2;
  PushConstants& push = k->push;
  push = {};
  push.height = static_cast<uint32_t>(k->height);
  push.width = static_cast<uint32_t>(k->width);
  push.channels = static_cast<uint32_t>(k->channels);
  push.out_height = static_cast<uint32_t>(k->out_height);
  push.out_width = static_cast<uint32_t>(k->out_width);
  push.kernel_h = static_cast<uint32_t>(k->kernel_h);
  push.kernel_w = static_cast<uint32_t>(k->kernel_w);
  push.stride_h = static_cast<uint32_t>(k->stride_h);
  push.stride_w = static_cast<uint32_t>(k->stride_w);
  push.pad_top = static_cast<uint32_t>(k->pad_top);
  push.pad_left = static_cast<uint32_t>(k->pad_left);
  push.count_include_pad = k->count_include_pad ? 1 : 0;
  push.same_quantization = k->same_quantization() ? 1 : 0;
  push.in_zero = k->in_zero;
  push.out_zero = k->out_zero;
  push.out_elements = static_cast<uint32_t>(k->output_elements());
  push.in_scale = static_cast<float>(k->in_scale);
  push.out_scale = static_cast<float>(k->out_scale);
  if (path == kElements) {
    push.total = static_cast<uint32_t>((out_bytes + 3) / 4);
  } else {
    push.groups = static_cast<uint32_t>(groups);
    push.group_shift = std::has_single_bit(groups) ? static_cast<uint32_t>(std::countr_zero(groups)) : 32;
    push.row_items = static_cast<uint32_t>(row_items);
    k->dispatch[0] = static_cast<uint32_t>(row_groups);
    k->dispatch[1] = static_cast<uint32_t>(k->out_height);
    k->dispatch[2] = static_cast<uint32_t>(k->batches);
  }
  k->path = path;
  const uint32_t constants[3] = {type, k->kind == pool2d::Kind::kMax ? 0u : 1u, path};
  k->pipeline = k->pipelines.pipeline(k->module, constants);
  return k->pipeline == VK_NULL_HANDLE ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<Pool2DVulkan>(handle);
  if (k->pipeline == VK_NULL_HANDLE) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  const oprig_tensor tensors[2] = {inputs[0], outputs[0]};
  const auto cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  if (k->path == kElements) {
    if (k->push.total == 0) return OPRIG_STATUS_OK;
    return k->pipelines.record(cmd, k->pipeline, tensors, &k->push, sizeof k->push, k->push.total);
  }
  // record_groups records nothing for an empty grid.
  return k->pipelines.record_groups(cmd, k->pipeline, tensors, &k->push, sizeof k->push, k->dispatch[0],
                                    k->dispatch[1], k->dispatch[2]);
}

void destroy(oprig_kernel* handle) { delete from_handle<Pool2DVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const Pool2DVulkan>(handle);
  *out = pool2d::pooling_cost(*k, *k);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_pool2d__vulkan = {"Pool2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
