// The model format's NNAPI operand kinds: OperandCode names and numbers,
// scalars, the relaxed flag, vendor extension operand types (declared by the
// package, named in the model), and the IF condition without a value.
#include <gtest/gtest.h>

#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

TEST(ModelFormat, NnapiOperandTypeNamesAndCodes) {
  // 3 = TENSOR_FLOAT32, 1 = INT32 (scalar), 14 = TENSOR_QUANT8_ASYMM_SIGNED.
  const Model m = parse(R"({"relax_float32_to_float16": true, "subgraphs": [{"operands": [
      {"type": 3, "dims": [2], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "INT32", "lifetime": "CONSTANT", "value": 0},
      {"type": 14, "dims": [2], "scale": 0.5, "zero_point": -3, "lifetime": "SUBGRAPH_INPUT"},
      {"type": "TENSOR_FLOAT32", "dims": [2], "lifetime": "SUBGRAPH_OUTPUT"}],
    "operations": [{"type": "ADD", "inputs": [0, 0, 1], "outputs": [3]}],
    "inputs": [0, 2], "outputs": [3]}]})");
  EXPECT_TRUE(m.relax_float32_to_float16);
  const std::vector<Operand>& o = m.subgraphs[0].operands;
  EXPECT_EQ(o[0].dtype, OPRIG_DTYPE_FLOAT_32);
  EXPECT_FALSE(o[0].scalar);
  EXPECT_EQ(o[1].dtype, OPRIG_DTYPE_INT_32);
  EXPECT_TRUE(o[1].scalar);
  ASSERT_TRUE(o[1].dims.has_value());
  EXPECT_TRUE(o[1].dims->empty());
  EXPECT_EQ(o[2].dtype, OPRIG_DTYPE_INT_8);
  EXPECT_EQ(o[2].scale, 0.5f);
  EXPECT_EQ(o[2].zero_point, -3);
  EXPECT_EQ(operand_type_text(o[1]), "INT_32 scalar");
}

TEST(ModelFormat, ScalarsAndTensorsAreDifferentTypes) {
  EXPECT_NE(load_error(R"({"subgraphs": [{"operands": [{"type": "INT32", "dims": [1], "lifetime": "CONSTANT", "value": [0]}],
                           "operations": []}]})")
                .find("a scalar has no dims"),
            std::string::npos);
  EXPECT_NE(load_error(R"({"subgraphs": [{"operands": [{"type": "FLOAT32", "scale": 1.0, "lifetime": "CONSTANT", "value": 0}],
                           "operations": []}]})")
                .find("FLOAT32 is not quantised"),
            std::string::npos);
  // A TENSOR_INT32 may carry a scale (NNAPI's quantised bias), a TENSOR_FLOAT32 may not.
  EXPECT_EQ(load_error(R"({"subgraphs": [{"operands": [{"type": "TENSOR_INT32", "dims": [1], "scale": 0.25, "lifetime": "CONSTANT", "value": [0]}],
                           "operations": []}]})"),
            "");
  EXPECT_NE(load_error(R"({"subgraphs": [{"operands": [{"type": 99, "dims": [1], "lifetime": "CONSTANT", "value": [0]}],
                           "operations": []}]})")
                .find("unknown NNAPI operand type code 99"),
            std::string::npos);
}

TEST(ModelFormat, AnIfConditionWithoutAValueIsALoadError) {
  const std::string error = load_error(R"({"subgraphs": [
    {"operands": [
       {"type": "TENSOR_BOOL8", "dims": [1], "lifetime": "NO_VALUE"},
       {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 1},
       {"type": "TENSOR_FLOAT32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
       {"type": "TENSOR_FLOAT32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
     "operations": [{"type": "IF", "inputs": [0, 1, 1, 2], "outputs": [3]}], "inputs": [2], "outputs": [3]},
    {"operands": [{"type": "TENSOR_FLOAT32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
                  {"type": "TENSOR_FLOAT32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
     "operations": [{"type": "ADD", "inputs": [0, 0], "outputs": [1]}], "inputs": [0], "outputs": [1]}]})");
  EXPECT_NE(error.find("subgraph 0 operation 0 operand 0: IF condition (input 0) has no value (lifetime NO_VALUE)"),
            std::string::npos)
      << error;
}

// The com.example.fibonacci package declares EXAMPLE_INT64 (0, a scalar of
// INT_64) and EXAMPLE_TENSOR_QUANT64_ASYMM (1, a quantised UINT_64 tensor).
class ExtensionTypes : public ::testing::Test {
 protected:
  static const PackageLibrary& fibonacci() {
    static const PackageLibrary library = [] {
      PackageLibrary l;
      l.load(OPRIG_FIBONACCI_LIBRARY);
      return l;
    }();
    return library;
  }
  static Model parse_fib(const std::string& json) { return parse_model(json, "inline.json", OPRIG_MODELS_DIR, fibonacci()); }
  static std::string error_of(const std::string& json) {
    try {
      parse_fib(json);
    } catch (const ModelError& e) {
      return e.what();
    }
    return "";
  }
  // Fibonacci(n): n and the output are operand JSON bodies.
  static std::string model(const std::string& n, const std::string& out) {
    return R"({"extensions": [{"prefix": 7, "package": "com.example.fibonacci"}], "subgraphs": [{"operands": [
        {)" + n + R"(, "lifetime": "SUBGRAPH_INPUT"}, {)" + out + R"(, "lifetime": "SUBGRAPH_OUTPUT"}],
      "operations": [{"type": "com.example.fibonacci:Fibonacci", "inputs": [0], "outputs": [1]}],
      "inputs": [0], "outputs": [1]}]})";
  }
  static constexpr const char* kInt64 = R"("type": "com.example.fibonacci:EXAMPLE_INT64")";
  static constexpr const char* kQuant64 =
      R"("type": "com.example.fibonacci:EXAMPLE_TENSOR_QUANT64_ASYMM", "dims": [0], "scale": 0.5, "zero_point": 3)";
};

