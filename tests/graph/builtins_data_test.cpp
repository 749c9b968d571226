// FULLY_CONNECTED, SLICE, CONCATENATION and CAST with NNAPI's semantics;
// expected values are hand arithmetic, shown next to them.
#include <gtest/gtest.h>

#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

const std::string kNone = R"("type": "INT32", "lifetime": "CONSTANT", "value": 0)";
const std::string kRelu = R"("type": "INT32", "lifetime": "CONSTANT", "value": 1)";

std::string constant(const std::string& type, const std::string& dims, const std::string& value,
                     const std::string& quantisation = "") {
  return "\"type\": \"" + type + "\", \"dims\": " + dims + ", \"lifetime\": \"CONSTANT\", \"value\": " + value +
         (quantisation.empty() ? "" : ", " + quantisation);
}
std::string output(const std::string& type, const std::string& dims, const std::string& quantisation = "") {
  return "\"type\": \"" + type + "\", \"dims\": " + dims + ", \"lifetime\": \"SUBGRAPH_OUTPUT\"" +
         (quantisation.empty() ? "" : ", " + quantisation);
}

HostTensor run_ok(const std::string& json, const std::vector<HostTensor>& inputs = {}) {
  const ExecutionResult r = run_json(json, inputs);
  EXPECT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  return r.outputs.empty() ? HostTensor{} : r.outputs[0];
}

TEST(FullyConnected, Float32WithBiasAndActivation) {
  // x [2,3] = [[1, 2, 3], [-1, 0, 1]]; w [2,3] = [[1, 0, -1], [2, 1, 0]]; b = [0.5, -10].
  // row 0: 1 - 3 + 0.5 = -1.5, 2 + 2 - 10 = -6; row 1: -1 - 1 + 0.5 = -1.5, -2 + 0 - 10 = -12.
  const std::string x = constant("TENSOR_FLOAT32", "[2, 3]", "[1, 2, 3, -1, 0, 1]");
  const std::string w = constant("TENSOR_FLOAT32", "[2, 3]", "[1, 0, -1, 2, 1, 0]");
  const std::string b = constant("TENSOR_FLOAT32", "[2]", "[0.5, -10]");
  const HostTensor none = run_ok(one_op("FULLY_CONNECTED", {x, w, b, kNone, output("TENSOR_FLOAT32", "[2, 2]")}, {0, 1, 2, 3}, {4}));
  EXPECT_EQ(values<float>(none), (std::vector<float>{-1.5f, -6, -1.5f, -12}));
  // The input of rank 3 [1, 2, 3] is read as [2, 3]; RELU clamps at 0.
  const std::string x3 = constant("TENSOR_FLOAT32", "[1, 2, 3]", "[1, 2, 3, -1, 0, 1]");
  const std::string bias = constant("TENSOR_FLOAT32", "[2]", "[10, 0]");
  const HostTensor relu =
      run_ok(one_op("FULLY_CONNECTED", {x3, w, bias, kRelu, output("TENSOR_FLOAT32", "[2, 2]")}, {0, 1, 2, 3}, {4}));
  EXPECT_EQ(relu.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values<float>(relu), (std::vector<float>{8, 4, 8, 0}));  // [-2+10, 4], [-2+10, -2 -> 0]
}

TEST(FullyConnected, Float16RoundsTheResult) {
  // [2048, 1] . [1, 1] + 0 = 2049 -> binary16 tie between 2048 and 2050 -> 2048 (even).
  const HostTensor y = run_ok(one_op("FULLY_CONNECTED",
                                     {constant("TENSOR_FLOAT16", "[1, 2]", "[2048, 1]"), constant("TENSOR_FLOAT16", "[1, 2]", "[1, 1]"),
                                      constant("TENSOR_FLOAT16", "[1]", "[0]"), kNone, output("TENSOR_FLOAT16", "[1, 1]")},
                                     {0, 1, 2, 3}, {4}));
  EXPECT_EQ(halves(y), std::vector<float>{2048});
}

