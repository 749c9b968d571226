// RMSNorm, vulkan: host side of vulkan.glsl, compiled as
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
#include "rms_norm/device_scale.hpp"
#include "rms_norm_vulkan_spv.h"
#include "rms_norm_vulkan_subgroup_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_rms_norm__vulkan;

namespace {

struct PushConstants {
  uint32_t rows, row_length;
  float epsilon;
  int32_t max_up;
  uint32_t members, groups;
};

// Shared memory per invocation: team_reduce.glsl's int and vec2 scratch.
constexpr uint32_t kSharedBytesPerInvocation = 12;

struct RmsNormVulkan : KernelBase {
  VulkanPipelines pipelines;
  VulkanSliceDevice device;
  int module = -1;
  float epsilon = 1e-6f;
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  uint64_t rows = 0, row_size = 0;
  SliceLayout layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<double> epsilon = scalar_param(params, num_params, "epsilon");
  // Negative or non-finite epsilon has no meaning (sqrt of a negative mean square).
  if (epsilon && !(std::isfinite(*epsilon) && *epsilon >= 0)) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) RmsNormVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_rms_norm__vulkan;
  // The parameter arrives as FLOAT_32: its value is that float, exactly.
  k->epsilon = static_cast<float>(epsilon.value_or(1e-6));
  oprig_status st = k->pipelines.init(*ctx, 3, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->device = vulkan_slice_device(*ctx, kSharedBytesPerInvocation);
    k->module =
        add_slice_module(k->pipelines, k->device, std::span(rms_norm_vulkan_spirv, rms_norm_vulkan_spirv_size),
                         std::span(rms_norm_vulkan_subgroup_spirv, rms_norm_vulkan_subgroup_spirv_size));
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
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<RmsNormVulkan>(handle);
  k->dtype = OPRIG_DTYPE_INVALID;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (inputs[1].dtype != in.dtype || outputs[0].dtype != in.dtype || in.rank == 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  // weight: 1-D, the length of the last axis.
  if (inputs[1].rank != 1 || inputs[1].dims[0] != in.dims[in.rank - 1]) return OPRIG_STATUS_INVALID_ARGUMENT;
  k->row_size = static_cast<uint64_t>(in.dims[in.rank - 1]);
  k->rows = k->row_size == 0 ? 0 : element_count(in) / k->row_size;
  // A row's length is a float in the shader (exact below 2^24).
  if (k->row_size >= (uint64_t{1} << 24)) return OPRIG_STATUS_UNSUPPORTED;
  const oprig_status st = prepare_slice_pipeline(k->pipelines, k->module, k->device, k->rows, k->row_size, 1,
                                                 in.dtype == OPRIG_DTYPE_FLOAT_16, &k->layout, &k->pipeline);
  if (st != OPRIG_STATUS_OK) return st;
  k->dtype = static_cast<oprig_dtype>(in.dtype);
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<RmsNormVulkan>(handle);
  if (k->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (k->rows == 0) return OPRIG_STATUS_OK;
  const SliceLayout& layout = k->layout;
  const PushConstants push{static_cast<uint32_t>(k->rows), static_cast<uint32_t>(k->row_size), k->epsilon,
                           rms_norm_max_up(k->epsilon), layout.members, static_cast<uint32_t>(layout.groups)};
  const oprig_tensor tensors[3] = {inputs[0], inputs[1], outputs[0]};
  return record_slice_groups(k->pipelines, *info, k->pipeline, tensors, &push, sizeof push, layout);
}

void destroy(oprig_kernel* handle) { delete from_handle<RmsNormVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const RmsNormVulkan>(handle);
  const uint64_t n = k->rows * k->row_size;
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  // |x|, scale, exact square and Sum2 (9), scale, r w as a pair and the rounding (6); Dekker's splits not counted.
  out->flops = 16 * n;
  out->bytes_read = width * (n + k->row_size);
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_rms_norm__vulkan = {"RMSNorm", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
