// quantize.json (the JSON UDO config the harness runs) and quantize.xml (the
// same op with the rounding rule and constraints the JSON format cannot hold)
// must describe the same op: tensors, data types per backend, parameters.
#include <gtest/gtest.h>

#include "common/spec_pair_test.hpp"

namespace oprig::harness {
namespace {

TEST(QuantizeSpec, JsonAndXmlDescribeTheSameOp) {
  const OpCaseSpace json = expect_json_and_xml_alike("quantize", "Quantize");
  ASSERT_EQ(json.outputs.size(), 1u);
  // FIXED_8 / SFIXED_POINT_8: quantised UINT_8 and INT_8 codes on cpu.
  EXPECT_EQ(json.outputs[0].types_by_backend.at("cpu"),
            (std::vector<TypeChoice>{{OPRIG_DTYPE_UINT_8, true}, {OPRIG_DTYPE_INT_8, true}}));
}

}  // namespace
}  // namespace oprig::harness
