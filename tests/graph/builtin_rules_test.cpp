// Load-time rules of the built-ins (NeuralNetworks.h's operand types, ranks,
// FuseCodes, quantisation constraints): each bad model is rejected with its
// location and reason, before anything runs.
#include <gtest/gtest.h>

#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

std::string constant(const std::string& type, const std::string& dims, const std::string& value,
                     const std::string& quantisation = "") {
  return "\"type\": \"" + type + "\", \"dims\": " + dims + ", \"lifetime\": \"CONSTANT\", \"value\": " + value +
         (quantisation.empty() ? "" : ", " + quantisation);
}
std::string output(const std::string& type, const std::string& dims, const std::string& quantisation = "") {
  return "\"type\": \"" + type + "\", \"dims\": " + dims + ", \"lifetime\": \"SUBGRAPH_OUTPUT\"" +
         (quantisation.empty() ? "" : ", " + quantisation);
}
std::string act(int code) { return R"("type": "INT32", "lifetime": "CONSTANT", "value": )" + std::to_string(code); }

void expect_error(const std::string& json, const std::vector<std::string>& parts) {
  const std::string error = load_error(json);
  ASSERT_FALSE(error.empty()) << "loaded without error";
  for (const std::string& part : parts) EXPECT_NE(error.find(part), std::string::npos) << error;
}

const std::string kF1 = constant("TENSOR_FLOAT32", "[1]", "[1]");
const std::string kI1 = constant("TENSOR_INT32", "[1]", "[1]");

TEST(BuiltinRules, ActivationMustBeAFuseCodeScalar) {
  expect_error(one_op("ADD", {kF1, kF1, act(4), output("TENSOR_FLOAT32", "[1]")}, {0, 1, 2}, {3}),
               {"operand 2", "fused activation 4 is not a FuseCode"});
  expect_error(one_op("ADD", {kF1, kF1, constant("TENSOR_INT32", "[1]", "[0]"), output("TENSOR_FLOAT32", "[1]")}, {0, 1, 2}, {3}),
               {"the fused activation) must be an INT32 scalar, is INT_32 [1]"});
  // NNAPI: "For a TENSOR_INT32 tensor, the FuseCode must be NONE".
  expect_error(one_op("MUL", {kI1, kI1, act(1), output("TENSOR_INT32", "[1]")}, {0, 1, 2}, {3}),
               {"TENSOR_INT32 takes only the fused activation NONE (0), got 1"});
}

TEST(BuiltinRules, OperandTypesPerOperation) {
  // DIV has no quantised types.
  const std::string q = constant("TENSOR_QUANT8_ASYMM", "[1]", "[1]", R"("scale": 1.0, "zero_point": 0)");
  expect_error(one_op("DIV", {q, q, act(0), output("TENSOR_QUANT8_ASYMM", "[1]", R"("scale": 1.0, "zero_point": 0)")}, {0, 1, 2}, {3}),
               {"input 0 must be one of TENSOR_FLOAT32, TENSOR_FLOAT16, TENSOR_INT32"});
  // Comparisons give TENSOR_BOOL8.
  expect_error(one_op("LESS", {kF1, kF1, output("TENSOR_FLOAT32", "[1]")}, {0, 1}, {2}), {"output must be TENSOR_BOOL8"});
  // Both inputs of one type.
  expect_error(one_op("ADD", {kF1, kI1, act(0), output("TENSOR_FLOAT32", "[1]")}, {0, 1, 2}, {3}),
               {"operand 1", "inputs must have the same type"});
  // A plain (unquantised) UINT_8 is no NNAPI type.
  expect_error(one_op("ADD", {constant("UINT_8", "[1]", "[1]"), constant("UINT_8", "[1]", "[1]"), act(0), output("UINT_8", "[1]")},
                      {0, 1, 2}, {3}),
               {"input 0 must be one of"});
}

TEST(BuiltinRules, ShapesAndRanks) {
  expect_error(one_op("ADD", {constant("TENSOR_FLOAT32", "[2, 3]", "[1,2,3,4,5,6]"), constant("TENSOR_FLOAT32", "[3, 2]", "[1,2,3,4,5,6]"),
                              act(0), output("TENSOR_FLOAT32", "[2, 3]")},
                      {0, 1, 2}, {3}),
               {"shapes [2,3] and [3,2] do not broadcast"});
  expect_error(one_op("ADD", {kF1, constant("TENSOR_FLOAT32", "[2]", "[1, 2]"), act(0), output("TENSOR_FLOAT32", "[3]")}, {0, 1, 2}, {3}),
               {"output is declared [3], the result is [2]"});
  expect_error(one_op("ADD", {constant("TENSOR_FLOAT32", "[1, 1, 1, 1, 1]", "[1]"), kF1, act(0), output("TENSOR_FLOAT32", "[1, 1, 1, 1, 1]")},
                      {0, 1, 2}, {3}),
               {"rank 5; NNAPI supports rank up to 4"});
}

