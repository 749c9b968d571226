// org.oprig.builtins on the vulkan backend (liboprig_builtins_vulkan.so):
// compare.comp, logical.comp, cast.comp and quant_arith.comp, integer
// arithmetic only (no optional device feature), and compare_quant.comp for
// quantised comparisons, which needs shaderFloat64 (UNSUPPORTED without it);
// Slice and FullyConnected in vulkan_shaped.cpp. One dispatch per execute,
// recorded into the host's command buffer.
#include <vulkan/vulkan.h>

#include <bit>
#include <new>
#include <span>

#include "builtins_cast_spv.h"
#include "builtins_compare_quant_spv.h"
#include "builtins_compare_spv.h"
#include "builtins_logical_spv.h"
#include "builtins_quant_arith_spv.h"
#include "vulkan_kernel.hpp"

namespace oprig::builtins {
namespace {

struct BroadcastPush {
  uint32_t op;
  uint32_t count;
  uint32_t merged;
  uint32_t dims[8];
  uint32_t a_strides[8];
  uint32_t b_strides[8];
};

// The quantised shaders broadcast up to rank 4 (NNAPI's limit), which keeps
// their push constants within the 128 bytes every device has.
constexpr uint32_t kQuantRank = 4;
struct QuantShape {
  uint32_t op;
  uint32_t count;
  uint32_t merged;
  uint32_t dims[kQuantRank];
  uint32_t a_strides[kQuantRank];
  uint32_t b_strides[kQuantRank];
};
struct QuantComparePush {
  QuantShape shape;
  int32_t a_zero;
  uint32_t a_scale;  // fp32 bits
  int32_t b_zero;
  uint32_t b_scale;
};
struct QuantArithmeticPush {
  QuantShape shape;
  int32_t in1_offset, in2_offset, out_offset;
  int32_t m1, left1, right1, m2, left2, right2, m_out, left_out, right_out;
  int32_t lo, hi;
};
static_assert(sizeof(QuantArithmeticPush) <= 128 && sizeof(BroadcastPush) <= 128);

QuantShape quant_shape(const Node& n) {
  QuantShape s{};
  s.op = n.operation;
  s.count = static_cast<uint32_t>(n.count);
  s.merged = n.plan.merged;
  for (uint32_t d = 0; d < n.plan.merged && d < kQuantRank; ++d) {
    s.dims[d] = static_cast<uint32_t>(n.plan.dims[d]);
    s.a_strides[d] = static_cast<uint32_t>(n.plan.a_strides[d]);
    s.b_strides[d] = static_cast<uint32_t>(n.plan.b_strides[d]);
  }
  return s;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_VULKAN) return OPRIG_STATUS_INVALID_ARGUMENT;
  Node node;
  if (const oprig_status st = parse_node(op_name, params, num_params, &node); st != OPRIG_STATUS_OK) return st;
  auto* k = new (std::nothrow) oprig_kernel;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->node = node;
  if (node.op == Op::kSlice || node.op == Op::kFullyConnected) {
    const oprig_status st = create_shaped(k, *ctx);
    if (st != OPRIG_STATUS_OK) {
      delete k;
      return st;
    }
    *out_kernel = k;
    return OPRIG_STATUS_OK;
  }
  const bool cast = node.op == Op::kCast;
  const uint32_t push = cast                                      ? sizeof(uint32_t)
                        : node.op == Op::kQuantizedArithmetic ? sizeof(QuantArithmeticPush)
                                                                  : sizeof(BroadcastPush);
  oprig_status st = k->pipelines.init(*ctx, cast ? 2 : 3, push);
  if (st == OPRIG_STATUS_OK) {
    switch (node.op) {
      case Op::kCompare:
        k->module = k->pipelines.add_module(std::span(builtins_compare_spirv, builtins_compare_spirv_size));
        if (k->pipelines.has_float64()) {
          k->quant_module =
              k->pipelines.add_module(std::span(builtins_compare_quant_spirv, builtins_compare_quant_spirv_size));
          if (k->quant_module < 0) st = OPRIG_STATUS_BACKEND_ERROR;
        }
        break;
      case Op::kQuantizedArithmetic:
        k->module = k->pipelines.add_module(std::span(builtins_quant_arith_spirv, builtins_quant_arith_spirv_size));
        break;
      case Op::kLogical:
      case Op::kLogicalNot:
        k->module = k->pipelines.add_module(std::span(builtins_logical_spirv, builtins_logical_spirv_size));
        break;
      case Op::kCast:
        k->module = k->pipelines.add_module(std::span(builtins_cast_spirv, builtins_cast_spirv_size));
        break;
      default: break;
    }
    if (k->module < 0) st = OPRIG_STATUS_BACKEND_ERROR;
  }
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = k;
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  Node& n = k->node;
  const oprig_status st = plan_node(&n, inputs, num_inputs, outputs, num_outputs);
  if (st != OPRIG_STATUS_OK) return st;
  if (n.op == Op::kSlice || n.op == Op::kFullyConnected) {
    const oprig_status shaped = prepare_shaped(k);
    if (shaped != OPRIG_STATUS_OK) n.prepared = false;
    return shaped;
  }
  if (n.count > UINT32_MAX / 4 || n.count * 4 > k->pipelines.max_range()) {
    n.prepared = false;
    return OPRIG_STATUS_UNSUPPORTED;  // 32-bit indices; one binding's size limit
  }
  k->prepared_module = k->module;
  if (n.quantised) {
    if (n.plan.merged > kQuantRank || (n.op == Op::kCompare && k->quant_module < 0)) {
      n.prepared = false;
      return OPRIG_STATUS_UNSUPPORTED;  // rank over 4, or no Float64 for the exact fp32 products
    }
    if (n.op == Op::kCompare) k->prepared_module = k->quant_module;
  }
  switch (n.op) {
    case Op::kQuantizedArithmetic: k->variant = n.in_dtype == OPRIG_DTYPE_INT_8 ? 1 : 0; break;
    case Op::kCompare:
      if (n.quantised) {
        k->variant = n.in_dtype == OPRIG_DTYPE_INT_8 ? 1 : 0;
        break;
      }
      k->variant = n.in_dtype == OPRIG_DTYPE_INT_32     ? 0
                   : n.in_dtype == OPRIG_DTYPE_FLOAT_32 ? 1
                   : n.in_dtype == OPRIG_DTYPE_FLOAT_16 ? 3
                                                        : 2;
      break;
    case Op::kLogical: k->variant = n.operation; break;
    case Op::kLogicalNot: k->variant = 2; break;
    case Op::kCast: k->variant = n.in_dtype << 8 | n.out_dtype; break;
    default: break;
  }
  if (k->pipelines.pipeline(k->prepared_module, k->variant) == VK_NULL_HANDLE) {
    n.prepared = false;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (k == nullptr || inputs == nullptr || outputs == nullptr || info == nullptr || info->vk_command_buffer == nullptr ||
      num_outputs != 1 || num_inputs < 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const Node& n = k->node;
  if (!n.prepared || (n.op == Op::kSlice && !n.slice.resolved)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (n.count == 0) return OPRIG_STATUS_OK;
  auto cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  if (n.op == Op::kSlice || n.op == Op::kFullyConnected) {
    if (num_inputs != 3) return OPRIG_STATUS_INVALID_ARGUMENT;
    return record_shaped(k, cmd, inputs, outputs[0]);
  }
  VkPipeline pipeline = k->pipelines.pipeline(k->prepared_module, k->variant);
  if (n.op == Op::kCast) {
    const uint32_t count = static_cast<uint32_t>(n.count);
    const oprig_tensor tensors[2] = {inputs[0], outputs[0]};
    const uint64_t words = element_bytes(n.out_dtype) == 4 ? n.count : (n.count + 3) / 4;
    return k->pipelines.record(cmd, pipeline, tensors, &count, sizeof count, words);
  }
  const oprig_tensor tensors[3] = {inputs[0], num_inputs > 1 ? inputs[1] : inputs[0], outputs[0]};
  if (n.op == Op::kQuantizedArithmetic) {
    const quant::ArithmeticParams& q = n.arithmetic;
    const QuantArithmeticPush push{quant_shape(n), q.in1_offset, q.in2_offset, q.out_offset, q.in1.m, q.in1.left,
                                   q.in1.right, q.in2.m, q.in2.left, q.in2.right, q.out.m, q.out.left,
                                   q.out.right, q.range.lo, q.range.hi};
    return k->pipelines.record(cmd, pipeline, tensors, &push, sizeof push, (n.count + 3) / 4);
  }
  if (n.quantised) {
    const QuantComparePush push{quant_shape(n), n.qa.zero_point, std::bit_cast<uint32_t>(n.qa.scale),
                                n.qb.zero_point, std::bit_cast<uint32_t>(n.qb.scale)};
    return k->pipelines.record(cmd, pipeline, tensors, &push, sizeof push, (n.count + 3) / 4);
  }
  BroadcastPush push{};
  push.op = n.operation;
  push.count = static_cast<uint32_t>(n.count);
  push.merged = n.plan.merged;
  for (uint32_t d = 0; d < n.plan.merged; ++d) {
    push.dims[d] = static_cast<uint32_t>(n.plan.dims[d]);
    push.a_strides[d] = static_cast<uint32_t>(n.plan.a_strides[d]);
    push.b_strides[d] = static_cast<uint32_t>(n.plan.b_strides[d]);
  }
  return k->pipelines.record(cmd, pipeline, tensors, &push, sizeof push, (n.count + 3) / 4);
}

void destroy(oprig_kernel* k) { delete k; }

oprig_status resolve_shapes(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                            size_t num_outputs) {
  if (k == nullptr || k->node.op != Op::kSlice) return OPRIG_STATUS_INVALID_ARGUMENT;
  return resolve_slice(&k->node, inputs, num_inputs, outputs, num_outputs);
}

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_VULKAN, create, prepare, execute, destroy,
    nullptr, resolve_shapes, {}};

}  // namespace
}  // namespace oprig::builtins

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (max_version < OPRIG_ABI_VERSION || backend_kind != OPRIG_BACKEND_VULKAN) return nullptr;
  return &oprig::builtins::kImplementation;
}
