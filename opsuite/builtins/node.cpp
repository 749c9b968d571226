#include "node.hpp"

#include <algorithm>

#include "common/kernel.hpp"

namespace oprig::builtins {

oprig_status parse_node(const char* op_name, const oprig_param* params, size_t num_params, Node* node) {
  if (op_name == nullptr || !op_from_name(op_name, &node->op)) return OPRIG_STATUS_UNSUPPORTED;
  if (node->op == Op::kCompare || node->op == Op::kLogical) {
    const std::optional<int> operation =
        node->op == Op::kCompare
            ? opsuite::enum_param(params, num_params, "operation",
                                  {"LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL"})
            : opsuite::enum_param(params, num_params, "operation", {"AND", "OR"});
    if (!operation || *operation < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
    node->operation = static_cast<uint32_t>(*operation);
  }
  return OPRIG_STATUS_OK;
}

oprig_status plan_node(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                       size_t num_outputs) {
  node->prepared = false;
  const size_t want = node->op == Op::kCompare || node->op == Op::kLogical ? 2 : 1;
  if (inputs == nullptr || outputs == nullptr || num_inputs != want || num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& a = inputs[0];
  oprig_tensor& y = outputs[0];
  for (size_t i = 0; i < num_inputs; ++i)
    if (inputs[i].scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (y.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  switch (node->op) {
    case Op::kCompare:
      if (a.dtype != OPRIG_DTYPE_INT_32 && a.dtype != OPRIG_DTYPE_FLOAT_32 && a.dtype != OPRIG_DTYPE_FLOAT_16 &&
          a.dtype != OPRIG_DTYPE_BOOL_8)
        return OPRIG_STATUS_UNSUPPORTED;
      if (inputs[1].dtype != a.dtype || y.dtype != OPRIG_DTYPE_BOOL_8) return OPRIG_STATUS_INVALID_ARGUMENT;
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
