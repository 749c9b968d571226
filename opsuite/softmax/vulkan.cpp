// Softmax, vulkan: host side of vulkan.glsl, compiled as vulkan_subgroup.comp
// where the device has subgroup shuffles in compute shaders and as
// vulkan.comp elsewhere. prepare() sees the input as [outer, length, inner],
// lays the slices on workgroups (common/slice_layout.hpp) and makes the
// pipeline for that workgroup size and type; execute() records one dispatch.
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
#include "softmax_vulkan_spv.h"
#include "softmax_vulkan_subgroup_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_softmax__vulkan;

namespace {

struct PushConstants {
  uint32_t outer, length, inner;
  float beta;
  uint32_t members, strided, groups;
};

// Shared memory per invocation: team_reduce.glsl's int and vec2 scratch.
constexpr uint32_t kSharedBytesPerInvocation = 12;

struct SoftmaxVulkan : KernelBase {
  VulkanPipelines pipelines;
  VulkanSliceDevice device;
  int module = -1;
  std::optional<int64_t> axis;  // absent: the spec's default N-1
  float beta = 1.0f;
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  uint64_t outer = 0, length = 0, inner = 0;
  SliceLayout layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<double> beta = scalar_param(params, num_params, "beta");
  if (beta && !(std::isfinite(*beta) && *beta > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;  // the spec: beta > 0
  auto* k = new (std::nothrow) SoftmaxVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_softmax__vulkan;
  if (const auto axis = scalar_param(params, num_params, "axis")) k->axis = static_cast<int64_t>(*axis);
  k->beta = static_cast<float>(beta.value_or(1.0));
  oprig_status st = k->pipelines.init(*ctx, 2, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->device = vulkan_slice_device(*ctx, kSharedBytesPerInvocation);
    k->module = add_slice_module(k->pipelines, k->device, std::span(softmax_vulkan_spirv, softmax_vulkan_spirv_size),
                                 std::span(softmax_vulkan_subgroup_spirv, softmax_vulkan_subgroup_spirv_size));
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
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<SoftmaxVulkan>(handle);
  k->dtype = OPRIG_DTYPE_INVALID;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != in.dtype || in.rank == 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t rank = in.rank;
  const int64_t axis = k->axis.value_or(rank - 1);
  if (axis < -rank || axis >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto a = static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
  k->outer = k->inner = 1;
  for (uint32_t d = 0; d < a; ++d) k->outer *= static_cast<uint64_t>(in.dims[d]);
  for (uint32_t d = a + 1; d < in.rank; ++d) k->inner *= static_cast<uint64_t>(in.dims[d]);
  k->length = static_cast<uint64_t>(in.dims[a]);
  const oprig_status st = prepare_slice_pipeline(k->pipelines, k->module, k->device, k->outer, k->length, k->inner,
                                                 in.dtype == OPRIG_DTYPE_FLOAT_16, &k->layout, &k->pipeline);
  if (st != OPRIG_STATUS_OK) return st;
  k->dtype = static_cast<oprig_dtype>(in.dtype);
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<SoftmaxVulkan>(handle);
  if (k->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (k->outer * k->length * k->inner == 0) return OPRIG_STATUS_OK;
  const SliceLayout& layout = k->layout;
  const PushConstants push{static_cast<uint32_t>(k->outer), static_cast<uint32_t>(k->length),
                           static_cast<uint32_t>(k->inner), k->beta, layout.members, layout.strided ? 1u : 0u,
                           static_cast<uint32_t>(layout.groups)};
  const oprig_tensor tensors[2] = {inputs[0], outputs[0]};
  return record_slice_groups(k->pipelines, *info, k->pipeline, tensors, &push, sizeof push, layout);
}

void destroy(oprig_kernel* handle) { delete from_handle<SoftmaxVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const SoftmaxVulkan>(handle);
  const uint64_t n = k->outer * k->length * k->inner;
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  // max, TwoSum (6), exp (12), the float-float sum (7), scale (2).
  out->flops = 28 * n;
  out->bytes_read = width * n;
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_softmax__vulkan = {"Softmax", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
