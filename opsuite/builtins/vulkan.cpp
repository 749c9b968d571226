// org.oprig.builtins on the vulkan backend (liboprig_builtins_vulkan.so):
// compare.comp, logical.comp and cast.comp, integer arithmetic only (no
// optional device feature). One dispatch per execute, recorded into the
// host's command buffer.
#include <vulkan/vulkan.h>

#include <new>
#include <span>

#include "builtins_cast_spv.h"
#include "builtins_compare_spv.h"
#include "builtins_logical_spv.h"
#include "common/vulkan_pipeline.hpp"
#include "node.hpp"

struct oprig_kernel {
  oprig::builtins::Node node;
  oprig::opsuite::VulkanPipelines pipelines;
  int module = -1;
  uint32_t variant = 0;  // spec constant 1 of the last prepare
};

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
  const bool cast = node.op == Op::kCast;
  oprig_status st = k->pipelines.init(*ctx, cast ? 2 : 3, cast ? sizeof(uint32_t) : sizeof(BroadcastPush));
  if (st == OPRIG_STATUS_OK) {
    switch (node.op) {
      case Op::kCompare:
        k->module = k->pipelines.add_module(std::span(builtins_compare_spirv, builtins_compare_spirv_size));
        break;
      case Op::kLogical:
      case Op::kLogicalNot:
        k->module = k->pipelines.add_module(std::span(builtins_logical_spirv, builtins_logical_spirv_size));
        break;
      case Op::kCast:
        k->module = k->pipelines.add_module(std::span(builtins_cast_spirv, builtins_cast_spirv_size));
        break;
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
  if (n.count > UINT32_MAX / 4 || n.count * 4 > k->pipelines.max_range()) {
    n.prepared = false;
    return OPRIG_STATUS_UNSUPPORTED;  // 32-bit indices; one binding's size limit
  }
  switch (n.op) {
    case Op::kCompare:
      k->variant = n.in_dtype == OPRIG_DTYPE_INT_32     ? 0
                   : n.in_dtype == OPRIG_DTYPE_FLOAT_32 ? 1
                   : n.in_dtype == OPRIG_DTYPE_FLOAT_16 ? 3
                                                        : 2;
      break;
    case Op::kLogical: k->variant = n.operation; break;
    case Op::kLogicalNot: k->variant = 2; break;
    case Op::kCast: k->variant = n.in_dtype << 8 | n.out_dtype; break;
  }
  if (k->pipelines.pipeline(k->module, k->variant) == VK_NULL_HANDLE) {
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
  if (!n.prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (n.count == 0) return OPRIG_STATUS_OK;
  auto cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  VkPipeline pipeline = k->pipelines.pipeline(k->module, k->variant);
  if (n.op == Op::kCast) {
    const uint32_t count = static_cast<uint32_t>(n.count);
    const oprig_tensor tensors[2] = {inputs[0], outputs[0]};
    const uint64_t words = element_bytes(n.out_dtype) == 4 ? n.count : (n.count + 3) / 4;
    return k->pipelines.record(cmd, pipeline, tensors, &count, sizeof count, words);
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
  const oprig_tensor tensors[3] = {inputs[0], num_inputs > 1 ? inputs[1] : inputs[0], outputs[0]};
  return k->pipelines.record(cmd, pipeline, tensors, &push, sizeof push, (n.count + 3) / 4);
}

void destroy(oprig_kernel* k) { delete k; }

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_VULKAN, create, prepare, execute, destroy,
    nullptr, nullptr, {}};

}  // namespace
}  // namespace oprig::builtins

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (max_version < OPRIG_ABI_VERSION || backend_kind != OPRIG_BACKEND_VULKAN) return nullptr;
  return &oprig::builtins::kImplementation;
}
