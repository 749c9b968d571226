#include "node.hpp"

#include <algorithm>

#include "common/kernel.hpp"

namespace oprig::builtins {

oprig_status parse_node(const char* op_name, const oprig_param* params, size_t num_params, Node* node) {
  if (op_name == nullptr || !op_from_name(op_name, &node->op)) return OPRIG_STATUS_UNSUPPORTED;
  std::optional<int> operation;
  switch (node->op) {
    case Op::kCompare:
      operation = opsuite::enum_param(params, num_params, "operation",
                                      {"LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL"});
      break;
    case Op::kLogical: operation = opsuite::enum_param(params, num_params, "operation", {"AND", "OR"}); break;
    case Op::kFullyConnected: {
      const std::optional<int> act =
          opsuite::enum_param(params, num_params, "fused_activation", {"NONE", "RELU", "RELU1", "RELU6"});
      if (act && *act < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
      node->activation = static_cast<uint32_t>(act.value_or(0));
      return OPRIG_STATUS_OK;
    }
    case Op::kQuantizedArithmetic: {
      operation = opsuite::enum_param(params, num_params, "operation", {"ADD", "SUB", "MUL"});
      const std::optional<int> act =
          opsuite::enum_param(params, num_params, "fused_activation", {"NONE", "RELU", "RELU1", "RELU6"});
      if (act && *act < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
      node->activation = static_cast<uint32_t>(act.value_or(0));
      break;
    }
    default: return OPRIG_STATUS_OK;
  }
  if (!operation || *operation < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  node->operation = static_cast<uint32_t>(*operation);
  return OPRIG_STATUS_OK;
}

oprig_status plan_node(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                       size_t num_outputs) {
  node->prepared = false;
  if (node->op == Op::kSlice) return plan_slice(node, inputs, num_inputs, outputs, num_outputs);
  if (node->op == Op::kFullyConnected) return plan_fully_connected(node, inputs, num_inputs, outputs, num_outputs);
  const size_t want = binary(node->op) ? 2 : 1;
  if (inputs == nullptr || outputs == nullptr || num_inputs != want || num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& a = inputs[0];
  oprig_tensor& y = outputs[0];
  const bool quantised_8bit = (a.dtype == OPRIG_DTYPE_UINT_8 || a.dtype == OPRIG_DTYPE_INT_8) && a.scale > 0 &&
                              num_inputs == 2 && inputs[1].dtype == a.dtype && inputs[1].scale > 0;
  node->quantised = false;
  if (node->op == Op::kQuantizedArithmetic || (node->op == Op::kCompare && quantised_8bit)) {
    if (!quantised_8bit) return OPRIG_STATUS_UNSUPPORTED;
    node->quantised = true;
    node->qa = {a.scale, a.zero_point};
    node->qb = {inputs[1].scale, inputs[1].zero_point};
  } else {
    for (size_t i = 0; i < num_inputs; ++i)
      if (inputs[i].scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  }
  if (y.scale != 0 && node->op != Op::kQuantizedArithmetic) return OPRIG_STATUS_UNSUPPORTED;
  switch (node->op) {
    case Op::kCompare:
      if (a.dtype != OPRIG_DTYPE_INT_32 && a.dtype != OPRIG_DTYPE_FLOAT_32 && a.dtype != OPRIG_DTYPE_FLOAT_16 &&
          a.dtype != OPRIG_DTYPE_BOOL_8 && !node->quantised)
        return OPRIG_STATUS_UNSUPPORTED;
      if (inputs[1].dtype != a.dtype || y.dtype != OPRIG_DTYPE_BOOL_8) return OPRIG_STATUS_INVALID_ARGUMENT;
      break;
    case Op::kQuantizedArithmetic:
      if (y.dtype != a.dtype || !(y.scale > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;
      if (!quant::arithmetic_params(node->operation, a.scale, a.zero_point, inputs[1].scale, inputs[1].zero_point,
                                    y.scale, y.zero_point, node->activation, a.dtype == OPRIG_DTYPE_INT_8,
                                    &node->arithmetic))
        return OPRIG_STATUS_UNSUPPORTED;  // no multiplier below 1: the host refuses these scales too
      break;
    case Op::kLogical:
    case Op::kLogicalNot:
      if (a.dtype != OPRIG_DTYPE_BOOL_8) return OPRIG_STATUS_UNSUPPORTED;
      if ((num_inputs == 2 && inputs[1].dtype != OPRIG_DTYPE_BOOL_8) || y.dtype != OPRIG_DTYPE_BOOL_8)
        return OPRIG_STATUS_INVALID_ARGUMENT;
      break;
    case Op::kCast:
      if (!castable(a.dtype) || !castable(y.dtype)) return OPRIG_STATUS_UNSUPPORTED;
      break;
    default: return OPRIG_STATUS_UNSUPPORTED;
  }
  // One-input ops broadcast against themselves: one row of every element.
  if (!opsuite::plan_broadcast(a, num_inputs == 2 ? inputs[1] : a, &node->plan)) return OPRIG_STATUS_INVALID_ARGUMENT;
  y.rank = node->plan.rank;
  std::copy(node->plan.out_dims, node->plan.out_dims + OPRIG_MAX_RANK, y.dims);
  node->in_dtype = a.dtype;
  node->out_dtype = y.dtype;
  node->count = node->plan.count;
  node->prepared = true;
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::builtins
