// Resize on the vulkan backend: host side of vulkan.comp. prepare() plans
// the output and the per-row and per-column table (resize/resampling.hpp,
// the cpu kernel's), writes the table into the instance's host-visible
// buffer (common/vulkan_host_table.hpp) and plans the pixel grid
// (common/vulkan_pixel_grid.hpp: the path by how a pixel's channels fill
// 32-bit words); execute() records one dispatch.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <new>
#include <span>
#include <vector>

#include "common/kernel.hpp"
#include "common/vulkan_host_table.hpp"
#include "common/vulkan_pixel_grid.hpp"
#include "resize/resampling.hpp"
#include "resize_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_resize__vulkan;

namespace {

// vulkan.comp's push constants, in its order.
struct PushConstants {
  uint32_t height, width, channels, out_height, out_width;
  uint32_t groups, group_shift, row_items, out_words, out_elements;
};

struct ResizeVulkan : KernelBase, resize::Resampling, resize::Plan {
  const oprig_backend_context* ctx = nullptr;
  VulkanPixelKernel device;
  VulkanHostTable table;  // resize::device_table of the last prepare
  PushConstants push{};
};

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
  const oprig_status st =
      k->device.init(*ctx, 3, sizeof(PushConstants), std::span(resize_vulkan_spirv, resize_vulkan_spirv_size));
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
  k->device.pipeline = VK_NULL_HANDLE;
  oprig_status st = resize::plan_resize(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  const uint64_t esize = k->element_bytes();
  const auto out_elements = static_cast<uint64_t>(k->batches * k->out_height * k->out_width * k->channels);
  st = k->device.plan_for(static_cast<uint64_t>(k->batches * k->height * k->width * k->channels) * esize,
                          static_cast<uint64_t>(k->channels) * esize, out_elements * esize, k->out_height,
                          k->out_width, k->batches);
  if (st != OPRIG_STATUS_OK) return st;
  const std::vector<uint32_t> table = resize::device_table(*k);
  st = k->table.write(*k->ctx, table.data(), table.size() * sizeof(uint32_t));
  if (st != OPRIG_STATUS_OK) return st;
  const PixelGrid& grid = k->device.plan.grid;
  k->push = {static_cast<uint32_t>(k->height),     static_cast<uint32_t>(k->width),
             static_cast<uint32_t>(k->channels),   static_cast<uint32_t>(k->out_height),
             static_cast<uint32_t>(k->out_width),  grid.groups,
             grid.group_shift,                     grid.row_items,
             k->device.plan.out_words,             static_cast<uint32_t>(out_elements)};
  return k->device.choose({k->dtype == OPRIG_DTYPE_FLOAT_32 ? 0u : 1u, k->mode == resize::Mode::kNearest ? 0u : 1u});
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<ResizeVulkan>(handle);
  const oprig_tensor table = k->table.tensor();
  return k->device.record(inputs, num_inputs, outputs, num_outputs, info, std::span(&table, 1), &k->push,
                          sizeof k->push);
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
