// LayerNorm, vulkan: host side of vulkan.glsl, compiled as
// vulkan_subgroup.comp where the device has subgroup shuffles in compute
// shaders and as vulkan.comp elsewhere. prepare() checks the shapes as the
// cpu kernel does, lays the rows on workgroups (common/slice_layout.hpp) and
// makes the pipeline for that workgroup size and type; execute() records
// one dispatch.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <optional>
#include <span>

#include "common/kernel.hpp"
#include "common/slice_device_vulkan.hpp"
#include "common/slice_layout.hpp"
#include "common/vulkan_pipeline.hpp"
#include "layer_norm/layer_norm_rows.hpp"
#include "layer_norm_vulkan_spv.h"
#include "layer_norm_vulkan_subgroup_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_layer_norm__vulkan;

namespace {

struct PushConstants {
  uint32_t rows, row_length;
  float epsilon;
  uint32_t has_beta, members, groups;
};

// Shared memory per invocation: team_reduce.glsl's int, vec2 and vec4 scratch.
constexpr uint32_t kSharedBytesPerInvocation = 28;

struct LayerNormVulkan : KernelBase {
  VulkanPipelines pipelines;
  VulkanSliceDevice device;
  int module = -1;
  int64_t axis = -1;
  float epsilon = 1e-5f;
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  LayerNormRows shape;  // set by prepare()
  SliceLayout layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<double> epsilon = scalar_param(params, num_params, "epsilon");
  if (epsilon && !(std::isfinite(*epsilon) && *epsilon > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;  // the spec: > 0
  auto* k = new (std::nothrow) LayerNormVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_layer_norm__vulkan;
  k->axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(-1.0));
  // The parameter arrives as FLOAT_32: its value is that float, exactly.
  k->epsilon = static_cast<float>(epsilon.value_or(1e-5));
  oprig_status st = k->pipelines.init(*ctx, 4, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->device = vulkan_slice_device(*ctx, kSharedBytesPerInvocation);
    k->module =
        add_slice_module(k->pipelines, k->device, std::span(layer_norm_vulkan_spirv, layer_norm_vulkan_spirv_size),
                         std::span(layer_norm_vulkan_subgroup_spirv, layer_norm_vulkan_subgroup_spirv_size));
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
  if (num_inputs < 2 || num_inputs > 3 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<LayerNormVulkan>(handle);
  k->dtype = OPRIG_DTYPE_INVALID;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  const oprig_status st = layer_norm_rows(inputs, num_inputs, outputs[0], k->axis, &k->shape);
  if (st != OPRIG_STATUS_OK) return st;
  // A row's length is a float in the shader (exact below 2^24).
  if (k->shape.row_size >= (uint64_t{1} << 24)) return OPRIG_STATUS_UNSUPPORTED;
  const oprig_status laid_out = prepare_slice_pipeline(k->pipelines, k->module, k->device, k->shape.rows, k->shape.row_size,
                                                       1, in.dtype == OPRIG_DTYPE_FLOAT_16, &k->layout, &k->pipeline);
  if (laid_out != OPRIG_STATUS_OK) return laid_out;
  k->dtype = static_cast<oprig_dtype>(in.dtype);
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs < 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<LayerNormVulkan>(handle);
  if (k->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (k->shape.rows == 0) return OPRIG_STATUS_OK;
  if (k->shape.has_beta && num_inputs < 3) return OPRIG_STATUS_INVALID_ARGUMENT;
  const SliceLayout& layout = k->layout;
  const PushConstants push{static_cast<uint32_t>(k->shape.rows), static_cast<uint32_t>(k->shape.row_size), k->epsilon,
                           k->shape.has_beta ? 1u : 0u, layout.members, static_cast<uint32_t>(layout.groups)};
  // Without beta, gamma fills its binding (the shader does not read it).
  const oprig_tensor tensors[4] = {inputs[0], inputs[1], k->shape.has_beta ? inputs[2] : inputs[1], outputs[0]};
  return record_slice_groups(k->pipelines, *info, k->pipeline, tensors, &push, sizeof push, layout);
}

void destroy(oprig_kernel* handle) { delete from_handle<LayerNormVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const LayerNormVulkan>(handle);
  const uint64_t n = k->shape.rows * k->shape.row_size;
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  // |x|, the shifted value and its Sum2 (6), its exact square and Sum2 (8), the deviation, scale and fma (5).
  out->flops = 19 * n;
  out->bytes_read = width * (n + (k->shape.has_beta ? 2 : 1) * k->shape.row_size);
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_layer_norm__vulkan = {"LayerNorm", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
