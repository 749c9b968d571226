// What every kernel of org.oprig.builtins shares: the ops, their parameters,
// and the semantics they must match bit for bit, which are the host kernels'
// of runtime/graph (builtin_kernels.cpp, the reference):
//   Compare  (operation LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL,
//            NOT_EQUAL): INT_32, FLOAT_32 or FLOAT_16 (IEEE: NaN compares
//            unequal, so only NOT_EQUAL is true; -0 == +0; denormals are not
//            zero; FLOAT_16 as the host does it, widened exactly to float) or
//            BOOL_8 (the bytes as unsigned numbers) -> BOOL_8 0/1.
//   Logical  (operation AND, OR), LogicalNot: BOOL_8 (any non-zero byte is
//            true) -> BOOL_8 0/1.
//            Quantised UINT_8 / INT_8 inputs compare their real values as
//            the host does (quant.hpp), each with its own quantisation.
//   Slice    (input, begin, size): NNAPI's SLICE of any 1, 2 or 4-byte
//            element type (quantised codes keep their quantisation): the box
//            begin .. begin + size, size -1 meaning to the end; begin >= 0 and
//            begin + size within the input, else INVALID_ARGUMENT. The output
//            shape depends on begin and size: prepare() leaves it at -1 and
//            resolve_shapes() reads them (only them) on the host.
//   FullyConnected (input, weights, bias; fused_activation): NNAPI's
//            FULLY_CONNECTED: the input (rank 2..4) as [batch, depth] rows,
//            weights [units, depth], bias [units] -> [batch, units].
//            FLOAT_32 / FLOAT_16 accumulate in fp32 in input order, then add
//            the bias and clamp (FLOAT_16 rounded once at the end);
//            quantised UINT_8 / INT_8 (INT_32 bias) sum offset products in
//            int32 and requantise by s_in s_w / s_out (quant.hpp).
//   QuantizedArithmetic (operation ADD, SUB, MUL; fused_activation NONE,
//            RELU, RELU1, RELU6): quantised UINT_8 or INT_8 -> the same type,
//            NNAPI's integer requantisation (quant.hpp), code for code.
//   Cast     between INT_32, FLOAT_32, UINT_8, INT_8 and BOOL_8, none
//            quantised: from BOOL_8 the value is 0 or 1; to INT_32, UINT_8,
//            INT_8 truncate toward zero and saturate, NaN -> 0; to FLOAT_32
//            round to nearest even; to BOOL_8 value != 0 (NaN and denormals
//            are non-zero). Quantised casts stay on the host.
// Two-input ops broadcast as NumPy does (the graph passes a one-element side
// of a built-in as rank 0). Each backend file holds the four ops' kernels.
#pragma once

#include <cstdint>
#include <string_view>

#include "oprig/oprig_package.h"

namespace oprig::builtins {

enum class Op { kCompare, kLogical, kLogicalNot, kCast, kQuantizedArithmetic, kSlice, kFullyConnected };
enum Comparison : uint32_t { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };
enum LogicalOp : uint32_t { kAnd, kOr };
enum ArithmeticOp : uint32_t { kAdd, kSub, kMul };

inline bool op_from_name(const char* name, Op* op) {
  const std::string_view n(name);
  if (n == "Compare") *op = Op::kCompare;
  else if (n == "Logical") *op = Op::kLogical;
  else if (n == "LogicalNot") *op = Op::kLogicalNot;
  else if (n == "Cast") *op = Op::kCast;
  else if (n == "QuantizedArithmetic") *op = Op::kQuantizedArithmetic;
  else if (n == "Slice") *op = Op::kSlice;
  else if (n == "FullyConnected") *op = Op::kFullyConnected;
  else return false;
  return true;
}


// The element types Cast handles (non-quantised).
inline bool castable(uint32_t dtype) {
  return dtype == OPRIG_DTYPE_INT_32 || dtype == OPRIG_DTYPE_FLOAT_32 || dtype == OPRIG_DTYPE_UINT_8 ||
         dtype == OPRIG_DTYPE_INT_8 || dtype == OPRIG_DTYPE_BOOL_8;
}

// Element types Slice moves (as bytes).
inline uint32_t slice_element_bytes(uint32_t dtype) {
  switch (dtype) {
    case OPRIG_DTYPE_FLOAT_32: case OPRIG_DTYPE_INT_32: return 4;
    case OPRIG_DTYPE_FLOAT_16: return 2;
    case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_INT_8: case OPRIG_DTYPE_BOOL_8: return 1;
    default: return 0;
  }
}

// Two tensor inputs broadcast against each other.
inline bool binary(Op op) { return op == Op::kCompare || op == Op::kLogical || op == Op::kQuantizedArithmetic; }

inline uint32_t element_bytes(uint32_t dtype) {
  return dtype == OPRIG_DTYPE_INT_32 || dtype == OPRIG_DTYPE_FLOAT_32 ? 4 : dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 1;
}

}  // namespace oprig::builtins
