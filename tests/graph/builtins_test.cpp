// Built-in operations on constants; expected values by hand arithmetic.
// Quantised: real = scale * (q - zero_point); results are requantised with
// round half away from zero and clamped to the type's range.
#include <gtest/gtest.h>

#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

// A one-operation model: the given operand JSON objects are CONSTANT inputs,
// `output` the SUBGRAPH_OUTPUT.
std::string one_op_model(const std::string& op, const std::vector<std::string>& constants, const std::string& output) {
  std::string operands, inputs;
  for (size_t i = 0; i < constants.size(); ++i) {
    operands += "{\"lifetime\": \"CONSTANT\", " + constants[i] + "},";
    inputs += (i ? "," : "") + std::to_string(i);
  }
  operands += "{\"lifetime\": \"SUBGRAPH_OUTPUT\", " + output + "}";
  return R"({"format": "oprig.model/1", "subgraphs": [{"operands": [)" + operands +
         R"(], "operations": [{"type": ")" + op + R"(", "inputs": [)" + inputs + "], \"outputs\": [" +
         std::to_string(constants.size()) + R"(]}], "inputs": [], "outputs": [)" + std::to_string(constants.size()) +
         "]}]}";
}

HostTensor run_one(const std::string& op, const std::vector<std::string>& constants, const std::string& output) {
  const PreparedModel p = prepare_on_cpu(parse(one_op_model(op, constants, output)));
  const ExecutionResult r = p.execute({});
  EXPECT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  return r.outputs.empty() ? HostTensor{} : r.outputs[0];
}

TEST(Builtins, Int32ArithmeticAndComparisons) {
  const std::string a = R"("type": "INT_32", "dims": [1], "value": [7])";
  const std::string b = R"("type": "INT_32", "dims": [1], "value": [-3])";
  const std::string i = R"("type": "INT_32", "dims": [1])";
  const std::string c = R"("type": "BOOL_8", "dims": [1])";
  EXPECT_EQ(values<int32_t>(run_one("ADD", {a, b}, i)), std::vector<int32_t>{4});
  EXPECT_EQ(values<int32_t>(run_one("SUB", {a, b}, i)), std::vector<int32_t>{10});
  EXPECT_EQ(values<int32_t>(run_one("MUL", {a, b}, i)), std::vector<int32_t>{-21});
  EXPECT_EQ(values<uint8_t>(run_one("LESS", {a, b}, c)), std::vector<uint8_t>{0});
  EXPECT_EQ(values<uint8_t>(run_one("LESS_EQUAL", {b, a}, c)), std::vector<uint8_t>{1});
  EXPECT_EQ(values<uint8_t>(run_one("GREATER", {a, b}, c)), std::vector<uint8_t>{1});
  EXPECT_EQ(values<uint8_t>(run_one("GREATER_EQUAL", {a, a}, c)), std::vector<uint8_t>{1});
  EXPECT_EQ(values<uint8_t>(run_one("EQUAL", {a, b}, c)), std::vector<uint8_t>{0});
  EXPECT_EQ(values<uint8_t>(run_one("NOT_EQUAL", {a, b}, c)), std::vector<uint8_t>{1});
  // Wrap-around instead of undefined behaviour: 2147483647 + 1 = -2147483648.
  const std::string max = R"("type": "INT_32", "dims": [1], "value": [2147483647])";
  const std::string one = R"("type": "INT_32", "dims": [1], "value": [1])";
  EXPECT_EQ(values<int32_t>(run_one("ADD", {max, one}, i)), std::vector<int32_t>{-2147483647 - 1});
}

TEST(Builtins, LogicalOps) {
  const std::string t = R"("type": "BOOL_8", "dims": [1], "value": [true])";
  const std::string f = R"("type": "BOOL_8", "dims": [1], "value": [false])";
  const std::string c = R"("type": "BOOL_8", "dims": [1])";
  EXPECT_EQ(values<uint8_t>(run_one("LOGICAL_AND", {t, f}, c)), std::vector<uint8_t>{0});
  EXPECT_EQ(values<uint8_t>(run_one("LOGICAL_AND", {t, t}, c)), std::vector<uint8_t>{1});
  EXPECT_EQ(values<uint8_t>(run_one("LOGICAL_OR", {f, t}, c)), std::vector<uint8_t>{1});
  EXPECT_EQ(values<uint8_t>(run_one("LOGICAL_OR", {f, f}, c)), std::vector<uint8_t>{0});
  EXPECT_EQ(values<uint8_t>(run_one("LOGICAL_NOT", {t}, c)), std::vector<uint8_t>{0});
  EXPECT_EQ(values<uint8_t>(run_one("EQUAL", {t, t}, c)), std::vector<uint8_t>{1});
}

