// ElementwiseBinary, vulkan: INT_32 through vulkan_int.comp (any device);
// FLOAT_32 and FLOAT_16 through vulkan.comp, which computes in double to get
// IEEE results with denormals on drivers that flush them, POW included (its
// own log2 and exp2 in double, pow_fp64.glsl): only on devices with
// shaderFloat64 (the backend enables it where present); elsewhere prepare()
// says UNSUPPORTED for floats.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <new>
#include <optional>
#include <span>

#include "common/broadcast.hpp"
#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "elementwise_binary_vulkan_int_spv.h"
#include "elementwise_binary_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_elementwise_binary__vulkan;

namespace {

enum Op : uint32_t { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow };

struct PushConstants {
  uint32_t op;
  uint32_t count;
  uint32_t merged;
  uint32_t dims[8];
  uint32_t a_strides[8];
  uint32_t b_strides[8];
  uint32_t lo, hi;  // the fused activation's bounds: fp32 bits, or INT_32 for the integer shader
};

// NONE, RELU, RELU1, RELU6 as [lo, hi]: the bit patterns of fp32 bounds, or
// INT_32 bounds for the integer shader.
void activation_bounds(uint32_t act, bool integer, uint32_t* lo, uint32_t* hi) {
  const float flo[] = {-INFINITY, 0.0f, -1.0f, 0.0f}, fhi[] = {INFINITY, INFINITY, 1.0f, 6.0f};
  const int32_t ilo[] = {INT32_MIN, 0, -1, 0}, ihi[] = {INT32_MAX, INT32_MAX, 1, 6};
  if (integer) {
    *lo = static_cast<uint32_t>(ilo[act]);
    *hi = static_cast<uint32_t>(ihi[act]);
  } else {
    *lo = std::bit_cast<uint32_t>(flo[act]);
    *hi = std::bit_cast<uint32_t>(fhi[act]);
  }
}

struct BinaryVulkan : KernelBase {
  VulkanPipelines pipelines;
  int float_module = -1, int_module = -1;
  uint32_t op = kAdd;
  uint32_t act = 0;
  bool floor_division = false;  // INT_32 DIV floors (vulkan_int.comp's operation 7)
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;  // from the last prepare
  BroadcastPlan plan;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<int> op =
      enum_param(params, num_params, "operation", {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW"});
  if (!op || *op < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> act = enum_param(params, num_params, "fused_activation", {"NONE", "RELU", "RELU1", "RELU6"});
  if (act && *act < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> division = enum_param(params, num_params, "integer_division", {"TRUNCATE", "FLOOR"});
  if (division && *division < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) BinaryVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_elementwise_binary__vulkan;
  k->op = static_cast<uint32_t>(*op);
  k->act = static_cast<uint32_t>(act.value_or(0));
  k->floor_division = division.value_or(0) == 1;
  oprig_status st = k->pipelines.init(*ctx, 3, sizeof(PushConstants));
  if (st == OPRIG_STATUS_OK) {
    k->int_module = k->pipelines.add_module(
        std::span(elementwise_binary_vulkan_int_spirv, elementwise_binary_vulkan_int_spirv_size));
    if (k->pipelines.has_float64())
      k->float_module = k->pipelines.add_module(
          std::span(elementwise_binary_vulkan_spirv, elementwise_binary_vulkan_spirv_size));
    if (k->int_module < 0 || (k->pipelines.has_float64() && k->float_module < 0)) st = OPRIG_STATUS_BACKEND_ERROR;
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
  auto* k = from_handle<BinaryVulkan>(handle);
  k->dtype = OPRIG_DTYPE_INVALID;
  const auto dtype = static_cast<oprig_dtype>(inputs[0].dtype);
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16 && dtype != OPRIG_DTYPE_INT_32)
    return OPRIG_STATUS_UNSUPPORTED;
  if (inputs[1].dtype != dtype || outputs[0].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (inputs[0].scale != 0 || inputs[1].scale != 0 || outputs[0].scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (dtype != OPRIG_DTYPE_INT_32 && k->float_module < 0) return OPRIG_STATUS_UNSUPPORTED;
  if (!plan_broadcast(inputs[0], inputs[1], &k->plan)) return OPRIG_STATUS_INVALID_ARGUMENT;
  // Indices are 32-bit in the shaders, and one binding has a size limit.
  const uint64_t width = dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  for (const oprig_tensor* t : {&inputs[0], &inputs[1]})
    if (element_count(*t) * width > k->pipelines.max_range()) return OPRIG_STATUS_UNSUPPORTED;
  if (k->plan.count > UINT32_MAX / 4 || k->plan.count * width > k->pipelines.max_range())
    return OPRIG_STATUS_UNSUPPORTED;
  const bool half = dtype == OPRIG_DTYPE_FLOAT_16;
  if (k->pipelines.pipeline(dtype == OPRIG_DTYPE_INT_32 ? k->int_module : k->float_module, half) == VK_NULL_HANDLE)
    return OPRIG_STATUS_BACKEND_ERROR;
  outputs[0].rank = k->plan.rank;
  std::copy(k->plan.out_dims, k->plan.out_dims + OPRIG_MAX_RANK, outputs[0].dims);
  k->dtype = dtype;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<BinaryVulkan>(handle);
  if (k->dtype == OPRIG_DTYPE_INVALID) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
  if (k->plan.count == 0) return OPRIG_STATUS_OK;
  PushConstants push{};
  push.op = k->op == kDiv && k->floor_division && k->dtype == OPRIG_DTYPE_INT_32 ? 7u : k->op;
  activation_bounds(k->act, k->dtype == OPRIG_DTYPE_INT_32, &push.lo, &push.hi);
  push.count = static_cast<uint32_t>(k->plan.count);
  push.merged = k->plan.merged;
  for (uint32_t d = 0; d < k->plan.merged; ++d) {
    push.dims[d] = static_cast<uint32_t>(k->plan.dims[d]);
    push.a_strides[d] = static_cast<uint32_t>(k->plan.a_strides[d]);
    push.b_strides[d] = static_cast<uint32_t>(k->plan.b_strides[d]);
  }
  const bool half = k->dtype == OPRIG_DTYPE_FLOAT_16;
  const oprig_tensor tensors[3] = {inputs[0], inputs[1], outputs[0]};
  const uint64_t words = half ? (k->plan.count + 1) / 2 : k->plan.count;
  return k->pipelines.record(static_cast<VkCommandBuffer>(info->vk_command_buffer),
                             k->pipelines.pipeline(k->dtype == OPRIG_DTYPE_INT_32 ? k->int_module : k->float_module, half),
                             tensors, &push, sizeof push, words);
}

void destroy(oprig_kernel* handle) { delete from_handle<BinaryVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const BinaryVulkan>(handle);
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  const uint64_t n = k->plan.count;
  *out = {n, 2 * width * n, width * n};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_elementwise_binary__vulkan = {"ElementwiseBinary", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
