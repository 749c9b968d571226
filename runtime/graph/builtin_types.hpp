// The NNAPI operand kinds built-in operations are defined on, read from an
// oprig operand: TENSOR_FLOAT32 is a FLOAT_32 tensor, TENSOR_QUANT8_ASYMM a
// UINT_8 tensor with scale > 0, and so on. Used by the load-time type rules
// and by the choice of host kernel alike, so both agree on what an operand is.
#pragma once

#include <string_view>

#include "graph/model.hpp"

namespace oprig::graph {

enum class TensorKind {
  kFloat32,       // TENSOR_FLOAT32
  kFloat16,       // TENSOR_FLOAT16
  kInt32,         // TENSOR_INT32; a scale (a quantised bias's) is ignored, as NNAPI ignores it
  kQuant8,        // TENSOR_QUANT8_ASYMM: UINT_8, scale > 0
  kQuant8Signed,  // TENSOR_QUANT8_ASYMM_SIGNED: INT_8, scale > 0
  kBool8,         // TENSOR_BOOL8
  kOther,         // anything else: a scalar, an extension type, plain UINT_8, ...
};

inline TensorKind tensor_kind(const Operand& o) {
  if (o.is_subgraph_reference || o.scalar || o.extension) return TensorKind::kOther;
  switch (o.dtype) {
    case OPRIG_DTYPE_FLOAT_32: return TensorKind::kFloat32;
    case OPRIG_DTYPE_FLOAT_16: return TensorKind::kFloat16;
    case OPRIG_DTYPE_INT_32: return TensorKind::kInt32;
    case OPRIG_DTYPE_UINT_8: return o.scale > 0 ? TensorKind::kQuant8 : TensorKind::kOther;
    case OPRIG_DTYPE_INT_8: return o.scale > 0 ? TensorKind::kQuant8Signed : TensorKind::kOther;
    case OPRIG_DTYPE_BOOL_8: return TensorKind::kBool8;
    default: return TensorKind::kOther;
  }
}

inline bool is_quant8(TensorKind k) { return k == TensorKind::kQuant8 || k == TensorKind::kQuant8Signed; }

inline std::string_view tensor_kind_name(TensorKind k) {
  switch (k) {
    case TensorKind::kFloat32: return "TENSOR_FLOAT32";
    case TensorKind::kFloat16: return "TENSOR_FLOAT16";
    case TensorKind::kInt32: return "TENSOR_INT32";
    case TensorKind::kQuant8: return "TENSOR_QUANT8_ASYMM";
    case TensorKind::kQuant8Signed: return "TENSOR_QUANT8_ASYMM_SIGNED";
    case TensorKind::kBool8: return "TENSOR_BOOL8";
    case TensorKind::kOther: break;
  }
  return "another type";
}

// An INT32 scalar (the activation and axis operands).
inline bool is_int32_scalar(const Operand& o) { return o.scalar && !o.extension && o.dtype == OPRIG_DTYPE_INT_32; }

}  // namespace oprig::graph
