#include "graph/operand_type_names.hpp"

#include <array>

namespace oprig::graph {
namespace {

// TENSOR_QUANT8_SYMM_PER_CHANNEL (11) is absent: its per-channel scales have
// no place in an oprig operand.
constexpr std::array<NnapiOperandType, 15> kTypes = {{
    {"FLOAT32", 0, OPRIG_DTYPE_FLOAT_32, true, Quantisation::kNone, false},
    {"INT32", 1, OPRIG_DTYPE_INT_32, true, Quantisation::kNone, false},
    {"UINT32", 2, OPRIG_DTYPE_UINT_32, true, Quantisation::kNone, false},
    {"TENSOR_FLOAT32", 3, OPRIG_DTYPE_FLOAT_32, false, Quantisation::kNone, false},
    {"TENSOR_INT32", 4, OPRIG_DTYPE_INT_32, false, Quantisation::kOptional, false},
    {"TENSOR_QUANT8_ASYMM", 5, OPRIG_DTYPE_UINT_8, false, Quantisation::kRequired, false},
    {"BOOL", 6, OPRIG_DTYPE_BOOL_8, true, Quantisation::kNone, false},
    {"TENSOR_QUANT16_SYMM", 7, OPRIG_DTYPE_INT_16, false, Quantisation::kRequiredSymmetric, false},
    {"TENSOR_FLOAT16", 8, OPRIG_DTYPE_FLOAT_16, false, Quantisation::kNone, false},
    {"TENSOR_BOOL8", 9, OPRIG_DTYPE_BOOL_8, false, Quantisation::kNone, false},
    {"FLOAT16", 10, OPRIG_DTYPE_FLOAT_16, true, Quantisation::kNone, false},
    {"TENSOR_QUANT16_ASYMM", 12, OPRIG_DTYPE_UINT_16, false, Quantisation::kRequired, false},
    {"TENSOR_QUANT8_SYMM", 13, OPRIG_DTYPE_INT_8, false, Quantisation::kRequiredSymmetric, false},
    {"TENSOR_QUANT8_ASYMM_SIGNED", 14, OPRIG_DTYPE_INT_8, false, Quantisation::kRequired, false},
    {"SUBGRAPH", 15, OPRIG_DTYPE_INVALID, false, Quantisation::kNone, true},
}};

}  // namespace

std::optional<NnapiOperandType> nnapi_operand_type(std::string_view name) {
  for (const NnapiOperandType& t : kTypes)
    if (t.name == name) return t;
  return std::nullopt;
}

std::optional<NnapiOperandType> nnapi_operand_type(uint32_t code) {
  for (const NnapiOperandType& t : kTypes)
    if (t.code == code) return t;
  return std::nullopt;
}

}  // namespace oprig::graph
