// quantize.json (the JSON UDO config the harness runs) and quantize.xml (the
// same op with the rounding rule and constraints the JSON format cannot hold)
// must describe the same op: tensors, data types per backend, parameters.
#include <gtest/gtest.h>

#include "runner/suite.hpp"

namespace oprig::harness {
namespace {

TEST(QuantizeSpec, JsonAndXmlDescribeTheSameOp) {
  const std::filesystem::path dir = default_suite_dir() / "quantize";
  const OpCaseSpace json = case_space_from_spec(dir / "quantize.json", "Quantize");
  const OpCaseSpace xml = case_space_from_spec(dir / "quantize.xml", "Quantize");
  EXPECT_EQ(json.package, xml.package);
  EXPECT_EQ(json.backends, xml.backends);
  ASSERT_EQ(json.inputs.size(), 1u);
  ASSERT_EQ(json.outputs.size(), 1u);
  ASSERT_EQ(xml.inputs.size(), 1u);
  ASSERT_EQ(xml.outputs.size(), 1u);
  EXPECT_EQ(json.inputs[0].name, xml.inputs[0].name);
  EXPECT_EQ(json.inputs[0].types_by_backend, xml.inputs[0].types_by_backend);
  EXPECT_EQ(json.outputs[0].name, xml.outputs[0].name);
  EXPECT_EQ(json.outputs[0].types_by_backend, xml.outputs[0].types_by_backend);
  EXPECT_TRUE(json.params.empty());
  EXPECT_TRUE(xml.params.empty());
  // FIXED_8 / SFIXED_POINT_8: quantised UINT_8 and INT_8 codes on cpu.
  EXPECT_EQ(json.outputs[0].types_by_backend.at("cpu"),
            (std::vector<TypeChoice>{{OPRIG_DTYPE_UINT_8, true}, {OPRIG_DTYPE_INT_8, true}}));
}

}  // namespace
}  // namespace oprig::harness
