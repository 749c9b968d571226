// Hostile input: depth and size are bounded with clear errors that name the
// file and line, and large files load (the work is linear: a quadratic path
// would make these tests take minutes, not milliseconds). Inputs are
// generated here, not committed. Time and memory are measured by
// spec_bench and tests/spec/measure_hostile.sh, not asserted here.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "generated_specs.hpp"
#include "spec/json_positions.hpp"
#include "spec_test_util.hpp"

namespace oprig::spec {
namespace {

namespace fs = std::filesystem;
using test::errors_text;

TEST(Hostile, MillionNestedArraysStopAtTheDepthLimitWithFileAndLine) {
  const std::string text = test::nested_arrays(1000000);  // 2 MB
  LoadResult result = read_json(text, "nested.json");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_TRUE(result.packages.empty());
  EXPECT_EQ(result.errors[0].to_string(), "nested.json:1: JSON: nested deeper than 128 levels");
}

TEST(Hostile, NestingLimitCountsObjectsAndArraysAndAllowsWhatIsBelowIt) {
  std::string deep_objects;
  for (int i = 0; i < 300; ++i) deep_objects += "{\"a\":\n";
  deep_objects += "1" + std::string(300, '}');
  PositionedJson doc = parse_json_with_positions(deep_objects, 256);
  EXPECT_EQ(doc.error, "nested deeper than 256 levels");
  EXPECT_EQ(doc.error_line, 257);  // the 257th '{' is on line 257

  PositionedJson ok = parse_json_with_positions(test::nested_arrays(256), 256);
  EXPECT_TRUE(ok.error.empty()) << ok.error;
  PositionedJson too_deep = parse_json_with_positions(test::nested_arrays(257), 256);
  EXPECT_EQ(too_deep.error, "nested deeper than 256 levels");
}

TEST(Hostile, DeepXmlInsideAnElementIsAnErrorNotARecursion) {
  std::string text = "<OpDefCollection PackageName=\"P\" Domain=\"\" Version=\"1\"><OpDefList><OpDef><Name>N</Name>"
                     "<Description><Content>";
  const int depth = 300000;  // about 2 MB of markup
  for (int i = 0; i < depth; ++i) text += "<b>";
  for (int i = 0; i < depth; ++i) text += "</b>";
  text += "</Content></Description></OpDef></OpDefList></OpDefCollection>";
  LoadResult result = read_xml(text, "deep.xml");
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(result.packages.empty());
  ASSERT_FALSE(result.errors.empty());
  EXPECT_EQ(result.errors[0].to_string(), "deep.xml:1: b: unexpected element inside <Content>");
}

TEST(Hostile, DeeplyNestedDefaultIsKeptAsText) {
  // A Default that nests far beyond kMaxDefaultNesting stays a string
  // instead of recursing once per bracket.
  std::string raw = std::string(200000, '[') + "1" + std::string(200000, ']');
  DefaultValue d = parse_default(raw, false);
  EXPECT_EQ(d.raw, raw);
  EXPECT_TRUE(d.parsed.is_string());
  std::string shallow = std::string(kMaxDefaultNesting, '[') + "1" + std::string(kMaxDefaultNesting, ']');
  EXPECT_TRUE(parse_default(shallow, false).parsed.is_array());
}

TEST(Hostile, FileOverTheSizeLimitIsRefusedUnread) {
  fs::path file = fs::temp_directory_path() / ("oprig_spec_oversized_" + std::to_string(::getpid()) + ".json");
  { std::ofstream(file) << "{"; }
  fs::resize_file(file, kMaxSpecBytes + 1);  // sparse: costs no disk and no time
  LoadResult result = load_spec_file(file);
  fs::remove(file);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].line, 0);
  EXPECT_EQ(result.errors[0].message, "is 33554433 bytes; spec files are limited to 32.0 MiB");
  EXPECT_NE(result.errors[0].to_string().find(file.filename().string()), std::string::npos);
}