TEST(BuiltinRules, QuantisedScales) {
  // MUL: output scale must exceed the product of the input scales.
  const std::string a = constant("TENSOR_QUANT8_ASYMM", "[1]", "[1]", R"("scale": 0.5, "zero_point": 0)");
  expect_error(one_op("MUL", {a, a, act(0), output("TENSOR_QUANT8_ASYMM", "[1]", R"("scale": 0.25, "zero_point": 0)")}, {0, 1, 2}, {3}),
               {"output scale > input0 scale * input1 scale"});
  // FULLY_CONNECTED: the bias scale is input scale * weights scale.
  const std::string x = constant("TENSOR_QUANT8_ASYMM", "[1, 2]", "[1, 2]", R"("scale": 0.5, "zero_point": 0)");
  const std::string w = constant("TENSOR_QUANT8_ASYMM", "[1, 2]", "[1, 2]", R"("scale": 0.5, "zero_point": 0)");
  expect_error(one_op("FULLY_CONNECTED",
                      {x, w, constant("TENSOR_INT32", "[1]", "[0]", R"("scale": 0.5, "zero_point": 0)"), act(0),
                       output("TENSOR_QUANT8_ASYMM", "[1, 1]", R"("scale": 1.0, "zero_point": 0)")},
                      {0, 1, 2, 3}, {4}),
               {"operand 2", "scale input scale * weights scale (0.25"});
  // A quantised type without a scale, or with a zero point out of range.
  expect_error(one_op("ADD", {R"("type": "TENSOR_QUANT8_ASYMM", "dims": [1], "lifetime": "CONSTANT", "value": [1])", kF1, act(0),
                              output("TENSOR_FLOAT32", "[1]")},
                      {0, 1, 2}, {3}),
               {"TENSOR_QUANT8_ASYMM needs \"scale\" > 0"});
  expect_error(one_op("ADD", {constant("TENSOR_QUANT8_ASYMM_SIGNED", "[1]", "[1]", R"("scale": 1.0, "zero_point": 128)"), kF1, act(0),
                              output("TENSOR_FLOAT32", "[1]")},
                      {0, 1, 2}, {3}),
               {"zero_point in [-128, 127], got 128"});
}

TEST(BuiltinRules, FullyConnectedShapes) {
  const std::string w = constant("TENSOR_FLOAT32", "[2, 3]", "[1, 2, 3, 4, 5, 6]");
  const std::string b = constant("TENSOR_FLOAT32", "[2]", "[0, 0]");
  expect_error(one_op("FULLY_CONNECTED", {constant("TENSOR_FLOAT32", "[4]", "[1, 2, 3, 4]"), w, b, act(0), output("TENSOR_FLOAT32", "[0, 2]")},
                      {0, 1, 2, 3}, {4}),
               {"the input has rank 1; NNAPI needs 2 to 4"});
  expect_error(one_op("FULLY_CONNECTED", {constant("TENSOR_FLOAT32", "[2, 2]", "[1, 2, 3, 4]"), w, b, act(0), output("TENSOR_FLOAT32", "[0, 2]")},
                      {0, 1, 2, 3}, {4}),
               {"4 elements are not a multiple of the weights' input size 3"});
  expect_error(one_op("FULLY_CONNECTED", {constant("TENSOR_FLOAT32", "[1, 3]", "[1, 2, 3]"), w, constant("TENSOR_FLOAT32", "[3]", "[0, 0, 0]"),
                                          act(0), output("TENSOR_FLOAT32", "[1, 2]")},
                      {0, 1, 2, 3}, {4}),
               {"the bias has 3 elements, the weights 2 units"});
}

TEST(BuiltinRules, SliceAndConcatenation) {
  const std::string x = constant("TENSOR_FLOAT32", "[2, 2]", "[1, 2, 3, 4]");
  expect_error(one_op("SLICE", {x, constant("TENSOR_INT32", "[2]", "[1, 0]"), constant("TENSOR_INT32", "[2]", "[2, 1]"),
                                output("TENSOR_FLOAT32", "[2, 1]")},
                      {0, 1, 2}, {3}),
               {"slice of dimension 0 (size 2) from 1 with size 2 is outside the input"});
  expect_error(one_op("SLICE", {x, constant("TENSOR_INT32", "[1]", "[0]"), constant("TENSOR_INT32", "[2]", "[1, 1]"),
                                output("TENSOR_FLOAT32", "[1, 1]")},
                      {0, 1, 2}, {3}),
               {"begin has 1 entries, the input rank is 2"});
  const std::string q = constant("TENSOR_QUANT8_ASYMM", "[2]", "[1, 2]", R"("scale": 1.0, "zero_point": 0)");
  expect_error(one_op("SLICE", {q, constant("TENSOR_INT32", "[1]", "[0]"), constant("TENSOR_INT32", "[1]", "[1]"),
                                output("TENSOR_QUANT8_ASYMM", "[1]", R"("scale": 2.0, "zero_point": 0)")},
                      {0, 1, 2}, {3}),
               {"keeps the input's scale and zero point"});
  const std::string axis2 = R"("type": "INT32", "lifetime": "CONSTANT", "value": 2)";
  expect_error(one_op("CONCATENATION", {x, x, axis2, output("TENSOR_FLOAT32", "[2, 4]")}, {0, 1, 2}, {3}),
               {"axis 2 is outside [0, 2)"});
  const std::string axis0 = R"("type": "INT32", "lifetime": "CONSTANT", "value": 0)";
  expect_error(one_op("CONCATENATION", {x, constant("TENSOR_FLOAT32", "[1, 3]", "[1, 2, 3]"), axis0, output("TENSOR_FLOAT32", "[3, 2]")},
                      {0, 1, 2}, {3}),
               {"inputs differ only along the axis 0"});
  expect_error(one_op("CONCATENATION", {x, x, kI1, output("TENSOR_FLOAT32", "[4, 2]")}, {0, 1, 2}, {3}),
               {"the last input (the axis) must be an INT32 scalar"});
  // The output dims follow from the inputs: [2,2] + [2,2] on axis 0 is [4,2].
  expect_error(one_op("CONCATENATION", {x, x, axis0, output("TENSOR_FLOAT32", "[2, 4]")}, {0, 1, 2}, {3}),
               {"output is declared [2,4], the result is [4,2]"});
}

}  // namespace
}  // namespace oprig::graph::test
