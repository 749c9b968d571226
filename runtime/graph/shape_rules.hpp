// Type and shape rules of the built-in operations, checked on declared
// operands at load (unknown dimensions and ranks pass; CONSTANT values such
// as an activation code or a slice size are checked too). The same rules
// hold again on real shapes and values when the host kernels run.
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

// NNAPI broadcasting of declared dims (0 = unknown): shapes are aligned at
// their trailing dimensions; two dimensions are compatible when equal or one
// of them is 1; the result takes the larger. nullopt: incompatible. An
// unknown rank gives an unknown rank (nullopt in *result, true returned).
bool broadcast_declared(const std::optional<std::vector<int64_t>>& a, const std::optional<std::vector<int64_t>>& b,
                        std::optional<std::vector<int64_t>>* result);

// NNAPI broadcasting of two real shapes, as the host kernels apply it
// (trailing alignment; equal or 1; a zero-sized dimension pairs with 0 or 1
// and gives 0). nullopt: incompatible.
std::optional<std::vector<int64_t>> broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// Checks a built-in (not IF/WHILE) against its operands' declarations.
// On failure sets *why and *culprit (index into inputs, then outputs; -1 none).
bool check_builtin(BuiltinOp op, const std::vector<const Operand*>& inputs, const std::vector<const Operand*>& outputs,
                   std::string* why, int* culprit);

bool is_quantised(const Operand& o);

// SLICE's output dims (NNAPI: size -1 takes the rest of the dimension;
// begin + size must stay inside it). oprig also requires begin >= 0, which
// NNAPI's reference leaves unchecked. false + *why when out of range.
bool slice_output_dims(const int64_t* dims, size_t rank, const int32_t* begin, const int32_t* size, int64_t* out,
                       std::string* why);

}  // namespace oprig::graph::shape_rules