TEST(Builtins, Float32ElementwiseWithBroadcast) {
  const std::string v = R"("type": "FLOAT_32", "dims": [3], "value": [1.5, 2.5, -1])";
  const std::string two = R"("type": "FLOAT_32", "dims": [1], "value": [2])";
  const std::string ten = R"("type": "FLOAT_32", "dims": [1], "value": [10])";
  const std::string out = R"("type": "FLOAT_32", "dims": [3])";
  EXPECT_EQ(values<float>(run_one("MUL", {v, two}, out)), (std::vector<float>{3, 5, -2}));
  EXPECT_EQ(values<float>(run_one("SUB", {ten, v}, out)), (std::vector<float>{8.5f, 7.5f, 11}));
  EXPECT_EQ(values<float>(run_one("ADD", {v, v}, out)), (std::vector<float>{3, 5, -2}));
  EXPECT_EQ(values<uint8_t>(run_one("LESS", {v, two}, R"("type": "BOOL_8", "dims": [3])")),
            (std::vector<uint8_t>{1, 0, 1}));
}

TEST(Builtins, QuantisedUint8AddAndMul) {
  // a codes [130,120,129,127] at (0.5, 128) = [1, -4, 0.5, -0.5];
  // b codes [132,127,129,127] at (0.5, 128) = [2, -0.5, 0.5, -0.5].
  const std::string a = R"("type": "UINT_8", "dims": [4], "scale": 0.5, "zero_point": 128, "value": [130, 120, 129, 127])";
  const std::string b = R"("type": "UINT_8", "dims": [4], "scale": 0.5, "zero_point": 128, "value": [132, 127, 129, 127])";
  // a + b = [3, -4.5, 1, -1]; at (0.25, 100): [12, -18, 4, -4] + 100.
  EXPECT_EQ(values<uint8_t>(run_one("ADD", {a, b}, R"("type": "UINT_8", "dims": [4], "scale": 0.25, "zero_point": 100)")),
            (std::vector<uint8_t>{112, 82, 104, 96}));
  // At (2, 100): [1.5, -2.25, 0.5, -0.5] rounds half away from zero to [2, -2, 1, -1].
  EXPECT_EQ(values<uint8_t>(run_one("ADD", {a, b}, R"("type": "UINT_8", "dims": [4], "scale": 2, "zero_point": 100)")),
            (std::vector<uint8_t>{102, 98, 101, 99}));
  // a * b = [2, 2, 0.25, 0.25]; at (0.5, 10): [4, 4, 0.5 -> 1, 0.5 -> 1] + 10.
  EXPECT_EQ(values<uint8_t>(run_one("MUL", {a, b}, R"("type": "UINT_8", "dims": [4], "scale": 0.5, "zero_point": 10)")),
            (std::vector<uint8_t>{14, 14, 11, 11}));
  // At (0.005, 0): [400, 400, 50, 50] clamps to [255, 255, 50, 50].
  EXPECT_EQ(values<uint8_t>(run_one("MUL", {a, b}, R"("type": "UINT_8", "dims": [4], "scale": 0.005, "zero_point": 0)")),
            (std::vector<uint8_t>{255, 255, 50, 50}));
}

TEST(Builtins, QuantisedInt8AddClamps) {
  const std::string a = R"("type": "INT_8", "dims": [3], "scale": 1, "zero_point": 0, "value": [100, -100, 3])";
  // [200, -200, 6] at (1, 0) clamps to [127, -128, 6].
  EXPECT_EQ(values<int8_t>(run_one("ADD", {a, a}, R"("type": "INT_8", "dims": [3], "scale": 1, "zero_point": 0)")),
            (std::vector<int8_t>{127, -128, 6}));
}

TEST(Builtins, CastBetweenIntFloatAndQuantised) {
  const std::string f = R"("type": "FLOAT_32", "dims": [4], "value": [0.625, -0.625, 100, -100])";
  // / 0.25 = [2.5, -2.5, 400, -400] -> half away [3, -3], clamped [127, -128].
  EXPECT_EQ(values<int8_t>(run_one("CAST", {f}, R"("type": "INT_8", "dims": [4], "scale": 0.25, "zero_point": 0)")),
            (std::vector<int8_t>{3, -3, 127, -128}));
  // To INT_32: truncation toward zero.
  const std::string g = R"("type": "FLOAT_32", "dims": [2], "value": [-2.7, 2.7])";
  EXPECT_EQ(values<int32_t>(run_one("CAST", {g}, R"("type": "INT_32", "dims": [2])")), (std::vector<int32_t>{-2, 2}));
  // Quantised to float: 0.5 * (130 - 128) = 1.
  const std::string q = R"("type": "UINT_8", "dims": [1], "scale": 0.5, "zero_point": 128, "value": [130])";
  EXPECT_EQ(values<float>(run_one("CAST", {q}, R"("type": "FLOAT_32", "dims": [1])")), std::vector<float>{1.0f});
  const std::string i = R"("type": "INT_32", "dims": [1], "value": [7])";
  EXPECT_EQ(values<float>(run_one("CAST", {i}, R"("type": "FLOAT_32", "dims": [1])")), std::vector<float>{7.0f});
}

}  // namespace
}  // namespace oprig::graph::test
