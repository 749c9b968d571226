// Slice (slice.comp) and FullyConnected (fully_connected.comp for FLOAT_32
// and FLOAT_16, which needs shaderFloat64; fully_connected_quant.comp for
// the quantised types) on the vulkan backend.
#include <bit>
#include <cmath>
#include <span>

#include "builtins_fully_connected_quant_spv.h"
#include "builtins_fully_connected_spv.h"
#include "builtins_slice_spv.h"
#include "vulkan_kernel.hpp"

namespace oprig::builtins {
namespace {

struct SlicePush {
  uint32_t total;  // output bytes
  uint32_t rank;
  uint32_t bytes;
  uint32_t out_dims[OPRIG_MAX_RANK];
  uint32_t in_strides[OPRIG_MAX_RANK];
  uint32_t begin[OPRIG_MAX_RANK];
};

struct FloatFcPush {
  uint32_t count, units, depth;
  uint32_t lo, hi;  // the activation's bounds as fp32 bits
};

struct QuantFcPush {
  uint32_t count, units, depth;
  int32_t x_offset, w_offset, out_offset;
  int32_t m, left, right;
  int32_t lo, hi;
};

static_assert(sizeof(SlicePush) <= 128 && sizeof(QuantFcPush) <= 128);

bool fits_32_bits(uint64_t v) { return v <= UINT32_MAX / 4; }

}  // namespace

oprig_status create_shaped(oprig_kernel* k, const oprig_backend_context& ctx) {
  if (k->node.op == Op::kSlice) {
    const oprig_status st = k->pipelines.init(ctx, 2, sizeof(SlicePush));
    if (st != OPRIG_STATUS_OK) return st;
    k->module = k->pipelines.add_module(std::span(builtins_slice_spirv, builtins_slice_spirv_size));
    return k->module < 0 ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
  }
  const oprig_status st = k->pipelines.init(ctx, 4, sizeof(QuantFcPush));
  if (st != OPRIG_STATUS_OK) return st;
  if (k->pipelines.has_float64()) {
    k->module = k->pipelines.add_module(std::span(builtins_fully_connected_spirv, builtins_fully_connected_spirv_size));
    if (k->module < 0) return OPRIG_STATUS_BACKEND_ERROR;
  }
  k->quant_module = k->pipelines.add_module(
      std::span(builtins_fully_connected_quant_spirv, builtins_fully_connected_quant_spirv_size));
  return k->quant_module < 0 ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
}

oprig_status prepare_shaped(oprig_kernel* k) {
  Node& n = k->node;
  if (n.op == Op::kSlice) {
    uint64_t elements = 1;
    for (uint32_t d = 0; d < n.slice.rank; ++d) elements *= static_cast<uint64_t>(n.slice.in_dims[d]);
    if (!fits_32_bits(elements * n.slice.element_bytes)) return OPRIG_STATUS_UNSUPPORTED;  // 32-bit byte indices
    k->prepared_module = k->module;
    k->variant = 0;
  } else {
    const auto& fc = n.fc;
    if (!fits_32_bits(static_cast<uint64_t>(fc.batch) * static_cast<uint64_t>(fc.depth)) ||
        !fits_32_bits(static_cast<uint64_t>(fc.units) * static_cast<uint64_t>(fc.depth)))
      return OPRIG_STATUS_UNSUPPORTED;
    if (!n.quantised && k->module < 0) return OPRIG_STATUS_UNSUPPORTED;  // no Float64 for exact fp32 steps
    k->prepared_module = n.quantised ? k->quant_module : k->module;
    k->variant = n.quantised ? (n.in_dtype == OPRIG_DTYPE_INT_8 ? 1 : 0) : (n.in_dtype == OPRIG_DTYPE_FLOAT_16 ? 1 : 0);
  }
  return k->pipelines.pipeline(k->prepared_module, k->variant) == VK_NULL_HANDLE ? OPRIG_STATUS_BACKEND_ERROR
                                                                                : OPRIG_STATUS_OK;
}

oprig_status record_shaped(oprig_kernel* k, VkCommandBuffer cmd, const oprig_tensor* inputs,
                           const oprig_tensor& output) {
  const Node& n = k->node;
  const VkPipeline pipeline = k->pipelines.pipeline(k->prepared_module, k->variant);
  if (n.op == Op::kSlice) {
    SlicePush push{};
    push.total = static_cast<uint32_t>(n.count * n.slice.element_bytes);
    push.rank = n.slice.rank;
    push.bytes = n.slice.element_bytes;
    uint64_t stride = 1;
    for (int d = static_cast<int>(n.slice.rank) - 1; d >= 0; --d) {
      push.out_dims[d] = static_cast<uint32_t>(n.slice.out_dims[d]);
      push.in_strides[d] = static_cast<uint32_t>(stride);
      push.begin[d] = static_cast<uint32_t>(n.slice.begin[d]);
      stride *= static_cast<uint64_t>(n.slice.in_dims[d]);
    }
    const oprig_tensor tensors[2] = {inputs[0], output};
    return k->pipelines.record(cmd, pipeline, tensors, &push, sizeof push, (push.total + 3) / 4);
  }
  const oprig_tensor tensors[4] = {inputs[0], inputs[1], inputs[2], output};
  const auto count = static_cast<uint32_t>(n.count), units = static_cast<uint32_t>(n.fc.units),
             depth = static_cast<uint32_t>(n.fc.depth);
  if (n.quantised) {
    const quant::Multiplier& m = n.fc.multiplier;
    const QuantFcPush push{count, units, depth, n.fc.x_offset, n.fc.w_offset, n.fc.out_offset,
                           m.m, m.left, m.right, n.fc.range.lo, n.fc.range.hi};
    return k->pipelines.record(cmd, pipeline, tensors, &push, sizeof push, (n.count + 3) / 4);
  }
  const float lo[] = {-INFINITY, 0.0f, -1.0f, 0.0f}, hi[] = {INFINITY, INFINITY, 1.0f, 6.0f};
  const FloatFcPush push{count, units, depth, std::bit_cast<uint32_t>(lo[n.activation]),
                         std::bit_cast<uint32_t>(hi[n.activation])};
  const bool half = n.in_dtype == OPRIG_DTYPE_FLOAT_16;
  return k->pipelines.record(cmd, pipeline, tensors, &push, sizeof push, half ? (n.count + 1) / 2 : n.count);
}

}  // namespace oprig::builtins
