// Quantize on the vulkan backend: vulkan.comp (specialised on the code
// type), one grid-stride dispatch per execute, as Dequantize's (both through
// common/vulkan_code_pipeline.hpp). prepare() checks the quantisation as the
// cpu kernel does and derives the fast path's reciprocal (quantize_scale.hpp);
// tensors past 32-bit indices or one binding's size limit are UNSUPPORTED.
// Needs no optional device feature.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <span>

#include "common/kernel.hpp"
#include "common/vulkan_code_pipeline.hpp"
#include "quantize/quantize_scale.hpp"
#include "quantize_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_quantize__vulkan;

namespace {

struct PushConstants {
  uint32_t count;
  float reciprocal;
  uint32_t scale_bits;
  uint32_t fast;
  int32_t zero_point;
  int32_t lowest, highest;
};

struct QuantizeVulkan : KernelBase {
  VulkanCodePipeline code;
  bool prepared = false;
  PushConstants push{};
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param*, size_t, oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* k = new (std::nothrow) QuantizeVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_quantize__vulkan;
  const oprig_status st =
      k->code.create(*ctx, std::span(quantize_vulkan_spirv, quantize_vulkan_spirv_size), sizeof(PushConstants));
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
  auto* k = from_handle<QuantizeVulkan>(handle);
  k->prepared = false;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 || in.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != OPRIG_DTYPE_UINT_8 && out.dtype != OPRIG_DTYPE_INT_8) return OPRIG_STATUS_UNSUPPORTED;
  if (!(out.scale > 0) || !std::isfinite(out.scale)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (out.zero_point < -kMaxQuantizeZeroPoint || out.zero_point > kMaxQuantizeZeroPoint)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const uint64_t count = element_count(in);
  const bool is_signed = out.dtype == OPRIG_DTYPE_INT_8;
  if (const oprig_status st = k->code.prepare(count, is_signed); st != OPRIG_STATUS_OK) return st;
  const QuantizeScale scale = quantize_scale(out.scale);
  k->push = {static_cast<uint32_t>(count), scale.reciprocal, scale.bits, scale.fast ? 1u : 0u, out.zero_point,
             is_signed ? -128 : 0, is_signed ? 127 : 255};
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
  auto* k = from_handle<QuantizeVulkan>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  return k->code.record(*info, inputs[0], outputs[0], &k->push, sizeof k->push, k->push.count);
}

void destroy(oprig_kernel* handle) { delete from_handle<QuantizeVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const QuantizeVulkan>(handle);
  const uint64_t n = k->push.count;
  *out = {3 * n, 4 * n, n};  // multiply, round, add; 4 bytes in, 1 out
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_quantize__vulkan = {"Quantize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
