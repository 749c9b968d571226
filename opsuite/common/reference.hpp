// The fp64 reference of an op: readable, slow on purpose, independent of every
// kernel. Each op's reference.cpp defines `oprig_reference_<Op>`.
//
// Inputs arrive as real values (quantised inputs dequantised, fp16 widened
// exactly, integers exact), one RefTensor per input the case passes; an
// optional input the case leaves out has present == false and no values.
// `outputs` arrives sized to the case's outputs with dtype and quantisation
// set; the reference sets each output's shape and values. Values are real
// values, which the harness rounds for quantised outputs under the one stated
// rule (harness/cases/tensor_data.hpp), or, with `codes` set, integer codes the
// reference rounded itself (ops whose semantics IS a rounding, like Quantize).
// Integer outputs (indices, counts) are exact integers.
//
// Parameters come by spec name: what the case passes to the kernel, and for
// the rest the spec's Default where it parses. Enumeration values arrive by
// name ("MAX"), however the kernel receives them. A reference that meets a
// parameter combination the op does not define throws std::invalid_argument.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "oprig/oprig_package.h"

namespace oprig::opsuite {

struct RefTensor {
  std::vector<int64_t> shape;
  std::vector<double> values;
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  double scale = 0;  // quantisation (0: none): real = scale * (code - zero_point)
  int32_t zero_point = 0;
  bool present = true;  // inputs: false for an optional input left out
  std::string layout;   // inputs: the spec's layout on the case's backend ("NHWC", "NCHW", "" none)
  bool codes = false;   // outputs: values are integer codes already

  size_t element_count() const;
};

// Parameters by spec name; a value is a number, a bool, a string (enumeration
// value or symbolic default) or an array of numbers.
class RefParams {
 public:
  RefParams() = default;
  explicit RefParams(nlohmann::json values);

  bool has(std::string_view name) const;
  // Throw std::invalid_argument naming the parameter when it is absent or of
  // another kind; the _or forms return the fallback when it is absent.
  double number(std::string_view name) const;
  double number_or(std::string_view name, double fallback) const;
  int64_t integer(std::string_view name) const;
  int64_t integer_or(std::string_view name, int64_t fallback) const;
  bool boolean(std::string_view name) const;
  bool boolean_or(std::string_view name, bool fallback) const;
  std::string text(std::string_view name) const;
  std::string text_or(std::string_view name, std::string fallback) const;
  // A scalar gives one element; nested arrays (a 2D tensor parameter) their
  // elements in row-major order.
  std::vector<double> numbers(std::string_view name) const;
  std::vector<int64_t> integers(std::string_view name) const;
  std::vector<int64_t> integers_or(std::string_view name, std::vector<int64_t> fallback) const;

  const nlohmann::json& values() const { return values_; }

 private:
  const nlohmann::json* find(std::string_view name) const;
  nlohmann::json values_ = nlohmann::json::object();
};

struct ReferenceOp {
  const char* op_name;
  void (*compute)(const std::vector<RefTensor>& inputs, const RefParams& params,
                  std::vector<RefTensor>& outputs);
  // FLOPs of one output element of work, for roofline counters when the
  // kernel has no cost function; 0 when not meaningful.
  double flops_per_element;
};

const ReferenceOp* find_reference(std::string_view op_name);

// Row-major helpers for references.
size_t element_count(const std::vector<int64_t>& shape);
std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape);
// NumPy broadcasting of two shapes; throws std::invalid_argument when they
// do not broadcast.
std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
// The flat index into `shape` (right-aligned, size-1 dims broadcast) of the
// element at `coords` of the broadcast result.
size_t broadcast_index(const std::vector<int64_t>& coords, const std::vector<int64_t>& shape);
// Coordinates of flat index i over shape.
std::vector<int64_t> unravel(size_t i, const std::vector<int64_t>& shape);
// An axis in [-rank, rank) as a positive axis; throws std::invalid_argument.
size_t normalize_axis(int64_t axis, size_t rank);

}  // namespace oprig::opsuite
