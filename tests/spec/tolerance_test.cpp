// What the tolerance rules and the lossless conversion mean for particular
// constructs of the corpus: the values the IR must hold, before and after a
// trip through the other format.
#include <gtest/gtest.h>

#include "spec/resolve.hpp"
#include "spec/write.hpp"
#include "spec_test_util.hpp"

namespace oprig::spec {
namespace {

using test::data_path;
using test::errors_text;
using test::load_ok;
using Json = nlohmann::ordered_json;

const TensorDef& by_name(const std::vector<TensorDef>& tensors, const std::string& name) {
  for (const TensorDef& t : tensors)
    if (t.name == name) return t;
  throw std::runtime_error("no tensor " + name);
}

Package through_json(const Package& p) {
  LoadResult back = read_json(write_json({p}), "via.json");
  EXPECT_TRUE(back.ok()) << errors_text(back);
  return back.packages.at(0);
}

Package through_xml(const Package& p) {
  LoadResult back = read_xml(write_xml(p), "via.xml");
  EXPECT_TRUE(back.ok()) << errors_text(back);
  return back.packages.at(0);
}

TEST(Tolerance, MandatoryIsCarriedNotInferredFromTheDefault) {
  Package xml = load_ok(data_path("corpus/mandatory_and_defaults.xml")).packages.at(0);
  for (const Package& p : {xml, through_json(xml)}) {
    const OpDef& op = p.ops.at(0);
    EXPECT_TRUE(by_name(op.parameters, "scales").mandatory);         // mandatory although it has a default
    EXPECT_TRUE(by_name(op.parameters, "align_corners").mandatory);  // likewise
    EXPECT_FALSE(by_name(op.parameters, "sizes").mandatory);         // optional although it has none
    const TensorDef& roi = by_name(op.inputs, "roi");
    EXPECT_FALSE(roi.mandatory);
    EXPECT_TRUE(roi.is_static);
    EXPECT_EQ(roi.default_value->parsed, nlohmann::json::parse("[0.0, 0.0, 1.0, 1.0]"));
    // Scalars and tensors interleaved, in the spec's order.
    std::vector<std::string> order;
    for (const TensorDef& t : op.parameters) order.push_back(t.name);
    EXPECT_EQ(order, (std::vector<std::string>{"scales", "align_corners", "sizes", "mode"}));
    const Constraint& c = by_name(op.parameters, "scales").constraints.at(0);
    EXPECT_EQ(c.text, "every scale is positive;\n          height and width only");
    EXPECT_EQ(c.code, "scales[0] == 1 && scales[3] == 1");
    EXPECT_EQ(c.type, ConstraintType::kValue);
  }
  // The JSON says what the SNPE tools need natively: the default, no list.
  Json json = Json::parse(write_json({xml}));
  const Json& scales = json["UdoPackage_0"]["Operators"][0]["tensor_params"][0];
  EXPECT_EQ(scales["name"], "scales");
  EXPECT_EQ(scales["default_value"], Json::parse("[1, 2, 2, 1]"));
  EXPECT_EQ(scales["oprig_extension"]["mandatory"], true);
}

TEST(Tolerance, SupportedOpsLimitABackendToTheOpsItLists) {
  LoadResult result = load_ok(data_path("corpus/supported_ops_subset.xml"));
  const Package& p = result.packages.at(0);
  const OpDef &clamp = p.ops.at(0), &swish = p.ops.at(1), &mish = p.ops.at(2);
  EXPECT_TRUE(op_supported_on(p, clamp, "cpu"));
  EXPECT_FALSE(op_supported_on(p, swish, "cpu"));
  EXPECT_FALSE(op_supported_on(p, mish, "cpu"));
  EXPECT_TRUE(op_supported_on(p, swish, "opencl"));
  EXPECT_FALSE(op_supported_on(p, mish, "vulkan"));
  EXPECT_TRUE(op_supported_on(p, mish, "dsp"));  // no DSP list: a generic op runs there
  std::string text = render_text(p);
  EXPECT_NE(text.find("backend CPU\n  supports only: Clamp (1 of the 3 ops defined here; ops not listed do not run on CPU "
                      "unless their SupportedBackend names it)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(through_json(p).supplementals, p.supplementals);
}

TEST(Tolerance, SupplementsForOpsDefinedElsewhereAreKept) {
  const Package p = load_ok(data_path("corpus/supplement_for_missing_op.xml")).packages.at(0);
  ASSERT_EQ(p.supplementals.at(0).ops.size(), 2u);
  EXPECT_EQ(p.supplementals[0].ops[1].name, "FastGelu");
  EXPECT_EQ(p.supplementals[0].supported_ops, (std::vector<std::string>{"Gelu", "FastGelu"}));
  EXPECT_EQ(through_json(p), p);
  EXPECT_NE(render_text(p).find("FastGelu: no OpDef in this file"), std::string::npos);
}

TEST(Tolerance, QnnDescriptionBlocksAndQuantParamsSurviveJson) {
  const Package p = load_ok(data_path("corpus/qnn_htp_package.xml")).packages.at(0);
  const Description& d = p.ops.at(0).description;
  ASSERT_EQ(d.blocks.size(), 4u);
  EXPECT_FALSE(d.blocks[0].is_code);
  EXPECT_TRUE(d.blocks[1].is_code);
  EXPECT_EQ(d.blocks[3].text, "var = reduce_mean((x - mean)^2, axis=-1)");
  EXPECT_EQ(d.code, "mean = reduce_mean(x, axis=-1)\n\nvar = reduce_mean((x - mean)^2, axis=-1)");
  const SupplementalTensor& out = p.supplementals.at(0).ops.at(0).outputs.at(0);
  ASSERT_EQ(out.quant_params.size(), 1u);
  EXPECT_EQ(out.quant_params[0].fields,
            (std::vector<std::pair<std::string, std::string>>{{"Encoding", "SCALE_OFFSET"}, {"Scale", "0.0078125"}, {"Offset", "-128"}}));
  EXPECT_EQ(p.supplementals[0].ops[0].inputs[0].datatypes,
            (std::vector<DataType>{DataType::kUFixed8, DataType::kUInt8}));
  EXPECT_EQ(through_json(p), p);
  // In the SNPE fields the HTP input has its first type only.
  Json json = Json::parse(write_json({p}));
  EXPECT_EQ(json["UdoPackage_0"]["Operators"][0]["inputs"][0]["per_core_data_types"], Json::parse(R"({"HTP": "FIXED_8"})"));
}

TEST(Tolerance, SnpeQuantizationModeAndDspFixedPoint) {
  const Package p = load_ok(data_path("corpus/snpe_softmax_quant.json")).packages.at(0);
  const OpDef& op = p.ops.at(0);
  EXPECT_EQ(op.inputs[0].quantization_mode, "TF");
  EXPECT_EQ(op.outputs[0].quantization_mode, "TF");
  EXPECT_EQ(op.dsp_arch_types, (std::vector<std::string>{"v68", "v69", "v73"}));
  EXPECT_EQ(p.supplementals.at(1).backend, "DSP");
  EXPECT_EQ(p.supplementals[1].ops[0].inputs[0].datatypes, std::vector<DataType>{DataType::kUFixed8});
  WriteNotes notes;
  write_xml(p, &notes);
  EXPECT_EQ(notes, (WriteNotes{"SoftmaxQuant.input: quantization_mode TF (JSON only)",
                               "SoftmaxQuant.output: quantization_mode TF (JSON only)",
                               "SoftmaxQuant: dsp_arch_types v68, v69, v73 (JSON only)"}));
  // The JSON written back is the SNPE spelling: UINT_8 on DSP.
  Json json = Json::parse(write_json({p}));
  EXPECT_EQ(json["UdoPackage_0"]["Operators"][0]["inputs"][0]["per_core_data_types"]["DSP"], "UINT_8");
  EXPECT_FALSE(json["UdoPackage_0"].contains("oprig_extension"));  // nothing the format cannot say
}

TEST(Tolerance, StaticInputsKeepDefaultsAndSnpeOnlyKeysQuietly) {
  LoadResult result = load_ok(data_path("corpus/static_input_default.json"));
  EXPECT_TRUE(result.warnings.empty());
  const TensorDef& bias = result.packages.at(0).ops.at(0).inputs.at(1);
  EXPECT_TRUE(bias.is_static);
  EXPECT_EQ(bias.default_value->parsed, nlohmann::json::parse("[0.0, 0.0, 0.0]"));
  EXPECT_EQ(bias.unknown_fields, Json::parse(R"({"dims": [3], "data": []})"));
}

TEST(Tolerance, UnknownKeysAreKeptAndWrittenBack) {
  const Package p = load_ok(data_path("corpus/unknown_keys.json")).packages.at(0);
  EXPECT_EQ(p.unknown_fields, Json::parse(R"({"UDO_PACKAGE_PATH": "generated/AnnotatedPackage"})"));
  EXPECT_EQ(p.ops.at(0).unknown_fields["description"], "keeps the k largest values");
  EXPECT_EQ(p.ops[0].inputs.at(0).unknown_fields["comment"], Json::parse(R"({"owner": "team-a", "reviewed": false})"));
  Json json = Json::parse(write_json({p}));
  EXPECT_EQ(json["UdoPackage_0"]["UDO_PACKAGE_PATH"], "generated/AnnotatedPackage");
  EXPECT_EQ(json["UdoPackage_0"]["Operators"][0]["scalar_params"][0]["allowed_values"], Json::parse("[1, 2, 4, 8]"));
}

TEST(Tolerance, AllValidMeansEverySnpeTypeAndIsWrittenBackAsSuch) {
  const Package p = load_ok(data_path("corpus/all_valid.json")).packages.at(0);
  EXPECT_EQ(p.supplementals.at(0).ops.at(0).inputs.at(0).datatypes,
            (std::vector<DataType>{DataType::kFloat16, DataType::kFloat32, DataType::kUFixed4, DataType::kUFixed8,
                                   DataType::kUFixed16, DataType::kUInt8, DataType::kUInt16, DataType::kUInt32,
                                   DataType::kInt32, DataType::kString}));
  // On DSP, UINT_8/16 are the fixed-point types: FIXED_8 and UINT_8 fold together.
  EXPECT_EQ(p.supplementals.at(2).ops.at(0).inputs.at(0).datatypes,
            (std::vector<DataType>{DataType::kFloat16, DataType::kFloat32, DataType::kUFixed4, DataType::kUFixed8,
                                   DataType::kUFixed16, DataType::kUInt32, DataType::kInt32, DataType::kString}));
  Json json = Json::parse(write_json({p}));
  EXPECT_EQ(json["UdoPackage_0"]["Operators"][0]["inputs"][0]["per_core_data_types"],
            Json::parse(R"({"CPU": "ALL_VALID", "GPU": "FLOAT_16", "DSP": "ALL_VALID"})"));
}

TEST(Tolerance, DataTypeBesidePerCoreAndMissingDataType) {
  const Package p = load_ok(data_path("corpus/both_type_fields.json")).packages.at(0);
  const OpDef& op = p.ops.at(0);
  EXPECT_EQ(op.inputs[0].datatypes, std::vector<DataType>{DataType::kBackendSpecific});
  EXPECT_EQ(op.inputs[0].unknown_fields, Json::parse(R"({"data_type": "FLOAT_32"})"));
  EXPECT_EQ(p.supplementals.at(0).ops[0].inputs[0].datatypes, std::vector<DataType>{DataType::kUInt8});   // CPU
  EXPECT_EQ(p.supplementals.at(1).ops[0].inputs[0].datatypes, std::vector<DataType>{DataType::kUFixed8});  // DSP
  EXPECT_EQ(op.inputs[1].datatypes, std::vector<DataType>{DataType::kFloat32});
}

TEST(Tolerance, DuplicateKeysTakeTheLastValue) {
  const Package p = load_ok(data_path("corpus/duplicate_keys.json")).packages.at(0);
  EXPECT_EQ(p.ops.at(0).inputs.at(0).datatypes, std::vector<DataType>{DataType::kFloat32});
  EXPECT_EQ(p.ops[0].supported_backends, (std::vector<std::string>{"CPU", "GPU"}));
}

TEST(Tolerance, NewerSdkAttributesAreKeptInBothFormats) {
  const Package p = load_ok(data_path("corpus/qairt_attributes.xml")).packages.at(0);
  EXPECT_EQ(p.unknown_fields, Json::parse(R"({"@UseQHPI": "true"})"));
  EXPECT_EQ(p.supplementals.at(0).runtime, "HTP_V75");
  std::string xml = write_xml(p);
  EXPECT_NE(xml.find("UseQHPI=\"true\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<SupplementalOpDefList Backend=\"HTP\" Runtime=\"HTP_V75\">"), std::string::npos) << xml;
  Json json = Json::parse(write_json({p}));
  EXPECT_EQ(json["UdoPackage_0"]["oprig_extension"]["xml_attributes"], Json::parse(R"({"UseQHPI": "true"})"));
  EXPECT_EQ(through_json(p), p);
}

TEST(Tolerance, JsonLayoutsTravelThroughXmlAsMarkers) {
  LoadResult result = load_ok(data_path("corpus/multi_package_layouts.json"));
  const Package& conv = result.packages.at(0);
  EXPECT_EQ(conv.ops.at(0).inputs.at(0).shape.layout, Layout::kNDCHW);
  EXPECT_EQ(conv.ops[0].inputs.at(1).shape.layout, Layout::kGpuOptimal1);
  std::string xml = write_xml(conv);
  EXPECT_NE(xml.find("<Text>[oprig:layout=GPU_OPTIMAL1]</Text>"), std::string::npos) << xml;
  EXPECT_EQ(through_xml(conv).ops[0].inputs[1].shape.layout, Layout::kGpuOptimal1);
  const OpDef& concat = result.packages.at(1).ops.at(0);
  EXPECT_EQ(concat.inputs.at(0).name, "in[0]");  // "" names the seed's way
  EXPECT_EQ(concat.outputs.at(0).name, "out[0]");
  EXPECT_TRUE(concat.inputs[0].repeated);
}

TEST(Tolerance, MultiPackageJsonHasNoSingleXmlCollection) {
  // One OpDefCollection per package: each converts on its own.
  LoadResult result = load_ok(data_path("corpus/multi_package_layouts.json"));
  ASSERT_EQ(result.packages.size(), 2u);
  for (const Package& p : result.packages) EXPECT_EQ(through_xml(p).name, p.name);
}

TEST(Writers, XmlRefusesControlCharactersItCannotRepresent) {
  Package p = load_ok(data_path("corpus/duplicate_tensor_names.xml")).packages.at(0);
  p.ops[0].description.content = "red \x1b[31m text";
  try {
    write_xml(p);
    FAIL() << "no WriteError";
  } catch (const WriteError& e) {
    EXPECT_STREQ(e.what(), "ScaleInPlace description: holds control character U+001B, which XML 1.0 cannot represent");
  }
  p.ops[0].description.content = "tab\tnewline\ncarriage\r fine";
  std::string xml = write_xml(p);
  LoadResult back = read_xml(xml, "back.xml");
  ASSERT_TRUE(back.ok()) << errors_text(back);
  EXPECT_EQ(back.packages[0].ops[0].description.content, "tab\tnewline\ncarriage\r fine");
  // JSON has escapes for every control character.
  p.ops[0].description.content = "red \x1b[31m text";
  LoadResult json = read_json(write_json({p}), "x.json");
  ASSERT_TRUE(json.ok()) << errors_text(json);
  EXPECT_EQ(json.packages[0].ops[0].description.content, "red \x1b[31m text");
}

TEST(Writers, XmlReaderRefusesTextThatIsNotUtf8) {
  LoadResult result = read_xml("<?xml version=\"1.0\"?>\n<OpDefCollection PackageName=\"\xff\"/>", "bad.xml");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].to_string(), "bad.xml:2: XML: not valid UTF-8 (byte 52)");
}

TEST(Rendering, ControlCharactersAreEscapedForTheTerminal) {
  EXPECT_EQ(printable("a\x1b[2Jb\tc\nd\x7f\xc2\x9b"), "a\\x1b[2Jb\tc\nd\\x7f\\x9b");
  EXPECT_EQ(printable("line\nbreak", false), "line\\x0abreak");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe4\xbe\x8b"), "caf\xc3\xa9 \xe4\xbe\x8b");  // other UTF-8 untouched
  LoadResult json = read_json(R"({"P": {"Operators": [{"type": "T\u001b]0;pwned\u0007", "core_types": ["CPU"],
      "inputs": [{"data_type": "FLOAT_32"}], "outputs": [{"data_type": "FLOAT_32"}]}], "UDO_PACKAGE_NAME": "p"}})",
                              "esc.json");
  ASSERT_TRUE(json.ok()) << errors_text(json);
  std::string text = render_text(json.packages[0]);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_NE(text.find("op T\\x1b]0;pwned\\x07\n"), std::string::npos) << text;
  EXPECT_EQ(op_summary(json.packages[0].ops[0]).find('\x07'), std::string::npos);
  SpecError e{"f\x1b.json", 3, "a\nb", "c\x1b", true};
  EXPECT_EQ(e.to_string(), "f\\x1b.json:3: warning: a\\x0ab: c\\x1b");
}

}  // namespace
}  // namespace oprig::spec
