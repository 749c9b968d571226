// The fp64 reference of an op: readable, slow on purpose, independent of every
// kernel. It maps real-valued inputs to real-valued outputs; the harness
// dequantises inputs before and quantises outputs after (harness/cases states
// the rounding). Each op's reference.cpp defines `oprig_reference_<Op>`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace oprig::opsuite {

struct RefTensor {
  std::vector<int64_t> shape;
  std::vector<double> values;
};

using RefParams = std::map<std::string, double, std::less<>>;

struct ReferenceOp {
  const char* op_name;
  // Output shapes are inferred by the reference itself.
  void (*compute)(const std::vector<RefTensor>& inputs, const RefParams& params,
                  std::vector<RefTensor>& outputs);
  // FLOPs of one element of work, for roofline counters; 0 when not meaningful.
  double flops_per_element;
};

const ReferenceOp* find_reference(std::string_view op_name);

}  // namespace oprig::opsuite
