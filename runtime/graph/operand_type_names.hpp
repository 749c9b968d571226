// NNAPI's OperandCode names and numbers (NeuralNetworks.h, "OperandCode")
// as the model JSON may write them, mapped onto oprig dtypes: "TENSOR_FLOAT32"
// is a FLOAT_32 tensor, "INT32" an INT_32 scalar, "TENSOR_QUANT8_ASYMM" a
// UINT_8 tensor that must carry a scale > 0.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "oprig/oprig_package.h"

namespace oprig::graph {

// NNAPI validateOperandType: quantised tensor types need scale > 0 (and a
// zero point of 0 when symmetric); TENSOR_INT32 may carry scale and zero
// point (a quantised bias) or not; every other type has neither.
enum class Quantisation { kNone, kRequired, kRequiredSymmetric, kOptional };

struct NnapiOperandType {
  std::string_view name;
  uint32_t code = 0;  // NNAPI OperandCode
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  bool scalar = false;
  Quantisation quantisation = Quantisation::kNone;
  bool subgraph = false;  // SUBGRAPH
};

std::optional<NnapiOperandType> nnapi_operand_type(std::string_view name);
std::optional<NnapiOperandType> nnapi_operand_type(uint32_t code);

}  // namespace oprig::graph
