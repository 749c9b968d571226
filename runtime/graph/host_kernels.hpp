// Internal: the host kernels of the built-in operations, one selector per
// family, each returning the kernel specialised for the operand types (or
// nullptr when there is none). builtin_kernels.cpp is the one dispatch table
// over them.
#pragma once

#include "graph/runtime_types.hpp"

namespace oprig::graph::kernels {

StepFn arithmetic(BuiltinOp op, const Operand& input0);   // ADD SUB MUL DIV
StepFn comparison(BuiltinOp op, const Operand& input0);   // LESS ... NOT_EQUAL
StepFn logical(BuiltinOp op);                             // LOGICAL_AND OR NOT
StepFn cast(const Operand& input, const Operand& output);
StepFn fully_connected(const Operand& input);
StepFn slice(const Operand& input);
StepFn concatenation(const Operand& input0);

}  // namespace oprig::graph::kernels
