// What the tests of built-in kernels on the devices share: one-operation
// models, and a fixture that runs a model on the device under test and on
// cpu's host kernels (builtin_kernels.cpp, the reference semantics), checks
// where the operation ran (on the device where it can run there, else the
// fallback) and that both outputs are equal bit for bit (any NaN equals any
// NaN for FLOAT_32 and FLOAT_16).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "device_test_support.hpp"

namespace oprig::graph::device_test {

// JSON of one operand of a single-operation model.
std::string input_operand(oprig_dtype type, const std::vector<int64_t>& dims, float scale = 0, int32_t zero_point = 0);
std::string output_operand(oprig_dtype type, float scale = 0, int32_t zero_point = 0);
std::string int32_scalar(int32_t value);  // a CONSTANT INT32 scalar (an activation, an axis)
std::string int32_scalar_input();          // an INT32 scalar SUBGRAPH_INPUT
std::string int32_constant(const std::vector<int32_t>& values);  // a CONSTANT TENSOR_INT32 [n]

// One operation `op` over `operands` (the last is its output; the others its
// inputs in order); the model's inputs are the SUBGRAPH_INPUT ones in order.
std::string single_op(const std::string& op, const std::vector<std::string>& operands);

// y = op(a[, b]) with the given types and shapes, all inputs from the caller.
std::string one_op(const std::string& op, oprig_dtype in, oprig_dtype out, const std::vector<int64_t>& a_dims,
                   const std::vector<int64_t>* b_dims);

// FLOAT_16 bits of a float (round to nearest even) and back.
uint16_t half(float v);
float from_half(uint16_t h);

class BuiltinKernels : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override;
  bool has_float() const { return GetParam() != "dsp"; }

  // Runs the model on the device (expecting operation 0 of subgraph 0 there
  // when `device_can`, else on cpu) and on the host kernels; returns the
  // device's output after checking it equals the host's.
  HostTensor run(const std::string& model_json, const std::vector<HostTensor>& inputs, bool device_can);

  // Every pair (a_i, b_j) of `v` through a two-input model made by
  // `model(a_dims, b_dims)`: as two [n*n] tensors, then against each value
  // as a one-element second input.
  template <typename T, typename MakeModel>
  void all_pairs(MakeModel model, oprig_dtype in, const std::vector<T>& v, bool device_can) {
    std::vector<T> a, b;
    for (const T& x : v)
      for (const T& y : v) {
        a.push_back(x);
        b.push_back(y);
      }
    const std::vector<int64_t> dims = {static_cast<int64_t>(a.size())}, one = {1};
    run(model(dims, dims), {tensor<T>(in, dims, a), tensor<T>(in, dims, b)}, device_can);
    for (const T& y : v) run(model(dims, one), {tensor<T>(in, dims, a), tensor<T>(in, one, {y})}, device_can);
  }
  template <typename T>
  void all_pairs(const std::string& op, oprig_dtype in, oprig_dtype out, const std::vector<T>& v, bool device_can) {
    all_pairs<T>([&](const std::vector<int64_t>& a, const std::vector<int64_t>& b) { return one_op(op, in, out, a, &b); },
                 in, v, device_can);
  }

  Backend* target_ = nullptr;
};

}  // namespace oprig::graph::device_test
