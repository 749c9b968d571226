// One Compare, Logical, LogicalNot or Cast node as every backend sees it
// after create() and prepare(): the op, its operation, the element types
// and the broadcast plan (node.cpp checks the types of builtins.hpp).
#pragma once

#include <cstddef>

#include "builtins.hpp"
#include "common/broadcast.hpp"
#include "quant.hpp"

namespace oprig::builtins {

// A quantised input of Compare: real = float(q - zero_point) * scale.
struct QuantisedInput {
  float scale = 0;
  int32_t zero_point = 0;
};

struct Node {
  Op op = Op::kCompare;
  uint32_t operation = 0;   // Comparison, LogicalOp or ArithmeticOp
  uint32_t activation = 0;  // QuantizedArithmetic's fused_activation
  // From prepare():
  bool prepared = false;
  uint32_t in_dtype = OPRIG_DTYPE_INVALID;
  uint32_t out_dtype = OPRIG_DTYPE_INVALID;
  opsuite::BroadcastPlan plan;  // two-input ops; Cast and LogicalNot: one row of count elements
  size_t count = 0;             // output elements
  // Quantised Compare (UINT_8 or INT_8 with scales) and QuantizedArithmetic:
  bool quantised = false;
  QuantisedInput qa, qb;
  quant::ArithmeticParams arithmetic;
};

// create(): the op by name and its parameters. UNSUPPORTED for another op,
// INVALID_ARGUMENT for a missing or unknown operation.
oprig_status parse_node(const char* op_name, const oprig_param* params, size_t num_params, Node* node);

// prepare(): checks the types, plans the broadcast, computes the
// requantisation parameters and writes the output shape. UNSUPPORTED for
// types outside builtins.hpp.
oprig_status plan_node(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                       size_t num_outputs);

}  // namespace oprig::builtins
