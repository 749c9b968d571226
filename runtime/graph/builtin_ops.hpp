// Built-in operations (extension prefix 0). The codes are NNAPI's
// OperationCode values, so a model written against NNAPI numbers reads the
// same here; in JSON they may also be written by name ("ADD"). Their
// semantics are NNAPI's (runtime/graph/README.md, "Built-ins", cites the
// NeuralNetworks.h documentation of each).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace oprig::graph {

enum class BuiltinOp : uint16_t {
  kAdd = 0,
  kConcatenation = 2,
  kFullyConnected = 9,
  kMul = 18,
  kDiv = 30,
  kSub = 36,
  kCast = 45,
  kEqual = 48,
  kGreater = 53,
  kGreaterEqual = 54,
  kLess = 58,
  kLessEqual = 59,
  kLogicalAnd = 61,
  kLogicalNot = 62,
  kLogicalOr = 63,
  kNotEqual = 68,
  kSlice = 86,
  kIf = 96,
  kWhile = 97,
};

// NNAPI's FuseCode: the activation operand of ADD, SUB, MUL, DIV and
// FULLY_CONNECTED (an INT32 scalar).
enum class FuseCode : int32_t { kNone = 0, kRelu = 1, kRelu1 = 2, kRelu6 = 3 };
constexpr bool is_fuse_code(int32_t v) { return v >= 0 && v <= 3; }

std::optional<BuiltinOp> builtin_from_code(uint32_t code);
std::optional<BuiltinOp> builtin_from_name(std::string_view name);
std::string_view builtin_name(BuiltinOp op);
bool is_control_flow(BuiltinOp op);

}  // namespace oprig::graph
