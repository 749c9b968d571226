// The good files: every element of seed 000 read, the messy cases accepted.
#include <filesystem>

#include <gtest/gtest.h>

#include "spec/json_positions.hpp"
#include "spec_test_util.hpp"

namespace oprig::spec {
namespace {

using test::data_path;
using test::load_ok;

const TensorDef& by_name(const std::vector<TensorDef>& tensors, const std::string& name) {
  for (const TensorDef& t : tensors)
    if (t.name == name) return t;
  throw std::runtime_error("no tensor " + name);
}

TEST(XmlReader, MessyCrlfFileReadsEveryElement) {
  LoadResult result = load_ok(data_path("good/messy_crlf.xml"));
  ASSERT_EQ(result.packages.size(), 1u);
  const Package& p = result.packages[0];
  EXPECT_EQ(p.name, "MessyPackage");
  EXPECT_EQ(p.domain, "");
  EXPECT_EQ(p.version, "0.3");
  ASSERT_EQ(p.ops.size(), 2u);

  const OpDef& op = p.ops[0];
  EXPECT_EQ(op.name, "ArgMaxCustom");
  EXPECT_EQ(op.description.content, "Index of the largest element along an axis.");
  EXPECT_EQ(op.description.code, "indices = argmax(input, axis)");
  ASSERT_EQ(op.references.size(), 1u);
  EXPECT_EQ(op.references[0].source, "ONNX");
  EXPECT_EQ(op.references[0].url, "https://onnx.ai/onnx/operators/onnx__ArgMax.html");
  EXPECT_EQ(op.use_default_translation, false);
  EXPECT_EQ(op.supported_backends, (std::vector<std::string>{"HTP_FP16", "CPU"}));

  const TensorDef& input = by_name(op.inputs, "input");
  EXPECT_TRUE(input.mandatory);
  EXPECT_TRUE(input.is_static);
  EXPECT_FALSE(input.repeated);
  EXPECT_EQ(input.datatypes, (std::vector<DataType>{DataType::kFloat32, DataType::kUFixed8}));
  EXPECT_EQ(input.shape.rank, Rank::k5D);
  EXPECT_EQ(input.shape.layout, Layout::kNDHWC);
  EXPECT_EQ(input.shape.text, "[N, D, H, W, C]");
  ASSERT_EQ(input.constraints.size(), 1u);
  EXPECT_EQ(input.constraints[0].id, "rank");
  EXPECT_EQ(input.constraints[0].type, ConstraintType::kShape);
  EXPECT_EQ(input.constraints[0].text, "Rank >= 1 always");
  EXPECT_EQ(input.constraints[0].code, "rank(input) >= 1");

  const TensorDef& mask = by_name(op.inputs, "mask");
  EXPECT_FALSE(mask.mandatory);
  EXPECT_EQ(mask.datatypes, std::vector<DataType>{DataType::kBool8});
  EXPECT_EQ(mask.shape.rank, Rank::k0D);
  ASSERT_TRUE(mask.default_value);
  EXPECT_EQ(mask.default_value->parsed, nlohmann::json(true));  // 0/1 on a BOOL_8 tensor

  const TensorDef& indices = by_name(op.outputs, "indices");
  EXPECT_EQ(indices.datatypes, std::vector<DataType>{DataType::kBackendSpecific});
  EXPECT_EQ(indices.shape.layout, Layout::kBackendSpecific);

  EXPECT_EQ(by_name(op.parameters, "axis").default_value->parsed, nlohmann::json("N-1"));
  EXPECT_EQ(by_name(op.parameters, "pads").default_value->raw, "{0,..,0}");
  EXPECT_EQ(by_name(op.parameters, "pads").default_value->parsed, nlohmann::json("{0,..,0}"));
  EXPECT_EQ(by_name(op.parameters, "alpha").default_value->parsed, nlohmann::json(0.2));
  EXPECT_EQ(by_name(op.parameters, "table").default_value->parsed, nlohmann::json::parse("[[1,2],[3,4]]"));
  EXPECT_EQ(by_name(op.parameters, "keep_dims").default_value->parsed, nlohmann::json(true));
  const TensorDef& mode = by_name(op.parameters, "mode");
  EXPECT_EQ(mode.enumeration, (std::vector<std::string>{"first", "last"}));
  EXPECT_EQ(mode.default_value->parsed, nlohmann::json(0));
  EXPECT_EQ(by_name(op.parameters, "scale_map").shape.layout, Layout::kNCHW);
  EXPECT_FALSE(by_name(op.parameters, "scale_map").default_value);

  const OpDef& pass = p.ops[1];
  EXPECT_EQ(pass.name, "Passthrough");
  EXPECT_TRUE(pass.description.empty());
  EXPECT_EQ(pass.inputs[0].datatypes, std::vector<DataType>{DataType::kSFixed8});
  EXPECT_EQ(pass.outputs[0].datatypes, std::vector<DataType>{DataType::kSFixed8});

  ASSERT_EQ(p.supplementals.size(), 3u);
  const SupplementalList& htp = p.supplementals[0];
  EXPECT_EQ(htp.backend, "HTP_FP16");
  EXPECT_EQ(htp.supported_ops, std::vector<std::string>{"argmaxcustom"});
  ASSERT_EQ(htp.ops.size(), 1u);
  EXPECT_EQ(htp.ops[0].name, "ARGMAXCUSTOM");
  EXPECT_EQ(htp.ops[0].inputs[0].only_default_supported, false);
  EXPECT_EQ(htp.ops[0].outputs[0].datatypes, std::vector<DataType>{DataType::kUInt32});
  EXPECT_EQ(htp.ops[0].outputs[0].layout, Layout::kNHWC);
  EXPECT_EQ(htp.ops[0].parameters[0].only_default_supported, true);
  EXPECT_EQ(p.supplementals[2].backend, "GPU");
  EXPECT_TRUE(p.supplementals[2].ops.empty());
}

TEST(JsonReader, SeveralPackagesCommentsAndLooseBooleans) {
  LoadResult result = load_ok(data_path("good/multi_package.json"));
  ASSERT_EQ(result.packages.size(), 2u);
  const Package& softplus = result.packages[0];
  EXPECT_EQ(softplus.name, "SoftplusPackage");
  ASSERT_EQ(softplus.ops.size(), 1u);
  const OpDef& op = softplus.ops[0];
  EXPECT_EQ(op.name, "Softplus");
  EXPECT_EQ(op.inputs[0].name, "in[0]");  // names are optional; the seed's default
  EXPECT_EQ(op.outputs[0].name, "out[0]");
  EXPECT_EQ(op.inputs[0].datatypes, std::vector<DataType>{DataType::kBackendSpecific});
  EXPECT_EQ(op.inputs[0].shape.layout, Layout::kNHWC);
  EXPECT_EQ(op.inputs[0].shape.rank, Rank::kND);
  EXPECT_EQ(op.supported_backends, (std::vector<std::string>{"CPU", "GPU", "DSP"}));
  EXPECT_EQ(op.dsp_arch_types, (std::vector<std::string>{"v68", "v73"}));
  ASSERT_EQ(op.parameters.size(), 2u);
  EXPECT_EQ(op.parameters[0].shape.rank, Rank::kScalar);
  EXPECT_FALSE(op.parameters[0].mandatory);
  EXPECT_EQ(op.parameters[0].default_value->parsed, nlohmann::json(1.5));
  EXPECT_TRUE(op.parameters[1].mandatory);  // no default_value
  // per_core_data_types -> one supplemental list per core, in file order.
  ASSERT_EQ(softplus.supplementals.size(), 3u);
  EXPECT_EQ(softplus.supplementals[0].backend, "CPU");
  EXPECT_EQ(softplus.supplementals[1].backend, "GPU");
  EXPECT_EQ(softplus.supplementals[2].backend, "DSP");
  EXPECT_EQ(softplus.supplementals[1].ops[0].inputs[0].datatypes, std::vector<DataType>{DataType::kFloat16});
  // DSP UINT_8 in the JSON format is the fixed-point (quantised) type.
  EXPECT_EQ(softplus.supplementals[2].ops[0].outputs[0].datatypes, std::vector<DataType>{DataType::kUFixed8});

  const OpDef& sb = result.packages[1].ops[0];
  EXPECT_EQ(result.packages[1].name, "ScaleBiasPackage");
  EXPECT_FALSE(sb.inputs[0].is_static);
  EXPECT_TRUE(sb.inputs[1].is_static);  // "True"
  EXPECT_TRUE(sb.inputs[2].is_static);  // 1
  EXPECT_EQ(sb.inputs[0].shape.layout, Layout::kNCHW);
  EXPECT_EQ(sb.inputs[1].datatypes, std::vector<DataType>{DataType::kSFixed8});
  ASSERT_EQ(sb.parameters.size(), 3u);
  EXPECT_EQ(sb.parameters[0].default_value->parsed, nlohmann::json(true));  // "1" on BOOL_8
  EXPECT_EQ(sb.parameters[1].default_value->parsed, nlohmann::json("N-1"));
  EXPECT_EQ(sb.parameters[2].shape.rank, Rank::kND);
  EXPECT_EQ(sb.parameters[2].default_value->parsed, nlohmann::json::parse("[[1,2],[3,4]]"));
  EXPECT_TRUE(result.packages[1].supplementals.empty());
}

TEST(JsonPositions, LinesOfKeysAndArrayElements) {
  const std::string text = "{\r\n  \"a\": [\r\n    1,\r\n    {\"b\":\r\n      true}\r\n  ],\r\n  // note\r\n  \"c\": \"x\"\r\n}\r\n";
  PositionedJson doc = parse_json_with_positions(text);
  ASSERT_TRUE(doc.error.empty()) << doc.error;
  EXPECT_EQ(doc.line_of(""), 1);
  EXPECT_EQ(doc.line_of("/a"), 2);
  EXPECT_EQ(doc.line_of("/a/0"), 3);
  EXPECT_EQ(doc.line_of("/a/1"), 4);
  EXPECT_EQ(doc.line_of("/a/1/b"), 4);
  EXPECT_EQ(doc.line_of("/c"), 8);
  EXPECT_EQ(doc.line_of("/c/deeper"), 8);  // falls back to the nearest ancestor
  EXPECT_EQ(doc.value["c"], "x");
}

TEST(Loader, SniffsUnknownExtensionsAndReportsMissingFiles) {
  std::filesystem::path sniffed = std::filesystem::temp_directory_path() / "oprig_spec_sniff_test.spec";
  std::filesystem::copy_file(data_path("good/multi_package.json"), sniffed,
                             std::filesystem::copy_options::overwrite_existing);
  LoadResult by_content = load_spec_file(sniffed);
  std::filesystem::remove(sniffed);
  EXPECT_TRUE(by_content.ok()) << test::errors_text(by_content);
  EXPECT_EQ(by_content.packages.size(), 2u);

  LoadResult missing = load_spec_file(data_path("good/does_not_exist.xml"));
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_EQ(missing.errors[0].message, "cannot open");
  LoadResult json = read_json("{\"P\": {\"Operators\": [{\"type\": \"T\", \"inputs\": [{\"data_type\": \"FLOAT_32\"}],"
                              " \"outputs\": [{\"data_type\": \"FLOAT_32\"}]}], \"UDO_PACKAGE_NAME\": \"p\"}}",
                              "inline.json");
  EXPECT_TRUE(json.ok()) << test::errors_text(json);
}

}  // namespace
}  // namespace oprig::spec
