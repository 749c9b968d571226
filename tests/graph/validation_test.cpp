// Every load-time error names its location (file:line, subgraph, operation,
// operand) and the reason; nothing is prepared or run.
#include <gtest/gtest.h>

#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

struct BadModel {
  const char* file;
  std::vector<std::string> expected;  // substrings of the error message
};

class Validation : public ::testing::TestWithParam<BadModel> {};

TEST_P(Validation, ReportsLocationAndReason) {
  const BadModel& bad = GetParam();
  try {
    load(std::string("bad/") + bad.file);
    FAIL() << bad.file << " loaded without error";
  } catch (const ModelError& e) {
    const std::string message = e.what();
    for (const std::string& part : bad.expected) EXPECT_NE(message.find(part), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    BadModels, Validation,
    ::testing::Values(
        BadModel{"malformed.json", {"malformed.json:7: malformed JSON"}},
        BadModel{"dangling_operand.json",
                 {"dangling_operand.json:9:", "subgraph 0 operation 0 operand 7", "does not exist"}},
        BadModel{"cycle_direct.json", {"subgraph 1 operand 1", "references itself directly", "1 -> 1"}},
        BadModel{"cycle_indirect.json", {"subgraph 2 operand 1", "references itself indirectly", "1 -> 2 -> 1"}},
        BadModel{"missing_package.json", {"missing_package.json:3: ", "com.example.missing", "is not loaded"}},
        BadModel{"type_mismatch.json", {"subgraph 0 operation 0 operand 1", "same type", "FLOAT_32"}},
        BadModel{"if_condition_type.json",
                 {"subgraph 0 operation 0 operand 0", "IF condition (input 0) must be BOOL_8 [1], is INT_32 [1]"}},
        BadModel{"branch_mismatch.json",
                 {"subgraph 0 operation 0 operand 4", "else branch (subgraph 2) output 0: type differs"}},
        BadModel{"use_before_write.json", {"subgraph 0 operation 0 operand 1", "used before any operation writes it"}},
        BadModel{"unknown_prefix.json", {"subgraph 0 operation 0", "extension prefix 2"}},
        BadModel{"missing_op.json", {"subgraph 0 operation 0", "asks for op index 65535"}},
        BadModel{"while_condition_shape.json",
                 {"subgraph 0 operation 0", "condition subgraph output must be BOOL_8 [1], is BOOL_8 [2]"}}),
    [](const ::testing::TestParamInfo<BadModel>& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

TEST(Validation, MissingFileIsAnError) {
  EXPECT_THROW(load("no_such_model.json"), ModelError);
}

TEST(Validation, ExtensionPrefixesAreOneToOne) {
  try {
    parse(R"({"extensions": [{"prefix": 1, "package": "org.oprig.opsuite"}, {"prefix": 2, "package": "org.oprig.opsuite"}],
              "subgraphs": [{"operands": [], "operations": []}]})");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("one to one"), std::string::npos) << e.what();
  }
}

TEST(Validation, PackageOpArityAndParams) {
  auto error_of = [](const std::string& json) {
    try {
      parse(json);
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = R"({"extensions": [{"prefix": 1, "package": "org.oprig.opsuite"}], "subgraphs": [{"operands": [
    {"type": "FLOAT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
    {"type": "FLOAT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}], "operations": [)";
  const std::string tail = R"(], "inputs": [0], "outputs": [1]}]})";
  EXPECT_NE(error_of(head + R"({"type": 65536, "inputs": [0, 0], "outputs": [1]})" + tail).find("takes 1 input(s)"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"({"type": 65536, "inputs": [0], "outputs": [1], "params": {"gain": 2}})" + tail)
                .find("has no parameter 'gain'"),
            std::string::npos);
  EXPECT_EQ(error_of(head + R"({"type": "org.oprig.opsuite:Atan", "inputs": [0], "outputs": [1], "params": {"offset": 2}})" + tail),
            "no error");
}

}  // namespace
}  // namespace oprig::graph::test
