// The integer reference of an op: the fixed-point rule its quantised kernels
// implement (int32 accumulators, TFLite/NNAPI requantisation through
// quant.hpp's multipliers, zero point, clamp), written as plainly as the fp64
// reference. The harness judges a quantised case against it at 0 LSB, beside
// the fp64 reference at the plan's tolerance, where the op's plan.json names
// the rule ("integer_reference": {"rule": ...}); the two references differing
// by more than 1 LSB on a case is a bug of a reference, never of the kernel.
//
// Inputs arrive as RefTensors whose values are the stored integer CODES (not
// real values), with scale and zero_point set; outputs arrive sized, with dtype
// and quantisation set, and the reference sets shape and values, as codes.
// compute() returns false when the rule does not cover the case (a float type):
// the fp64 reference alone judges it then. It throws std::invalid_argument for
// a node the op does not define, as the fp64 reference does.
//
// Used by MatMul (opsuite/matmul/integer_reference.cpp); Conv2D and
// DepthwiseConv2D add theirs to common/integer_reference_registry.cpp.
#pragma once

#include <string_view>
#include <vector>

#include "common/reference.hpp"

namespace oprig::opsuite {

struct IntegerReferenceOp {
  const char* op_name;
  bool (*compute)(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs);
};

// nullptr when the op has no integer reference.
const IntegerReferenceOp* find_integer_reference(std::string_view op_name);

}  // namespace oprig::opsuite
