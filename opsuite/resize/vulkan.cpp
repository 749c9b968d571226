// Resize on the vulkan backend: host side of vulkan.comp. prepare() plans
// the output and the per-row and per-column table (resize/resampling.hpp,
// the cpu kernel's), writes the table into the instance's host-visible
// buffer (common/vulkan_host_table.hpp) and picks the path by how a pixel's
// channels fill 32-bit words; execute() records one dispatch.
#include <vulkan/vulkan.h>

#include <bit>
#include <cstdint>
#include <new>
#include <span>
#include <vector>

#include "common/kernel.hpp"
#include "common/vulkan_host_table.hpp"
#include "common/vulkan_pipeline.hpp"
#include "resize/resampling.hpp"
#include "resize_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_resize__vulkan;

namespace {

// vulkan.comp's push constants, in its order.
struct PushConstants {
  uint32_t height, width, channels, out_height, out_width;
  uint32_t groups, group_shift, row_items, total, out_elements;
};

enum Path : uint32_t { kQuads, kWords, kElements };  // vulkan.comp's kPath

struct ResizeVulkan : KernelBase, resize::Resampling, resize::Plan {
  const oprig_backend_context* ctx = nullptr;
  VulkanPipelines pipelines;
  VulkanHostTable table;  // resize::device_table of the last prepare
  int module = -1;
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
  const std::optional<resize::Resampling> resampling = resize::read_resampling(params, num_params);
  if (!resampling) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) ResizeVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_resize__vulkan;
  k->ctx = ctx;
  static_cast<resize::Resampling&>(*k) = *resampling;
  oprig_status st = k->pipelines.init(*ctx, 3, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->module = k->pipelines.add_module(std::span(resize_vulkan_spirv, resize_vulkan_spirv_size));
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
  auto* k = from_handle<ResizeVulkan>(handle);
  k->pipeline = VK_NULL_HANDLE;
  oprig_status st = resize::plan_resize(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  const uint64_t pixels = static_cast<uint64_t>(k->batches * k->out_height * k->out_width);
  const uint64_t in_bytes = static_cast<uint64_t>(k->batches * k->height * k->width * k->channels) * k->element_bytes();
  const uint64_t out_bytes = pixels * static_cast<uint64_t>(k->channels) * k->element_bytes();
  if (in_bytes > UINT32_MAX || out_bytes > UINT32_MAX || in_bytes > k->pipelines.max_range() ||
      out_bytes > k->pipelines.max_range())
    return OPRIG_STATUS_UNSUPPORTED;
  const std::vector<uint32_t> table = resize::device_table(*k);
  st = k->table.write(*k->ctx, table.data(), table.size() * sizeof(uint32_t));
  if (st != OPRIG_STATUS_OK) return st;
  const uint64_t pixel_bytes = static_cast<uint64_t>(k->channels) * k->element_bytes();
  const uint64_t groups = pixel_bytes / (pixel_bytes % 16 == 0 ? 16 : 4);
  const uint64_t row_items = groups * static_cast<uint64_t>(k->out_width);
  const uint64_t row_groups = (row_items + VulkanPipelines::kLocalSize - 1) / VulkanPipelines::kLocalSize;
  // Element by element where the channels do not fill words, or where the
  // grid of work-groups would be too large.
  const bool by_pixel = pixel_bytes % 4 == 0 && row_groups <= kMinGroupCount &&
                        static_cast<uint64_t>(k->out_height) <= kMinGroupCount &&
                        static_cast<uint64_t>(k->batches) <= kMinGroupCount;
  const Path path = !by_pixel ? kElements : pixel_bytes % 16 == 0 ? kQuads : kWords;
  PushConstants& push = k->push;
  push = {};
  push.height = static_cast<uint32_t>(k->height);
  push.width = static_cast<uint32_t>(k->width);
  push.channels = static_cast<uint32_t>(k->channels);
  push.out_height = static_cast<uint32_t>(k->out_height);
  push.out_width = static_cast<uint32_t>(k->out_width);
  push.out_elements = static_cast<uint32_t>(pixels * static_cast<uint64_t>(k->channels));
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
  const uint32_t constants[3] = {k->dtype == OPRIG_DTYPE_FLOAT_32 ? 0u : 1u,
                                 k->mode == resize::Mode::kNearest ? 0u : 1u, path};
  k->pipeline = k->pipelines.pipeline(k->module, constants);
  return k->pipeline == VK_NULL_HANDLE ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<ResizeVulkan>(handle);
  if (k->pipeline == VK_NULL_HANDLE) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  const oprig_tensor tensors[3] = {inputs[0], outputs[0], k->table.tensor()};
  const auto cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  if (k->path == kElements) {
    if (k->push.total == 0) return OPRIG_STATUS_OK;
    return k->pipelines.record(cmd, k->pipeline, tensors, &k->push, sizeof k->push, k->push.total);
  }
  // record_groups records nothing for an empty grid.
  return k->pipelines.record_groups(cmd, k->pipeline, tensors, &k->push, sizeof k->push, k->dispatch[0],
                                    k->dispatch[1], k->dispatch[2]);
}

void destroy(oprig_kernel* handle) { delete from_handle<ResizeVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ResizeVulkan>(handle);
  *out = resize::resize_cost(*k, *k);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_resize__vulkan = {"Resize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
