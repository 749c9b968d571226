// Elementwise built-ins (ADD, SUB, MUL, DIV, comparisons, logical ops) with
// NNAPI's semantics; every expected value is hand arithmetic, shown next to
// it. Quantised: real = scale * (q - zero_point).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

const std::string kNone = R"("type": "INT32", "lifetime": "CONSTANT", "value": 0)";
const std::string kRelu = R"("type": "INT32", "lifetime": "CONSTANT", "value": 1)";
const std::string kRelu1 = R"("type": "INT32", "lifetime": "CONSTANT", "value": 2)";
const std::string kRelu6 = R"("type": "INT32", "lifetime": "CONSTANT", "value": 3)";

std::string constant(const std::string& type, const std::string& dims, const std::string& value,
                     const std::string& quantisation = "") {
  return "\"type\": \"" + type + "\", \"dims\": " + dims + ", \"lifetime\": \"CONSTANT\", \"value\": " + value +
         (quantisation.empty() ? "" : ", " + quantisation);
}
std::string output(const std::string& type, const std::string& dims, const std::string& quantisation = "") {
  return "\"type\": \"" + type + "\", \"dims\": " + dims + ", \"lifetime\": \"SUBGRAPH_OUTPUT\"" +
         (quantisation.empty() ? "" : ", " + quantisation);
}

// op(a, b, activation) -> y, all constants.
HostTensor binary(const std::string& op, const std::string& a, const std::string& b, const std::string& act,
                  const std::string& y) {
  const ExecutionResult r = run_json(one_op(op, {a, b, act, y}, {0, 1, 2}, {3}));
  EXPECT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  return r.outputs.empty() ? HostTensor{} : r.outputs[0];
}
HostTensor binary2(const std::string& op, const std::string& a, const std::string& b, const std::string& y) {
  const ExecutionResult r = run_json(one_op(op, {a, b, y}, {0, 1}, {2}));
  EXPECT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  return r.outputs.empty() ? HostTensor{} : r.outputs[0];
}

TEST(Builtins, Int32ArithmeticWrapsAndDividesByFloor) {
  const std::string a = constant("TENSOR_INT32", "[6]", "[7, -7, 7, -7, 6, -2147483648]");
  const std::string b = constant("TENSOR_INT32", "[6]", "[2, 2, -2, -2, 0, -1]");
  const std::string y = output("TENSOR_INT32", "[6]");
  // Python's //: 7//2 = 3, -7//2 = -4, 7//-2 = -4, -7//-2 = 3; x/0 = 0 (NNAPI's
  // reference); INT32_MIN / -1 wraps to INT32_MIN.
  EXPECT_EQ(values<int32_t>(binary("DIV", a, b, kNone, y)),
            (std::vector<int32_t>{3, -4, -4, 3, 0, std::numeric_limits<int32_t>::min()}));
  // 7+2, -7+2, 7-2, -7-2, 6+0, INT32_MIN + -1 wraps to INT32_MAX.
  EXPECT_EQ(values<int32_t>(binary("ADD", a, b, kNone, y)),
            (std::vector<int32_t>{9, -5, 5, -9, 6, std::numeric_limits<int32_t>::max()}));
  EXPECT_EQ(values<int32_t>(binary("SUB", a, b, kNone, y)), (std::vector<int32_t>{5, -9, 9, -5, 6, -2147483647}));
  // INT32_MIN * -1 wraps to INT32_MIN.
  EXPECT_EQ(values<int32_t>(binary("MUL", a, b, kNone, y)),
            (std::vector<int32_t>{14, -14, -14, 14, 0, std::numeric_limits<int32_t>::min()}));
  // The two-input form (no activation operand) means NONE.
  EXPECT_EQ(values<int32_t>(binary2("ADD", a, b, y)), (std::vector<int32_t>{9, -5, 5, -9, 6, 2147483647}));
}

