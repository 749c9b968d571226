// Type and shape rules of the built-in operations, checked on declared
// operands at load (unknown dimensions pass) and on real shapes at run time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/model.hpp"

namespace oprig::graph::shape_rules {

uint64_t element_count(const std::vector<int64_t>& dims);

// Two declarations agree where both are known (rank, then each dimension).
bool dims_compatible(const std::optional<std::vector<int64_t>>& a, const std::optional<std::vector<int64_t>>& b);

// Elementwise broadcast of the built-ins: equal shapes, or one side holds
// exactly one element (then the result has the other side's shape).
std::optional<std::vector<int64_t>> broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// Checks a built-in (not IF/WHILE) against its operands' declared types.
// On failure sets *why and *culprit (index into inputs, then outputs; -1 none).
bool check_builtin(BuiltinOp op, const std::vector<const Operand*>& inputs, const std::vector<const Operand*>& outputs,
                   std::string* why, int* culprit);

bool is_quantised(const Operand& o);

}  // namespace oprig::graph::shape_rules
