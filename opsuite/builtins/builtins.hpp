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

enum class Op { kCompare, kLogical, kLogicalNot, kCast, kQuantizedArithmetic };
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
  else return false;
  return true;
}


// The element types Cast handles (non-quantised).
inline bool castable(uint32_t dtype) {
  return dtype == OPRIG_DTYPE_INT_32 || dtype == OPRIG_DTYPE_FLOAT_32 || dtype == OPRIG_DTYPE_UINT_8 ||
         dtype == OPRIG_DTYPE_INT_8 || dtype == OPRIG_DTYPE_BOOL_8;
}

// Two tensor inputs broadcast against each other.
inline bool binary(Op op) { return op == Op::kCompare || op == Op::kLogical || op == Op::kQuantizedArithmetic; }

inline uint32_t element_bytes(uint32_t dtype) {
  return dtype == OPRIG_DTYPE_INT_32 || dtype == OPRIG_DTYPE_FLOAT_32 ? 4 : dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 1;
}

}  // namespace oprig::builtins