TEST(Builtins, BroadcastingAlignsTrailingDimensions) {
  // [2,1,3] + [4,1] -> [2,4,3]: out[i][j][k] = a[i][0][k] + b[j][0].
  const std::string a = constant("TENSOR_INT32", "[2, 1, 3]", "[1, 2, 3, 4, 5, 6]");
  const std::string b = constant("TENSOR_INT32", "[4, 1]", "[10, 20, 30, 40]");
  const HostTensor y = binary("ADD", a, b, kNone, output("TENSOR_INT32", "[2, 4, 3]"));
  EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 4, 3}));
  EXPECT_EQ(values<int32_t>(y), (std::vector<int32_t>{11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 42, 43,  //
                                                      14, 15, 16, 24, 25, 26, 34, 35, 36, 44, 45, 46}));
  // [3] * [2,1] -> [2,3] (a rank-1 operand broadcasts against rank 2).
  const HostTensor z = binary("MUL", constant("TENSOR_FLOAT32", "[3]", "[1, 2, 3]"),
                              constant("TENSOR_FLOAT32", "[2, 1]", "[10, -1]"), kNone, output("TENSOR_FLOAT32", "[2, 3]"));
  EXPECT_EQ(values<float>(z), (std::vector<float>{10, 20, 30, -1, -2, -3}));
}

TEST(Builtins, BroadcastingAZeroSizedInputGivesAZeroSizedOutput) {
  // NNAPI: a zero dimension pairs with 0 or 1 and gives 0. x is [0, 3] at run
  // time (declared [0, 3]: the first dimension unknown).
  const std::string json = one_op("ADD",
                                  {R"("type": "TENSOR_FLOAT32", "dims": [0, 3], "lifetime": "SUBGRAPH_INPUT")",
                                   constant("TENSOR_FLOAT32", "[1, 3]", "[1, 2, 3]"), kNone,
                                   R"("type": "TENSOR_FLOAT32", "dims": [0, 3], "lifetime": "SUBGRAPH_OUTPUT")"},
                                  {0, 1, 2}, {3});
  const ExecutionResult r = run_json(json, {tensor<float>(OPRIG_DTYPE_FLOAT_32, {0, 3}, {})});
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{0, 3}));
  EXPECT_TRUE(r.outputs[0].data.empty());
}

TEST(Builtins, RunTimeShapesThatDoNotBroadcastAreAnError) {
  const std::string json = one_op("ADD",
                                  {R"("type": "TENSOR_FLOAT32", "dims": [0], "lifetime": "SUBGRAPH_INPUT")",
                                   constant("TENSOR_FLOAT32", "[3]", "[1, 2, 3]"), kNone,
                                   R"("type": "TENSOR_FLOAT32", "dims": [0], "lifetime": "SUBGRAPH_OUTPUT")"},
                                  {0, 1, 2}, {3});
  const ExecutionResult r = run_json(json, {tensor<float>(OPRIG_DTYPE_FLOAT_32, {2}, {1, 2})});
  EXPECT_EQ(r.status, ExecutionStatus::kError);
  EXPECT_NE(r.message.find("input shapes [2] and [3] do not broadcast"), std::string::npos) << r.message;
}

TEST(Builtins, FloatActivationsClamp) {
  const std::string a = constant("TENSOR_FLOAT32", "[5]", "[-2, -0.5, 0.5, 3, 7]");
  const std::string zero = constant("TENSOR_FLOAT32", "[1]", "[0]");
  const std::string y = output("TENSOR_FLOAT32", "[5]");
  EXPECT_EQ(values<float>(binary("ADD", a, zero, kNone, y)), (std::vector<float>{-2, -0.5f, 0.5f, 3, 7}));
  EXPECT_EQ(values<float>(binary("ADD", a, zero, kRelu, y)), (std::vector<float>{0, 0, 0.5f, 3, 7}));
  EXPECT_EQ(values<float>(binary("SUB", a, zero, kRelu1, y)), (std::vector<float>{-1, -0.5f, 0.5f, 1, 1}));
  EXPECT_EQ(values<float>(binary("MUL", a, constant("TENSOR_FLOAT32", "[1]", "[1]"), kRelu6, y)),
            (std::vector<float>{0, 0, 0.5f, 3, 6}));
}

