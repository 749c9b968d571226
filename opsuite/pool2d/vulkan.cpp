// Pool2D on the vulkan backend: host side of pool2d.glsl, through
// vulkan_fp64.comp on devices with shaderFloat64 (the backend enables it
// where present) and vulkan.comp elsewhere, where UINT_8 with another output
// quantisation (requantised in double on the cpu) is UNSUPPORTED. prepare()
// plans the output (pool2d/pooling.hpp) and the pixel grid
// (common/vulkan_pixel_grid.hpp: the path by how a pixel's channels fill
// 32-bit words); execute() records one dispatch.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <new>
#include <span>

#include "common/kernel.hpp"
#include "common/vulkan_pixel_grid.hpp"
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
  uint32_t groups, group_shift, row_items, out_words, out_elements;
  float in_scale, out_scale;
};

struct Pool2DVulkan : KernelBase, pool2d::Pooling, pool2d::Geometry {
  VulkanPixelKernel device;
  PushConstants push{};
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<pool2d::Pooling> pooling = pool2d::read_pooling(params, num_params);
  if (!pooling) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) Pool2DVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_pool2d__vulkan;
  static_cast<pool2d::Pooling&>(*k) = *pooling;
  const oprig_status st = k->device.init(*ctx, 2, sizeof(PushConstants),
                                         std::span(pool2d_vulkan_spirv, pool2d_vulkan_spirv_size),
                                         std::span(pool2d_vulkan_fp64_spirv, pool2d_vulkan_fp64_spirv_size));
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
  k->device.pipeline = VK_NULL_HANDLE;
  oprig_status st = pool2d::plan_geometry(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  if (k->needs_fp64() && !k->device.fp64) return OPRIG_STATUS_UNSUPPORTED;
  const uint64_t esize = k->element_bytes();
  st = k->device.plan_for(static_cast<uint64_t>(k->input_elements()) * esize, static_cast<uint64_t>(k->channels) * esize,
                          static_cast<uint64_t>(k->output_elements()) * esize, k->out_height, k->out_width, k->batches);
  if (st != OPRIG_STATUS_OK) return st;
  const PixelGrid& grid = k->device.plan.grid;
  k->push = {static_cast<uint32_t>(k->height),
             static_cast<uint32_t>(k->width),
             static_cast<uint32_t>(k->channels),
             static_cast<uint32_t>(k->out_height),
             static_cast<uint32_t>(k->out_width),
             static_cast<uint32_t>(k->kernel_h),
             static_cast<uint32_t>(k->kernel_w),
             static_cast<uint32_t>(k->stride_h),
             static_cast<uint32_t>(k->stride_w),
             static_cast<uint32_t>(k->pad_top),
             static_cast<uint32_t>(k->pad_left),
             k->count_include_pad ? 1u : 0u,
             k->same_quantization() ? 1u : 0u,
             k->in_zero,
             k->out_zero,
             grid.groups,
             grid.group_shift,
             grid.row_items,
             k->device.plan.out_words,
             static_cast<uint32_t>(k->output_elements()),
             static_cast<float>(k->in_scale),
             static_cast<float>(k->out_scale)};
  const uint32_t type = k->dtype == OPRIG_DTYPE_FLOAT_32 ? 0 : k->dtype == OPRIG_DTYPE_FLOAT_16 ? 1 : 2;
  return k->device.choose({type, k->kind == pool2d::Kind::kMax ? 0u : 1u});
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<Pool2DVulkan>(handle);
  return k->device.record(inputs, num_inputs, outputs, num_outputs, info, {}, &k->push, sizeof k->push);
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