TEST_F(ExtensionTypes, AreDeclaredByNameOrEncodedTypeAndRun) {
  // By name, and by (7 << 16) | index.
  for (const std::string& json : {model(kInt64, kQuant64),
                                  model(R"("type": 458752)", R"("type": 458753, "dims": [0], "scale": 0.5, "zero_point": 3)")}) {
    const Model m = parse_fib(json);
    const Operand& n = m.subgraphs[0].operands[0];
    const Operand& f = m.subgraphs[0].operands[1];
    ASSERT_TRUE(n.extension.has_value());
    EXPECT_EQ(n.extension->name, "EXAMPLE_INT64");
    EXPECT_EQ(n.extension->encoded(), (7u << 16) | 0u);
    EXPECT_TRUE(n.scalar);
    EXPECT_EQ(n.dtype, OPRIG_DTYPE_INT_64);
    EXPECT_EQ(abi_dtype(n), OPRIG_DTYPE_EXTENSION(0));
    ASSERT_TRUE(f.extension.has_value());
    EXPECT_EQ(f.dtype, OPRIG_DTYPE_UINT_64);
    EXPECT_EQ(abi_dtype(f), OPRIG_DTYPE_EXTENSION(1));
    EXPECT_EQ(operand_type_text(n), "com.example.fibonacci:EXAMPLE_INT64 scalar");
    // F(1..6) = 1 1 2 3 5 8 at (0.5, 3): q = 2F + 3.
    const PreparedModel p = prepare(m, {&cpu(), &cpu()});
    const std::vector<HostTensor> n6 = {tensor<int64_t>(OPRIG_DTYPE_INT_64, {}, {6})};
    const ExecutionResult r = p.execute(n6);
    ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
    EXPECT_EQ(r.outputs[0].shape, std::vector<int64_t>{6});
    EXPECT_EQ(values<uint64_t>(r.outputs[0]), (std::vector<uint64_t>{5, 5, 7, 9, 13, 19}));
  }
}

TEST_F(ExtensionTypes, AreCheckedAtLoad) {
  // A name the package does not declare.
  EXPECT_NE(error_of(model(R"("type": "com.example.fibonacci:EXAMPLE_INT32")", kQuant64))
                .find("package 'com.example.fibonacci' declares no operand type 'EXAMPLE_INT32' (it declares: EXAMPLE_INT64 (0), "
                      "EXAMPLE_TENSOR_QUANT64_ASYMM (1))"),
            std::string::npos);
  // The package's validate hook sees the types: a quantised UINT_64 tensor is no n.
  EXPECT_NE(error_of(model(kQuant64, kQuant64))
                .find("rejected by its package's validate hook (INVALID_ARGUMENT): input n must be FLOAT_32 holding one "
                      "element or an EXAMPLE_INT64 scalar"),
            std::string::npos);
  // A quantised extension type needs a scale; a scalar one has no dims.
  EXPECT_NE(error_of(R"({"extensions": [{"prefix": 7, "package": "com.example.fibonacci"}], "subgraphs": [{"operands": [
        {"type": "com.example.fibonacci:EXAMPLE_TENSOR_QUANT64_ASYMM", "dims": [1], "lifetime": "SUBGRAPH_INPUT"}],
      "operations": [], "inputs": [0]}]})")
                .find("EXAMPLE_TENSOR_QUANT64_ASYMM needs \"scale\" > 0"),
            std::string::npos);
  // Built-ins take no extension operand types.
  EXPECT_NE(error_of(R"({"extensions": [{"prefix": 7, "package": "com.example.fibonacci"}], "subgraphs": [{"operands": [
        {"type": "com.example.fibonacci:EXAMPLE_INT64", "lifetime": "SUBGRAPH_INPUT"},
        {"type": "INT_64", "dims": [], "lifetime": "SUBGRAPH_OUTPUT"}],
      "operations": [{"type": "CAST", "inputs": [0], "outputs": [1]}], "inputs": [0], "outputs": [1]}]})")
                .find("cannot cast from com.example.fibonacci:EXAMPLE_INT64 scalar"),
            std::string::npos);
}

}  // namespace
}  // namespace oprig::graph::test
