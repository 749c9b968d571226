// For the spec tests of Quantize and Dequantize (<op>/spec_test.cpp): the
// JSON UDO config the harness runs and the XML OpDef (which can say what the
// JSON format cannot) of an op of one input, one output and no parameters
// must describe the same op: package, backends, tensors' names and data
// types per backend.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "runner/suite.hpp"

namespace oprig::harness {

// Compares <folder>/<folder>.json with <folder>/<folder>.xml as above
// (failures are the test's); the JSON's case space, for the op's own checks.
inline OpCaseSpace expect_json_and_xml_alike(const std::string& folder, const std::string& op) {
  const std::filesystem::path dir = default_suite_dir() / folder;
  const OpCaseSpace json = case_space_from_spec(dir / (folder + ".json"), op);
  const OpCaseSpace xml = case_space_from_spec(dir / (folder + ".xml"), op);
  EXPECT_EQ(json.package, xml.package);
  EXPECT_EQ(json.backends, xml.backends);
  EXPECT_EQ(json.inputs.size(), 1u);
  EXPECT_EQ(json.outputs.size(), 1u);
  EXPECT_EQ(xml.inputs.size(), 1u);
  EXPECT_EQ(xml.outputs.size(), 1u);
  if (json.inputs.size() == 1 && xml.inputs.size() == 1) {
    EXPECT_EQ(json.inputs[0].name, xml.inputs[0].name);
    EXPECT_EQ(json.inputs[0].types_by_backend, xml.inputs[0].types_by_backend);
  }
  if (json.outputs.size() == 1 && xml.outputs.size() == 1) {
    EXPECT_EQ(json.outputs[0].name, xml.outputs[0].name);
    EXPECT_EQ(json.outputs[0].types_by_backend, xml.outputs[0].types_by_backend);
  }
  EXPECT_TRUE(json.params.empty());
  EXPECT_TRUE(xml.params.empty());
  return json;
}

}  // namespace oprig::harness