TEST(Hostile, TenMegabyteJsonSpecLoads) {
  const std::string text = test::big_json_spec(10u << 20);
  LoadResult result = read_json(text, "big.json");
  ASSERT_TRUE(result.ok()) << errors_text(result);
  EXPECT_TRUE(result.warnings.empty());
  const Package& p = result.packages.at(0);
  ASSERT_GT(p.ops.size(), 10000u);
  const OpDef& last = p.ops.back();
  EXPECT_EQ(last.name, "Op" + std::to_string(p.ops.size() - 1));
  EXPECT_EQ(last.inputs[1].default_value->parsed, nlohmann::json::parse("[1, 2, 3]"));
  ASSERT_EQ(p.supplementals.size(), 3u);  // CPU, GPU, DSP
  EXPECT_EQ(p.supplementals[2].ops.size(), p.ops.size());
}

TEST(Hostile, TenMegabyteXmlSpecLoads) {
  const std::string text = test::big_xml_spec(10u << 20);
  LoadResult result = read_xml(text, "big.xml");
  ASSERT_TRUE(result.ok()) << errors_text(result);
  EXPECT_TRUE(result.warnings.empty());
  const Package& p = result.packages.at(0);
  ASSERT_GT(p.ops.size(), 10000u);
  EXPECT_EQ(p.supplementals.at(0).ops.size(), p.ops.size());
}

TEST(Hostile, WideObjectAndManyDuplicatesStayLinear) {
  // One kept unknown value: an object of 100000 keys, then every key again
  // (a search per key would take minutes here).
  std::string wide = "{";
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 100000; ++i) wide += (round || i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(round);
  wide += "}";
  std::string text = "{\"P\": {\"Operators\": [{\"type\": \"T\", \"core_types\": [\"CPU\"], \"inputs\": [{\"data_type\": "
                     "\"FLOAT_32\", \"note\": " +
                     wide + "}], \"outputs\": [{\"data_type\": \"FLOAT_32\"}]}], \"UDO_PACKAGE_NAME\": \"p\"}}";
  LoadResult result = read_json(text, "wide.json");
  ASSERT_TRUE(result.ok()) << errors_text(result);
  ASSERT_EQ(result.warnings.size(), 100001u);  // 100000 duplicates, then the unknown key
  EXPECT_EQ(result.warnings[0].element, "P.Operators[0].inputs[0].note.k0");
  EXPECT_EQ(result.warnings[0].line, 1);
  EXPECT_EQ(result.warnings[100000].element, "P.Operators[0].inputs[0].note");
  const UnknownFields& kept = result.packages[0].ops[0].inputs[0].unknown_fields;
  ASSERT_EQ(kept["note"].size(), 100000u);
  EXPECT_EQ(kept["note"]["k99999"], 1);  // the last value wins, in the first place
  EXPECT_EQ(kept["note"].begin().key(), "k0");
}

TEST(Hostile, LongTextAndHugeDefaultArrayLoad) {
  std::string long_name(4u << 20, 'n');
  std::string values = "[0";
  for (int i = 1; i < 500000; ++i) values += ",1";
  values += "]";
  std::string text = "{\"P\": {\"Operators\": [{\"type\": \"" + long_name +
                     "\", \"core_types\": [\"CPU\"], \"inputs\": [{\"data_type\": \"FLOAT_32\"}], \"outputs\": [{\"data_type\": "
                     "\"FLOAT_32\"}], \"tensor_params\": [{\"name\": \"t\", \"data_type\": \"INT_32\", \"default_value\": " +
                     values + "}]}], \"UDO_PACKAGE_NAME\": \"p\"}}";
  LoadResult result = read_json(text, "long.json");
  ASSERT_TRUE(result.ok()) << errors_text(result);
  EXPECT_EQ(result.packages[0].ops[0].name.size(), long_name.size());
  EXPECT_EQ(result.packages[0].ops[0].parameters[0].default_value->parsed.size(), 500000u);
}

}  // namespace
}  // namespace oprig::spec