TEST(Builtins, FloatDivisionFollowsIeee) {
  // 0/0 = NaN (RELU keeps NaN: max(NaN, 0) is NaN in NNAPI's reference), 1/0 = +inf, -1/0 = -inf.
  const std::string a = constant("TENSOR_FLOAT32", "[3]", "[0, 1, -1]");
  const std::string b = constant("TENSOR_FLOAT32", "[1]", "[0]");
  const std::vector<float> none = values<float>(binary("DIV", a, b, kNone, output("TENSOR_FLOAT32", "[3]")));
  EXPECT_TRUE(std::isnan(none[0]));
  EXPECT_EQ(none[1], std::numeric_limits<float>::infinity());
  EXPECT_EQ(none[2], -std::numeric_limits<float>::infinity());
  const std::vector<float> relu = values<float>(binary("DIV", a, b, kRelu, output("TENSOR_FLOAT32", "[3]")));
  EXPECT_TRUE(std::isnan(relu[0]));
  EXPECT_EQ(relu[1], std::numeric_limits<float>::infinity());
  EXPECT_EQ(relu[2], 0.0f);
  // 7 / 2 = 3.5 for floats (not floor division).
  EXPECT_EQ(values<float>(binary("DIV", constant("TENSOR_FLOAT32", "[1]", "[7]"), constant("TENSOR_FLOAT32", "[1]", "[2]"),
                                 kNone, output("TENSOR_FLOAT32", "[1]"))),
            std::vector<float>{3.5f});
}

TEST(Builtins, Float16ComputesInFloatAndRoundsOnce) {
  // binary16 has spacing 2 in [2048, 4096): 2048 + 1 = 2049 is a tie between
  // 2048 (even mantissa) and 2050 -> 2048; 2048 + 3 = 2051 is a tie between
  // 2050 and 2052 (even) -> 2052; 2048 + 1.5 = 2049.5 -> 2050.
  const std::string a = constant("TENSOR_FLOAT16", "[3]", "[2048, 2048, 2048]");
  const std::string b = constant("TENSOR_FLOAT16", "[3]", "[1, 3, 1.5]");
  EXPECT_EQ(halves(binary("ADD", a, b, kNone, output("TENSOR_FLOAT16", "[3]"))), (std::vector<float>{2048, 2052, 2050}));
  // [1.5, -2, 3] * 3 = [4.5, -6, 9], RELU6 -> [4.5, 0, 6].
  EXPECT_EQ(halves(binary("MUL", constant("TENSOR_FLOAT16", "[3]", "[1.5, -2, 3]"), constant("TENSOR_FLOAT16", "[1]", "[3]"),
                          kRelu6, output("TENSOR_FLOAT16", "[3]"))),
            (std::vector<float>{4.5f, 0, 6}));
  // 1 / 3 = 0.333333... -> nearest binary16 0x3555 = 1365 * 2^-12 = 0.333251953125.
  EXPECT_EQ(halves(binary("DIV", constant("TENSOR_FLOAT16", "[1]", "[1]"), constant("TENSOR_FLOAT16", "[1]", "[3]"), kNone,
                          output("TENSOR_FLOAT16", "[1]"))),
            std::vector<float>{0.333251953125f});
}

TEST(Builtins, QuantisedAddRequantisesWithTheReferenceRounding) {
  // a (0.5, 100): codes [106, 90, 101] = [3, -5, 0.5]; b (0.25, 10): codes
  // [30, 2, 14] = [5, -2, 1]; sum = [8, -7, 1.5] at (1.0, 50): 58, 43 and
  // 1.5 -> 2 (the fixed-point pipeline rounds this tie away from zero) = 52.
  const std::string a = constant("TENSOR_QUANT8_ASYMM", "[3]", "[106, 90, 101]", R"("scale": 0.5, "zero_point": 100)");
  const std::string b = constant("TENSOR_QUANT8_ASYMM", "[3]", "[30, 2, 14]", R"("scale": 0.25, "zero_point": 10)");
  const std::string y = output("TENSOR_QUANT8_ASYMM", "[3]", R"("scale": 1.0, "zero_point": 50)");
  EXPECT_EQ(values<uint8_t>(binary("ADD", a, b, kNone, y)), (std::vector<uint8_t>{58, 43, 52}));
  // RELU clamps at q(0) = 50.
  EXPECT_EQ(values<uint8_t>(binary("ADD", a, b, kRelu, y)), (std::vector<uint8_t>{58, 50, 52}));
  // RELU1 at [q(-1), q(1)] = [49, 51].
  EXPECT_EQ(values<uint8_t>(binary("ADD", a, b, kRelu1, y)), (std::vector<uint8_t>{51, 49, 51}));
  // a - b = [-2, -3, -0.5] -> 48, 47, and -0.5, which the last
  // RoundingDivideByPOT (of -2^18 by 2^19) rounds away from zero: -1 -> 49.
  EXPECT_EQ(values<uint8_t>(binary("SUB", a, b, kNone, y)), (std::vector<uint8_t>{48, 47, 49}));
}

