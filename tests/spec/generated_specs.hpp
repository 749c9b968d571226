// Large and hostile spec texts, generated rather than committed: shared by
// the hostile-input tests and the spec benchmark.
#pragma once

#include <cstddef>
#include <string>

namespace oprig::spec::test {

// n '[' then n ']': 2n bytes nested n deep.
inline std::string nested_arrays(size_t n) { return std::string(n, '[') + std::string(n, ']'); }

// A valid JSON UDO config of at least `bytes` bytes: one package of many
// operators, each with per-core types, a static input with a default, scalar
// and tensor parameters.
inline std::string big_json_spec(size_t bytes) {
  std::string text = "{\n  \"UdoPackage_0\": {\n    \"Operators\": [\n";
  for (size_t i = 0; text.size() < bytes; ++i) {
    std::string n = std::to_string(i);
    if (i) text += ",\n";
    text += "      {\"type\": \"Op" + n + "\",\n"
            "       \"inputs\": [{\"name\": \"x\", \"per_core_data_types\": {\"CPU\": \"FLOAT_32\", \"GPU\": \"FLOAT_16\", "
            "\"DSP\": \"UINT_8\"}, \"tensor_layout\": \"NHWC\"},\n"
            "                  {\"name\": \"w\", \"data_type\": \"FLOAT_32\", \"static\": true, \"default_value\": [1, 2, 3]}],\n"
            "       \"outputs\": [{\"name\": \"y\", \"data_type\": \"FLOAT_32\"}],\n"
            "       \"scalar_params\": [{\"name\": \"alpha\", \"data_type\": \"FLOAT_32\", \"default_value\": 0.5}],\n"
            "       \"tensor_params\": [{\"name\": \"table\", \"data_type\": \"FLOAT_32\", \"default_value\": [[1, 2], [3, 4]]}],\n"
            "       \"core_types\": [\"CPU\", \"GPU\", \"DSP\"], \"dsp_arch_types\": [\"v68\"]}";
  }
  text += "\n    ],\n    \"UDO_PACKAGE_NAME\": \"Big\"\n  }\n}\n";
  return text;
}

// A valid XML OpDefCollection of at least `bytes` bytes: many ops, each with
// a BACKEND_SPECIFIC input resolved by a supplement.
inline std::string big_xml_spec(size_t bytes) {
  std::string ops, sups;
  for (size_t i = 0; ops.size() + sups.size() < bytes; ++i) {
    std::string n = std::to_string(i);
    ops += "    <OpDef>\n      <Name>Op" + n + "</Name>\n      <Description><Content>operator " + n +
           "</Content></Description>\n"
           "      <Input><Name>x</Name><Mandatory>true</Mandatory><Datatype>BACKEND_SPECIFIC</Datatype>"
           "<Shape><Rank>ND</Rank><Layout>NHWC</Layout></Shape></Input>\n"
           "      <Output><Name>y</Name><Mandatory>true</Mandatory><Datatype>QNN_DATATYPE_FLOAT_32</Datatype>"
           "<Shape><Rank>ND</Rank></Shape></Output>\n"
           "      <Parameter><Name>alpha</Name><Mandatory>false</Mandatory><Datatype>QNN_DATATYPE_FLOAT_32</Datatype>"
           "<Shape><Rank>SCALAR</Rank></Shape><Default>0.5</Default></Parameter>\n"
           "      <SupportedBackend>CPU</SupportedBackend>\n    </OpDef>\n";
    sups += "    <SupplementalOpDef><Name>Op" + n +
            "</Name><Input><Name>x</Name><Datatype>QNN_DATATYPE_FLOAT_32</Datatype></Input></SupplementalOpDef>\n";
  }
  return "<?xml version=\"1.0\"?>\n<OpDefCollection PackageName=\"Big\" Domain=\"big\" Version=\"1\">\n  <OpDefList>\n" +
         ops + "  </OpDefList>\n  <SupplementalOpDefList Backend=\"CPU\">\n" + sups +
         "  </SupplementalOpDefList>\n</OpDefCollection>\n";
}

}  // namespace oprig::spec::test
