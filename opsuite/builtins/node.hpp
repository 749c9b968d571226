// One node of org.oprig.builtins as every backend sees it after create()
// and prepare(): the op, its operation, the element types and the broadcast
// plan (node.cpp checks the types of builtins.hpp), or the geometry of a
// Slice or FullyConnected (shaped.cpp).
#pragma once

#include <cstddef>

#include "builtins.hpp"
#include "common/broadcast.hpp"
#include "common/quant.hpp"

namespace oprig::builtins {
namespace quant = oprig::opsuite::quant;

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
  // Slice, from resolve_shapes(): the box, in elements of element_bytes.
  struct {
    uint32_t rank = 0, element_bytes = 0;
    int64_t in_dims[OPRIG_MAX_RANK] = {}, begin[OPRIG_MAX_RANK] = {}, out_dims[OPRIG_MAX_RANK] = {};
    bool resolved = false;
  } slice;
  // FullyConnected: [batch, depth] x [units, depth]; quantised: the offsets
  // (-zero points), the output zero point, the multiplier and the clamp.
  struct {
    int64_t batch = 0, units = 0, depth = 0;
    int32_t x_offset = 0, w_offset = 0, out_offset = 0;
    quant::Multiplier multiplier;
    quant::Range range;
  } fc;
};

// create(): the op by name and its parameters. UNSUPPORTED for another op,
// INVALID_ARGUMENT for a missing or unknown operation.
oprig_status parse_node(const char* op_name, const oprig_param* params, size_t num_params, Node* node);

// prepare(): checks the types, plans the broadcast, computes the
// requantisation parameters and writes the output shape. UNSUPPORTED for
// types outside builtins.hpp.
oprig_status plan_node(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                       size_t num_outputs);

// shaped.cpp: Slice and FullyConnected's prepare(), and Slice's
// resolve_shapes() (begin and size on the host; INVALID_ARGUMENT where the
// runtime's host kernel refuses them: begin < 0, a box outside the input,
// begin and size not of the input's rank).
oprig_status plan_slice(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                        size_t num_outputs);
oprig_status resolve_slice(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                           size_t num_outputs);
oprig_status plan_fully_connected(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                                  size_t num_outputs);

}  // namespace oprig::builtins