TEST(Builtins, QuantisedSignedSaturates) {
  const std::string a = constant("TENSOR_QUANT8_ASYMM_SIGNED", "[3]", "[100, -100, 3]", R"("scale": 1.0, "zero_point": 0)");
  const std::string b = constant("TENSOR_QUANT8_ASYMM_SIGNED", "[3]", "[-100, 100, 1]", R"("scale": 1.0, "zero_point": 0)");
  const std::string y = output("TENSOR_QUANT8_ASYMM_SIGNED", "[3]", R"("scale": 1.0, "zero_point": 0)");
  // 200 -> 127, -200 -> -128, 2.
  EXPECT_EQ(values<int8_t>(binary("SUB", a, b, kNone, y)), (std::vector<int8_t>{127, -128, 2}));
  // RELU6 at (1, 0): [q(0), q(6)] = [0, 6]: [0, 0, 4] -> a + b = [0, 0, 4].
  EXPECT_EQ(values<int8_t>(binary("ADD", a, b, kRelu6, y)), (std::vector<int8_t>{0, 0, 4}));
}

TEST(Builtins, QuantisedMulUsesTheProductScale) {
  // (1.0, 128) * (0.5, 128) -> (1.0, 128): 9 * 1.5 = 13.5 -> 14 (positive tie
  // up in the high multiply) -> 142; -9 * 1.5 = -13.5 -> -13 (negative tie
  // toward zero) -> 115; 4 * -2 = -8 -> 120; 100 * 36 = 3600 saturates at 255.
  const std::string a = constant("TENSOR_QUANT8_ASYMM", "[4]", "[137, 119, 132, 228]", R"("scale": 1.0, "zero_point": 128)");
  const std::string b = constant("TENSOR_QUANT8_ASYMM", "[4]", "[131, 131, 124, 200]", R"("scale": 0.5, "zero_point": 128)");
  const std::string y = output("TENSOR_QUANT8_ASYMM", "[4]", R"("scale": 1.0, "zero_point": 128)");
  EXPECT_EQ(values<uint8_t>(binary("MUL", a, b, kNone, y)), (std::vector<uint8_t>{142, 115, 120, 255}));
}

TEST(Builtins, ActivationFromAnInputIsCheckedWhenItRuns) {
  // The activation is an INT32 scalar input: 1 (RELU) works, 7 is no FuseCode.
  const std::string json = one_op("ADD",
                                  {constant("TENSOR_FLOAT32", "[2]", "[-1, 1]"), constant("TENSOR_FLOAT32", "[1]", "[0]"),
                                   R"("type": "INT32", "lifetime": "SUBGRAPH_INPUT")", output("TENSOR_FLOAT32", "[2]")},
                                  {0, 1, 2}, {3});
  const ExecutionResult relu = run_json(json, {tensor<int32_t>(OPRIG_DTYPE_INT_32, {}, {1})});
  ASSERT_EQ(relu.status, ExecutionStatus::kOk) << relu.message;
  EXPECT_EQ(values<float>(relu.outputs[0]), (std::vector<float>{0, 1}));
  const ExecutionResult bad = run_json(json, {tensor<int32_t>(OPRIG_DTYPE_INT_32, {}, {7})});
  EXPECT_EQ(bad.status, ExecutionStatus::kError);
  EXPECT_NE(bad.message.find("fused activation 7 is not a FuseCode"), std::string::npos) << bad.message;
}

