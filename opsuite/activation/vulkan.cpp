// Activation on the vulkan backend: vulkan.comp specialised on the mode and
// the element type (FLOAT_32, FLOAT_16, quantised UINT_8), one grid-stride
// dispatch per execute. Needs no optional device feature; tensors past
// 32-bit indices or one binding's size limit are UNSUPPORTED.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <span>

#include "activation_vulkan_spv.h"
#include "common/grid_stride.hpp"
#include "activation/activation_modes.hpp"
#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_activation__vulkan;

namespace {

enum ShaderType : uint32_t { kFloat32, kFloat16, kUint8 };  // vulkan.comp's kType

struct PushConstants {
  uint32_t count;
  int32_t in_zero_point;
  float in_scale;
  int32_t out_zero_point;
  float out_inverse_scale;
};

struct ActivationVulkan : KernelBase {
  VulkanPipelines pipelines;
  int module = -1;
  uint32_t mode = 0;
  bool prepared = false;
  uint32_t type = kFloat32;
  PushConstants push{};
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<int> mode = activation_mode(params, num_params);
  if (!mode || *mode < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) ActivationVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_activation__vulkan;
  k->mode = static_cast<uint32_t>(*mode);
  oprig_status st = k->pipelines.init(*ctx, 2, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->module = k->pipelines.add_module(std::span(activation_vulkan_spirv, activation_vulkan_spirv_size));
    if (k->module < 0) st = OPRIG_STATUS_BACKEND_ERROR;
  }
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

bool quantised(const oprig_tensor& t) { return t.scale > 0 && std::isfinite(t.scale); }

VkPipeline pipeline_of(ActivationVulkan& k) {
  const uint32_t constants[2] = {k.mode, k.type};
  return k.pipelines.pipeline(k.module, constants);
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<ActivationVulkan>(handle);
  k->prepared = false;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16 && in.dtype != OPRIG_DTYPE_UINT_8)
    return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  const uint64_t count = element_count(in);
  const uint64_t width = in.dtype == OPRIG_DTYPE_FLOAT_32 ? 4 : in.dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 1;
  if (count > UINT32_MAX / 4 || width * count > k->pipelines.max_range()) return OPRIG_STATUS_UNSUPPORTED;
  k->push = {static_cast<uint32_t>(count), 0, 0, 0, 0};
  if (in.dtype == OPRIG_DTYPE_UINT_8) {
    // Codes of a quantisation on both sides; a normal input scale (the shader's
    // reals are products with it) and its codes' reals finite.
    if (!quantised(in) || !quantised(out) || in.scale < 0x1p-126f) return OPRIG_STATUS_UNSUPPORTED;
    k->push.in_zero_point = in.zero_point;
    k->push.in_scale = in.scale;
    k->push.out_zero_point = out.zero_point;
    k->push.out_inverse_scale = static_cast<float>(1.0 / static_cast<double>(out.scale));
    k->type = kUint8;
  } else {
    if (in.scale != 0 || out.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
    k->type = in.dtype == OPRIG_DTYPE_FLOAT_32 ? kFloat32 : kFloat16;
  }
  if (pipeline_of(*k) == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
  out.rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, out.dims);
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<ActivationVulkan>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->push.count == 0) return OPRIG_STATUS_OK;
  const oprig_tensor tensors[2] = {inputs[0], outputs[0]};
  // UINT_8: each workgroup first evaluates the 256-entry table (4 entries per
  // invocation), so each invocation is given 16 words (64 codes) at least.
  const uint64_t steps = k->type == kUint8 ? k->push.count / 64 : k->push.count / 4;
  return k->pipelines.record(static_cast<VkCommandBuffer>(info->vk_command_buffer), pipeline_of(*k), tensors,
                             &k->push, sizeof k->push, std::min<uint64_t>(steps, kGridStrideMaxItems));
}

void destroy(oprig_kernel* handle) { delete from_handle<ActivationVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ActivationVulkan>(handle);
  const uint64_t n = k->push.count;
  const uint64_t width = k->type == kFloat32 ? 4 : k->type == kFloat16 ? 2 : 1;
  // UINT_8: a table lookup per element (the table's 256 evaluations per workgroup are not counted).
  const uint64_t flops = k->type == kUint8 ? 0 : kActivationFlopsPerElement[k->mode];
  *out = {flops * n, width * n, width * n};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_activation__vulkan = {"Activation", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
