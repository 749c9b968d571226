// scaled_dot_product_attention.json (the JSON UDO config) and .xml (which the
// test plan runs) must describe the same op: tensors, data types per backend,
// parameters and defaults. The one difference is what the JSON format cannot
// say: the mask input is optional (Mandatory false) in the XML only.
#include <gtest/gtest.h>

#include "runner/suite.hpp"

namespace oprig::harness {
namespace {

TEST(ScaledDotProductAttentionSpec, JsonAndXmlDescribeTheSameOp) {
  const std::filesystem::path dir = default_suite_dir() / "scaled_dot_product_attention";
  const std::string op = "ScaledDotProductAttention";
  const OpCaseSpace json = case_space_from_spec(dir / "scaled_dot_product_attention.json", op);
  const OpCaseSpace xml = case_space_from_spec(dir / "scaled_dot_product_attention.xml", op);
  EXPECT_EQ(json.package, xml.package);
  EXPECT_EQ(json.backends, xml.backends);
  ASSERT_EQ(json.inputs.size(), 4u);
  ASSERT_EQ(xml.inputs.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(json.inputs[i].name, xml.inputs[i].name);
    EXPECT_EQ(json.inputs[i].types_by_backend, xml.inputs[i].types_by_backend) << xml.inputs[i].name;
    EXPECT_TRUE(json.inputs[i].mandatory) << "the JSON format has no optional inputs";
    EXPECT_EQ(xml.inputs[i].mandatory, i < 3);
  }
  ASSERT_EQ(json.outputs.size(), 1u);
  ASSERT_EQ(xml.outputs.size(), 1u);
  EXPECT_EQ(json.outputs[0].types_by_backend, xml.outputs[0].types_by_backend);
  ASSERT_EQ(json.params.size(), 2u);
  ASSERT_EQ(xml.params.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(json.params[i].name, xml.params[i].name);
    EXPECT_EQ(json.params[i].dtype, xml.params[i].dtype);
    EXPECT_EQ(json.params[i].default_value, xml.params[i].default_value) << json.params[i].name;
  }
  EXPECT_EQ(xml.params[0].default_value, nlohmann::json(false));
  EXPECT_EQ(xml.params[1].default_value, nlohmann::json("1/sqrt(D)"));
}

}  // namespace
}  // namespace oprig::harness