TEST(FullyConnected, Quantised) {
  // x (0.5, 10): [12, 16] = [1, 3]; w (0.25, 0): [[4, 8], [-4, 4]] as uint8 with zero point 128:
  // codes [132, 136, 124, 132] = [1, 2, -1, 1]; bias scale 0.5 * 0.25 = 0.125: [8, 0] = [1, 0].
  // unit 0: 1*1 + 3*2 + 1 = 8; unit 1: -1 + 3 + 0 = 2. Output (0.5, 100): 116, 104.
  // Integer path: acc = 2*4 + 6*8 + 8 = 64 and 2*-4 + 6*4 = 16; times 0.125/0.5: 16, 4.
  const std::string x = constant("TENSOR_QUANT8_ASYMM", "[1, 2]", "[12, 16]", R"("scale": 0.5, "zero_point": 10)");
  const std::string w = constant("TENSOR_QUANT8_ASYMM", "[2, 2]", "[132, 136, 124, 132]", R"("scale": 0.25, "zero_point": 128)");
  const std::string b = constant("TENSOR_INT32", "[2]", "[8, 0]", R"("scale": 0.125, "zero_point": 0)");
  const HostTensor y = run_ok(one_op("FULLY_CONNECTED",
                                     {x, w, b, kNone, output("TENSOR_QUANT8_ASYMM", "[1, 2]", R"("scale": 0.5, "zero_point": 100)")},
                                     {0, 1, 2, 3}, {4}));
  EXPECT_EQ(values<uint8_t>(y), (std::vector<uint8_t>{116, 104}));
  // Signed, and an output scale the result saturates in: (0.25, 120): 8 / 0.25 = 32 -> 152 -> 127.
  const std::string xs = constant("TENSOR_QUANT8_ASYMM_SIGNED", "[1, 2]", "[-8, -4]", R"("scale": 0.5, "zero_point": -10)");
  const std::string ws = constant("TENSOR_QUANT8_ASYMM_SIGNED", "[2, 2]", "[4, 8, -4, 4]", R"("scale": 0.25, "zero_point": 0)");
  const HostTensor ys = run_ok(one_op(
      "FULLY_CONNECTED",
      {xs, ws, b, kNone, output("TENSOR_QUANT8_ASYMM_SIGNED", "[1, 2]", R"("scale": 0.25, "zero_point": 120)")},
      {0, 1, 2, 3}, {4}));
  EXPECT_EQ(values<int8_t>(ys), (std::vector<int8_t>{127, 127}));  // 8 -> 152, 2 -> 128: both above 127
}

TEST(Slice, TakesTheBoxAndSizeMinusOneMeansTheRest) {
  // x [3,4] = 0..11; begin [1,1], size [2,-1]: rows 1-2, columns 1-3.
  const std::string x = constant("TENSOR_INT32", "[3, 4]", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]");
  const HostTensor y = run_ok(one_op("SLICE",
                                     {x, constant("TENSOR_INT32", "[2]", "[1, 1]"), constant("TENSOR_INT32", "[2]", "[2, -1]"),
                                      output("TENSOR_INT32", "[2, 3]")},
                                     {0, 1, 2}, {3}));
  EXPECT_EQ(values<int32_t>(y), (std::vector<int32_t>{5, 6, 7, 9, 10, 11}));
}

TEST(Slice, BeginFromAnInputOutOfRangeFailsWhenItRuns) {
  const std::string json = one_op("SLICE",
                                  {constant("TENSOR_FLOAT32", "[4]", "[1, 2, 3, 4]"),
                                   R"("type": "TENSOR_INT32", "dims": [1], "lifetime": "SUBGRAPH_INPUT")",
                                   constant("TENSOR_INT32", "[1]", "[2]"), output("TENSOR_FLOAT32", "[0]")},
                                  {0, 1, 2}, {3});
  const HostTensor y = run_ok(json, {tensor<int32_t>(OPRIG_DTYPE_INT_32, {1}, {2})});
  EXPECT_EQ(values<float>(y), (std::vector<float>{3, 4}));
  const ExecutionResult bad = run_json(json, {tensor<int32_t>(OPRIG_DTYPE_INT_32, {1}, {3})});
  EXPECT_EQ(bad.status, ExecutionStatus::kError);
  EXPECT_NE(bad.message.find("outside the input"), std::string::npos) << bad.message;
}

