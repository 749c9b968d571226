// The one dispatch table of the built-in operations' host kernels: which
// kernel runs an operation with the operand types it has, chosen once at
// prepare (only shapes and values are looked at per run). nullptr: the host
// has no kernel for these types. The kernels themselves live in kernels_*.cpp,
// one file per family; their semantics are NNAPI's (README.md, "Built-ins").
#include "graph/host_kernels.hpp"

namespace oprig::graph {

StepFn builtin_kernel(BuiltinOp op, const Plan& plan, const Operation& operation) {
  const Operand& a = *plan.operands[operation.inputs.at(0)].decl;
  switch (op) {
    case BuiltinOp::kAdd:
    case BuiltinOp::kSub:
    case BuiltinOp::kMul:
    case BuiltinOp::kDiv: return kernels::arithmetic(op, a);
    case BuiltinOp::kLess:
    case BuiltinOp::kLessEqual:
    case BuiltinOp::kGreater:
    case BuiltinOp::kGreaterEqual:
    case BuiltinOp::kEqual:
    case BuiltinOp::kNotEqual: return kernels::comparison(op, a);
    case BuiltinOp::kLogicalAnd:
    case BuiltinOp::kLogicalOr:
    case BuiltinOp::kLogicalNot: return kernels::logical(op);
    case BuiltinOp::kCast: return kernels::cast(a, *plan.operands[operation.outputs.at(0)].decl);
    case BuiltinOp::kFullyConnected: return kernels::fully_connected(a);
    case BuiltinOp::kSlice: return kernels::slice(a);
    case BuiltinOp::kConcatenation: return kernels::concatenation(a);
    case BuiltinOp::kIf: return &run_if;
    case BuiltinOp::kWhile: return &run_while;
  }
  return nullptr;
}

}  // namespace oprig::graph
