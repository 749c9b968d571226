// Dequantize on the vulkan backend: vulkan.comp (specialised on the code
// type), one grid-stride dispatch per execute, as Quantize's (both through
// common/vulkan_code_pipeline.hpp). prepare() checks the quantisation as the
// cpu kernel does and splits a subnormal scale into its integer mantissa;
// tensors past 32-bit indices or one binding's size limit are UNSUPPORTED.
// Needs no optional device feature.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <new>
#include <span>

#include "common/kernel.hpp"
#include "common/vulkan_code_pipeline.hpp"
#include "dequantize_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_dequantize__vulkan;

namespace {

constexpr int32_t kMaxZeroPoint = (1 << 24) - 256;  // code - zero point exact in fp32
struct PushConstants {
  uint32_t count;
  int32_t zero_point;
  float scale;
  uint32_t subnormal;
  float mantissa;
};

struct DequantizeVulkan : KernelBase {
  VulkanCodePipeline code;
  bool prepared = false;
  PushConstants push{};
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param*, size_t, oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* k = new (std::nothrow) DequantizeVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_dequantize__vulkan;
  const oprig_status st =
      k->code.create(*ctx, std::span(dequantize_vulkan_spirv, dequantize_vulkan_spirv_size), sizeof(PushConstants));
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
  auto* k = from_handle<DequantizeVulkan>(handle);
  k->prepared = false;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_UINT_8 && in.dtype != OPRIG_DTYPE_INT_8) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != OPRIG_DTYPE_FLOAT_32 || out.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (!(in.scale > 0) || !std::isfinite(in.scale)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in.zero_point < -kMaxZeroPoint || in.zero_point > kMaxZeroPoint) return OPRIG_STATUS_INVALID_ARGUMENT;
  const uint64_t count = element_count(in);
  const bool is_signed = in.dtype == OPRIG_DTYPE_INT_8;
  if (const oprig_status st = k->code.prepare(count, is_signed); st != OPRIG_STATUS_OK) return st;
  const uint32_t bits = std::bit_cast<uint32_t>(in.scale);
  k->push = {static_cast<uint32_t>(count), in.zero_point, in.scale, bits < 0x00800000u ? 1u : 0u,
             static_cast<float>(bits)};  // the mantissa (< 2^23, exact) is used only for a subnormal scale
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
  auto* k = from_handle<DequantizeVulkan>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  return k->code.record(*info, inputs[0], outputs[0], &k->push, sizeof k->push, k->push.count);
}

void destroy(oprig_kernel* handle) { delete from_handle<DequantizeVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const DequantizeVulkan>(handle);
  const uint64_t n = k->push.count;
  *out = {2 * n, n, 4 * n};  // subtract, multiply; 1 byte in, 4 out
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_dequantize__vulkan = {"Dequantize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
