// XML -> IR -> XML -> IR and JSON -> IR -> JSON -> IR give the same IR.
#include <gtest/gtest.h>

#include "spec/write.hpp"
#include "spec_test_util.hpp"

namespace oprig::spec {
namespace {

using test::data_path;
using test::errors_text;
using test::load_ok;
using test::opsuite_path;

void expect_xml_round_trip(const std::string& path) {
  LoadResult first = load_ok(path);
  ASSERT_EQ(first.packages.size(), 1u);
  std::string written = write_xml(first.packages[0]);
  LoadResult second = read_xml(written, "written.xml");
  ASSERT_TRUE(second.ok()) << errors_text(second) << written;
  ASSERT_EQ(second.packages.size(), 1u);
  EXPECT_EQ(second.packages[0], first.packages[0]) << written;
  EXPECT_EQ(write_xml(second.packages[0]), written);  // the writer is stable
}

void expect_json_round_trip(const std::string& path) {
  LoadResult first = load_ok(path);
  std::string written = write_json(first.packages);
  LoadResult second = read_json(written, "written.json");
  ASSERT_TRUE(second.ok()) << errors_text(second) << written;
  EXPECT_EQ(second.packages, first.packages) << written;
  EXPECT_EQ(write_json(second.packages), written);
}

TEST(RoundTrip, XmlMessyFile) { expect_xml_round_trip(data_path("good/messy_crlf.xml")); }
TEST(RoundTrip, XmlAtan) { expect_xml_round_trip(opsuite_path("atan/atan.xml")); }
TEST(RoundTrip, JsonMultiPackage) { expect_json_round_trip(data_path("good/multi_package.json")); }
TEST(RoundTrip, JsonAtan) { expect_json_round_trip(opsuite_path("atan/atan.json")); }

// Found by fuzz/spec_xml_fuzzer: an empty OpDefList loads from XML, and
// write_json wrote "Operators": [], which read_json refuses.
TEST(RoundTrip, PackageWithoutOperatorsHasNoJsonForm) {
  LoadResult xml = load_ok(data_path("empty/empty_opdeflist.xml"));
  ASSERT_EQ(xml.packages.size(), 1u);
  ASSERT_TRUE(xml.packages[0].ops.empty());
  try {
    (void)write_json(xml.packages);
    FAIL() << "no WriteError";
  } catch (const WriteError& e) {
    EXPECT_STREQ(e.what(), "UdoPackage_0 (package 'EmptyPackage'): a UDO config needs at least one operator");
  }
  expect_xml_round_trip(data_path("empty/empty_opdeflist.xml"));  // XML holds it
}

TEST(RoundTrip, JsonNchwThroughXml) {
  // JSON allows NCHW natively; through XML it must come back as NCHW.
  LoadResult json = load_ok(data_path("good/multi_package.json"));
  const Package& scale_bias = json.packages[1];
  std::string xml = write_xml(scale_bias);
  EXPECT_EQ(xml.find("NCHW</Layout>"), std::string::npos) << "the schema has no NCHW";
  EXPECT_NE(xml.find("<Layout>UNDEFINED</Layout>"), std::string::npos);
  LoadResult back = read_xml(xml, "scale_bias.xml");
  ASSERT_TRUE(back.ok()) << errors_text(back);
  EXPECT_EQ(back.packages[0].ops[0].inputs[0].shape.layout, Layout::kNCHW);
  EXPECT_EQ(back.packages[0].ops[0].inputs[0].shape.text, "");
  EXPECT_EQ(back.packages[0], scale_bias);
}

// Found by spec_json_fuzzer: the IR keeps XML attributes as "@Name" beside
// unknown JSON keys, and the JSON writer puts attributes in oprig_extension,
// which the reader applies last. A JSON key that looks like an attribute,
// read before a plain unknown key, came back after it.
TEST(RoundTrip, JsonAttributeNamedKeyBeforeUnknownKey) {
  const std::string text = R"({"P": {"UDO_PACKAGE_NAME": "P", "@vendor": 1, "extra": 2,
    "Operators": [{"type": "T", "@a": "x", "zz": true, "core_types": ["CPU"],
      "inputs": [{"name": "x", "data_type": "FLOAT_32"}],
      "outputs": [{"name": "y", "@data_type": "FLOAT_64", "tensor_layoutt": "NHWC"}]}]}})";
  LoadResult first = read_json(text, "attribute_keys.json");
  ASSERT_TRUE(first.ok()) << errors_text(first);
  ASSERT_EQ(first.packages.size(), 1u);
  const auto keys = [](const UnknownFields& fields) {
    std::vector<std::string> names;
    for (const auto& [name, value] : fields.items()) names.push_back(name);
    return names;
  };
  EXPECT_EQ(keys(first.packages[0].unknown_fields), (std::vector<std::string>{"extra", "@vendor"}));
  EXPECT_EQ(keys(first.packages[0].ops[0].unknown_fields), (std::vector<std::string>{"zz", "@a"}));
  EXPECT_EQ(keys(first.packages[0].ops[0].outputs[0].unknown_fields),
            (std::vector<std::string>{"tensor_layoutt", "@data_type"}));
  const std::string written = write_json(first.packages);
  LoadResult second = read_json(written, "written.json");
  ASSERT_TRUE(second.ok()) << errors_text(second) << written;
  EXPECT_EQ(second.packages, first.packages) << written;
  EXPECT_EQ(write_json(second.packages), written);
}

TEST(XmlWriter, QnnSpellingsAndSchemaOrder) {
  LoadResult messy = load_ok(data_path("good/messy_crlf.xml"));
  std::string xml = write_xml(messy.packages[0]);
  EXPECT_NE(xml.find("<Datatype>QNN_DATATYPE_UFIXED_POINT_8</Datatype>"), std::string::npos);
  EXPECT_EQ(xml.find("<Datatype>FIXED_8</Datatype>"), std::string::npos);
  EXPECT_NE(xml.find("Type=\"Shape\""), std::string::npos);  // "shape" normalised
  // Constraint before Mandatory (the seed's file has them the other way round).
  size_t constraint = xml.find("<Constraint id=\"rank\"");
  size_t mandatory = xml.find("<Mandatory>", xml.find("<Name>input</Name>"));
  EXPECT_LT(constraint, mandatory);
  // Passthrough had an empty Description; the schema requires the element.
  EXPECT_NE(xml.find("<Name>Passthrough</Name>\n      <Description />"), std::string::npos) << xml;
}

}  // namespace
}  // namespace oprig::spec