TEST(Concatenation, JoinsAlongTheAxis) {
  const std::string a = constant("TENSOR_FLOAT32", "[2, 2]", "[1, 2, 3, 4]");
  const std::string b = constant("TENSOR_FLOAT32", "[2, 1]", "[5, 6]");
  const std::string axis1 = R"("type": "INT32", "lifetime": "CONSTANT", "value": 1)";
  EXPECT_EQ(values<float>(run_ok(one_op("CONCATENATION", {a, b, axis1, output("TENSOR_FLOAT32", "[2, 3]")}, {0, 1, 2}, {3}))),
            (std::vector<float>{1, 2, 5, 3, 4, 6}));
  const std::string c = constant("TENSOR_FLOAT32", "[1, 2]", "[7, 8]");
  const std::string axis0 = R"("type": "INT32", "lifetime": "CONSTANT", "value": 0)";
  EXPECT_EQ(values<float>(run_ok(one_op("CONCATENATION", {a, c, a, axis0, output("TENSOR_FLOAT32", "[5, 2]")}, {0, 1, 2, 3}, {4}))),
            (std::vector<float>{1, 2, 3, 4, 7, 8, 1, 2, 3, 4}));
}

TEST(Concatenation, RequantisesInputsWithAnotherScale) {
  // a (0.5, 0): [2, 4] = [1, 2] copies as it is into (0.5, 0); b (1.0, 100): [101, 97] = [1, -3]
  // -> round(q * 2 - 200) + 0 = [2, -6 -> 0] (clamped).
  const std::string a = constant("TENSOR_QUANT8_ASYMM", "[1, 2]", "[2, 4]", R"("scale": 0.5, "zero_point": 0)");
  const std::string b = constant("TENSOR_QUANT8_ASYMM", "[1, 2]", "[101, 97]", R"("scale": 1.0, "zero_point": 100)");
  const std::string axis = R"("type": "INT32", "lifetime": "CONSTANT", "value": 1)";
  EXPECT_EQ(values<uint8_t>(run_ok(one_op("CONCATENATION",
                                          {a, b, axis, output("TENSOR_QUANT8_ASYMM", "[1, 4]", R"("scale": 0.5, "zero_point": 0)")},
                                          {0, 1, 2}, {3}))),
            (std::vector<uint8_t>{2, 4, 2, 0}));
  // Signed: b (1.0, -100): [-99, -103] = [1, -3] into (0.5, -10): [2 - 10, -6 - 10] = [-8, -16].
  const std::string as = constant("TENSOR_QUANT8_ASYMM_SIGNED", "[1, 2]", "[-8, -6]", R"("scale": 0.5, "zero_point": -10)");
  const std::string bs = constant("TENSOR_QUANT8_ASYMM_SIGNED", "[1, 2]", "[-99, -103]", R"("scale": 1.0, "zero_point": -100)");
  EXPECT_EQ(values<int8_t>(run_ok(one_op(
                "CONCATENATION",
                {as, bs, axis, output("TENSOR_QUANT8_ASYMM_SIGNED", "[1, 4]", R"("scale": 0.5, "zero_point": -10)")},
                {0, 1, 2}, {3}))),
            (std::vector<int8_t>{-8, -6, -8, -16}));
}

TEST(Cast, IgnoresQuantisationAsNnapiDoes) {
  // NNAPI: CAST "treats a TENSOR_QUANT8_ASYMM input as a tensor of uint8 values".
  const std::string q = constant("TENSOR_QUANT8_ASYMM", "[2]", "[130, 7]", R"("scale": 0.5, "zero_point": 128)");
  EXPECT_EQ(values<float>(run_ok(one_op("CAST", {q, output("TENSOR_FLOAT32", "[2]")}, {0}, {1}))), (std::vector<float>{130, 7}));
  // To uint8: truncated toward zero and saturated to [0, 255].
  const std::string f = constant("TENSOR_FLOAT32", "[4]", "[-3.7, 2.9, 254.99, 300]");
  EXPECT_EQ(values<uint8_t>(run_ok(one_op("CAST", {f, output("TENSOR_QUANT8_ASYMM", "[4]", R"("scale": 2.0, "zero_point": 3)")}, {0}, {1}))),
            (std::vector<uint8_t>{0, 2, 254, 255}));
  // To int32: truncation toward zero.
  EXPECT_EQ(values<int32_t>(run_ok(one_op("CAST", {f, output("TENSOR_INT32", "[4]")}, {0}, {1}))),
            (std::vector<int32_t>{-3, 2, 254, 300}));
  // int32 -> float16 rounds to nearest even: 2049 -> 2048, 2051 -> 2052.
  const std::string i = constant("TENSOR_INT32", "[2]", "[2049, 2051]");
  EXPECT_EQ(halves(run_ok(one_op("CAST", {i, output("TENSOR_FLOAT16", "[2]")}, {0}, {1}))), (std::vector<float>{2048, 2052}));
}

}  // namespace
}  // namespace oprig::graph::test