TEST(Builtins, ComparisonsOfQuantisedInputsUseRealValues) {
  // a (0.5, 10): [10, 14, 20] = [0, 2, 5]; b (2.0, 0): [0, 1, 3] = [0, 2, 6].
  const std::string a = constant("TENSOR_QUANT8_ASYMM", "[3]", "[10, 14, 20]", R"("scale": 0.5, "zero_point": 10)");
  const std::string b = constant("TENSOR_QUANT8_ASYMM", "[3]", "[0, 1, 3]", R"("scale": 2.0, "zero_point": 0)");
  const std::string c = output("TENSOR_BOOL8", "[3]");
  EXPECT_EQ(values<uint8_t>(binary2("LESS", a, b, c)), (std::vector<uint8_t>{0, 0, 1}));
  EXPECT_EQ(values<uint8_t>(binary2("LESS_EQUAL", a, b, c)), (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_EQ(values<uint8_t>(binary2("EQUAL", a, b, c)), (std::vector<uint8_t>{1, 1, 0}));
  EXPECT_EQ(values<uint8_t>(binary2("NOT_EQUAL", a, b, c)), (std::vector<uint8_t>{0, 0, 1}));
  EXPECT_EQ(values<uint8_t>(binary2("GREATER", a, b, c)), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(values<uint8_t>(binary2("GREATER_EQUAL", a, b, c)), (std::vector<uint8_t>{1, 1, 0}));
  // Signed: (0.25, -4): [-4, 0, 4] = [0, 1, 2]; (1.0, 1): [1, 2, 2] = [0, 1, 1].
  const std::string s = constant("TENSOR_QUANT8_ASYMM_SIGNED", "[3]", "[-4, 0, 4]", R"("scale": 0.25, "zero_point": -4)");
  const std::string t = constant("TENSOR_QUANT8_ASYMM_SIGNED", "[3]", "[1, 2, 2]", R"("scale": 1.0, "zero_point": 1)");
  EXPECT_EQ(values<uint8_t>(binary2("GREATER", s, t, c)), (std::vector<uint8_t>{0, 0, 1}));
  EXPECT_EQ(values<uint8_t>(binary2("EQUAL", s, t, c)), (std::vector<uint8_t>{1, 1, 0}));
}

TEST(Builtins, ComparisonsOfOtherTypesBroadcast) {
  const std::string c = output("TENSOR_BOOL8", "[2, 2]");
  // int32 [2,2] against [1].
  EXPECT_EQ(values<uint8_t>(binary2("GREATER_EQUAL", constant("TENSOR_INT32", "[2, 2]", "[-1, 0, 1, 2]"),
                                    constant("TENSOR_INT32", "[1]", "[1]"), c)),
            (std::vector<uint8_t>{0, 0, 1, 1}));
  // float16 [2] against [2,1]: out[i][j] = a[j] < b[i].
  EXPECT_EQ(values<uint8_t>(binary2("LESS", constant("TENSOR_FLOAT16", "[2]", "[0.5, 1.5]"),
                                    constant("TENSOR_FLOAT16", "[2, 1]", "[1, 2]"), c)),
            (std::vector<uint8_t>{1, 0, 1, 1}));
  // BOOL8 compares 0 and 1 (NNAPI lists TENSOR_BOOL8 for every comparison).
  EXPECT_EQ(values<uint8_t>(binary2("LESS", constant("TENSOR_BOOL8", "[2, 2]", "[false, false, true, true]"),
                                    constant("TENSOR_BOOL8", "[2]", "[false, true]"), c)),
            (std::vector<uint8_t>{0, 1, 0, 0}));
  // float32 NaN (from 0 / 0) is unordered: EQUAL is false, NOT_EQUAL true.
  const std::string two_ops = R"({"subgraphs": [{"operands": [
      {"type": "TENSOR_FLOAT32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
      {"type": "INT32", "lifetime": "CONSTANT", "value": 0},
      {"type": "TENSOR_FLOAT32", "dims": [1], "lifetime": "TEMPORARY"},
      {"type": "TENSOR_BOOL8", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"},
      {"type": "TENSOR_BOOL8", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
    "operations": [{"type": "DIV", "inputs": [0, 0, 1], "outputs": [2]},
                   {"type": "EQUAL", "inputs": [2, 2], "outputs": [3]},
                   {"type": "NOT_EQUAL", "inputs": [2, 2], "outputs": [4]}],
    "inputs": [], "outputs": [3, 4]}]})";
  const ExecutionResult r = run_json(two_ops);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<uint8_t>(r.outputs[0]), std::vector<uint8_t>{0});
  EXPECT_EQ(values<uint8_t>(r.outputs[1]), std::vector<uint8_t>{1});
}

TEST(Builtins, LogicalOpsBroadcast) {
  const std::string a = constant("TENSOR_BOOL8", "[2, 2]", "[false, false, true, true]");
  const std::string b = constant("TENSOR_BOOL8", "[2]", "[false, true]");
  const std::string c = output("TENSOR_BOOL8", "[2, 2]");
  EXPECT_EQ(values<uint8_t>(binary2("LOGICAL_AND", a, b, c)), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(values<uint8_t>(binary2("LOGICAL_OR", a, b, c)), (std::vector<uint8_t>{0, 1, 1, 1}));
  const ExecutionResult r = run_json(one_op("LOGICAL_NOT", {a, c}, {0}, {1}));
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{1, 1, 0, 0}));
}

}  // namespace
}  // namespace oprig::graph::test
