// One Compare, Logical, LogicalNot or Cast node as every backend sees it
// after create() and prepare(): the op, its operation, the element types
// and the broadcast plan (node.cpp checks the types of builtins.hpp).
#pragma once

#include <cstddef>

#include "builtins.hpp"
#include "common/broadcast.hpp"

namespace oprig::builtins {

struct Node {
  Op op = Op::kCompare;
  uint32_t operation = 0;  // Comparison or LogicalOp
  // From prepare():
  bool prepared = false;
  uint32_t in_dtype = OPRIG_DTYPE_INVALID;
  uint32_t out_dtype = OPRIG_DTYPE_INVALID;
  opsuite::BroadcastPlan plan;  // two-input ops; Cast and LogicalNot: one row of count elements
  size_t count = 0;             // output elements
};

// create(): the op by name and its parameters. UNSUPPORTED for another op,
// INVALID_ARGUMENT for a missing or unknown operation.
oprig_status parse_node(const char* op_name, const oprig_param* params, size_t num_params, Node* node);

// prepare(): checks the types, plans the broadcast and writes the output
// shape. UNSUPPORTED for types outside builtins.hpp (quantised ones).
oprig_status plan_node(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                       size_t num_outputs);

}  // namespace oprig::builtins
