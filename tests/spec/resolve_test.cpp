// Per-backend resolution: support, supplemental overrides, runtime types.
#include <gtest/gtest.h>

#include "spec/resolve.hpp"
#include "spec_test_util.hpp"

namespace oprig::spec {
namespace {

using test::data_path;
using test::errors_text;
using test::load_ok;
using test::opsuite_path;

constexpr RuntimeType kF32{OPRIG_DTYPE_FLOAT_32, false};
constexpr RuntimeType kF16{OPRIG_DTYPE_FLOAT_16, false};
constexpr RuntimeType kQU8{OPRIG_DTYPE_UINT_8, true};

TEST(Backends, NamesForOprigBackends) {
  EXPECT_EQ(spec_backends_for("cpu"), std::vector<std::string>{"CPU"});
  EXPECT_EQ(spec_backends_for("opencl"), std::vector<std::string>{"GPU"});
  EXPECT_EQ(spec_backends_for("vulkan"), std::vector<std::string>{"GPU"});
  EXPECT_EQ(spec_backends_for("dsp"), (std::vector<std::string>{"DSP", "HTP", "HTP_FP16"}));
  EXPECT_TRUE(spec_backends_for("tpu").empty());
  EXPECT_TRUE(spec_backend_matches("DSP_V68", "dsp"));
  EXPECT_TRUE(spec_backend_matches("htp_fp16", "dsp"));
  EXPECT_TRUE(spec_backend_matches("cpu", "cpu"));
  EXPECT_FALSE(spec_backend_matches("GPU", "cpu"));
  EXPECT_FALSE(spec_backend_matches("CPUX", "cpu"));
}

TEST(Resolve, MessyFileSupplementalOverrides) {
  LoadResult result = load_ok(data_path("good/messy_crlf.xml"));
  const Package& p = result.packages[0];
  const OpDef& argmax = p.ops[0];
  const OpDef& pass = p.ops[1];

  EXPECT_TRUE(op_supported_on(p, argmax, "cpu"));
  EXPECT_TRUE(op_supported_on(p, argmax, "dsp"));  // HTP_FP16
  EXPECT_FALSE(op_supported_on(p, argmax, "opencl"));
  EXPECT_TRUE(op_supported_on(p, pass, "opencl"));  // only through the GPU list's SupportedOps
  EXPECT_TRUE(op_supported_on(p, pass, "vulkan"));
  EXPECT_FALSE(op_supported_on(p, pass, "cpu"));

  ResolvedTensor cpu_out = resolve_tensor(p, argmax, TensorRole::kOutput, 0, "cpu");
  EXPECT_EQ(cpu_out.datatypes, (std::vector<DataType>{DataType::kInt32, DataType::kInt64}));
  EXPECT_EQ(cpu_out.layout, Layout::kNonTrivial);
  ResolvedTensor dsp_out = resolve_tensor(p, argmax, TensorRole::kOutput, 0, "dsp");
  EXPECT_EQ(dsp_out.datatypes, std::vector<DataType>{DataType::kUInt32});
  EXPECT_EQ(dsp_out.layout, Layout::kNHWC);

  ResolvedTensor dsp_in = resolve_tensor(p, argmax, TensorRole::kInput, 0, "dsp");
  ASSERT_EQ(dsp_in.constraints.size(), 1u);  // same id "rank": replaced
  EXPECT_EQ(dsp_in.constraints[0].text, "Rank == 4 on HTP");
  EXPECT_FALSE(dsp_in.only_default_supported);
  EXPECT_EQ(resolve_tensor(p, argmax, TensorRole::kInput, 0, "cpu").constraints[0].text, "Rank >= 1 always");
  EXPECT_TRUE(resolve_tensor(p, argmax, TensorRole::kParameter, 2, "dsp").only_default_supported);  // alpha
  EXPECT_FALSE(resolve_tensor(p, argmax, TensorRole::kParameter, 2, "cpu").only_default_supported);

  EXPECT_EQ(allowed_types(p, argmax, TensorRole::kInput, 0, "cpu"), (std::vector<RuntimeType>{kF32, kQU8}));
  EXPECT_EQ(allowed_types(p, argmax, TensorRole::kOutput, 0, "cpu"),
            (std::vector<RuntimeType>{{OPRIG_DTYPE_INT_32, false}, {OPRIG_DTYPE_INT_64, false}}));
  EXPECT_TRUE(allowed_types(p, argmax, TensorRole::kInput, 0, "opencl").empty());
  EXPECT_EQ(allowed_types(p, pass, TensorRole::kInput, 0, "opencl"),
            (std::vector<RuntimeType>{{OPRIG_DTYPE_INT_8, true}}));
  EXPECT_THROW(resolve_tensor(p, argmax, TensorRole::kOutput, 5, "cpu"), std::out_of_range);
}

// Atan's two spec files must say the same: fp32 and fp16 on cpu and gpu
// (opencl, vulkan), quantised uint8 on dsp, as the kernels run. The JSON
// format has one data type per core; the FLOAT_16 rides in oprig_extension.
TEST(Resolve, AtanXmlAndJsonAgree) {
  LoadResult xml = load_ok(opsuite_path("atan/atan.xml"));
  LoadResult json = load_ok(opsuite_path("atan/atan.json"));
  EXPECT_TRUE(xml.warnings.empty());
  EXPECT_TRUE(json.warnings.empty());
  ASSERT_EQ(xml.packages.size(), 1u);
  ASSERT_EQ(json.packages.size(), 1u);
  const Package& xp = xml.packages[0];
  const Package& jp = json.packages[0];
  EXPECT_EQ(jp, xp);  // the whole IR, not just the types

  const OpDef& op = jp.ops.at(0);
  EXPECT_EQ(op.name, "Atan");
  const std::map<std::string, std::vector<RuntimeType>> expected = {
      {"cpu", {kF32, kF16}}, {"opencl", {kF32, kF16}}, {"vulkan", {kF32, kF16}}, {"dsp", {kQU8}}};
  for (const auto& [backend, types] : expected) {
    SCOPED_TRACE(backend);
    EXPECT_TRUE(op_supported_on(jp, op, backend));
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput})
      EXPECT_EQ(allowed_types(jp, op, role, 0, backend), types);
    EXPECT_EQ(allowed_types(jp, op, TensorRole::kParameter, 0, backend), std::vector<RuntimeType>{kF32});
  }
  EXPECT_FALSE(op.parameters.at(0).mandatory);
  EXPECT_EQ(op.parameters[0].shape.rank, Rank::kScalar);
  EXPECT_EQ(op.parameters[0].default_value->parsed, nlohmann::json(0));
  EXPECT_EQ(op.description.code, "y = atan(x + offset)");
  EXPECT_EQ(op.references.at(0).source, "TensorFlow");
}

TEST(Resolve, DspPrefersDspOverHtpAndUndeclaredOpsRunEverywhere) {
  const char* text = R"(<OpDefCollection PackageName="P" Domain="" Version="1">
  <OpDefList>
    <OpDef><Name>Anywhere</Name>
      <Input><Name>x</Name><Datatype>FLOAT_32</Datatype></Input>
      <Output><Name>y</Name><Datatype>FLOAT_32</Datatype></Output>
    </OpDef>
    <OpDef><Name>Quant</Name>
      <Input><Name>x</Name><Datatype>BACKEND_SPECIFIC</Datatype></Input>
      <Output><Name>y</Name><Datatype>FLOAT_32</Datatype></Output>
      <SupportedBackend>HTP</SupportedBackend><SupportedBackend>DSP_V68</SupportedBackend>
    </OpDef>
  </OpDefList>
  <SupplementalOpDefList Backend="HTP">
    <SupplementalOpDef><Name>Quant</Name><Input><Name>x</Name><Datatype>UFIXED_POINT_16</Datatype></Input></SupplementalOpDef>
  </SupplementalOpDefList>
  <SupplementalOpDefList Backend="DSP_V68">
    <SupplementalOpDef><Name>Quant</Name><Input><Name>x</Name><Datatype>FIXED_8</Datatype><Datatype>FIXED_4</Datatype></Input></SupplementalOpDef>
  </SupplementalOpDefList>
</OpDefCollection>)";
  LoadResult result = read_xml(text, "inline.xml");
  ASSERT_TRUE(result.ok()) << errors_text(result);
  const Package& p = result.packages[0];
  for (const char* backend : {"cpu", "opencl", "vulkan", "dsp"}) EXPECT_TRUE(op_supported_on(p, p.ops[0], backend));
  EXPECT_FALSE(op_supported_on(p, p.ops[1], "cpu"));
  // DSP_V68 is a prefix match for the first candidate (DSP): it beats the exact HTP.
  // FIXED_4 is not runnable and is left out.
  EXPECT_EQ(allowed_types(p, p.ops[1], TensorRole::kInput, 0, "dsp"), std::vector<RuntimeType>{kQU8});
  EXPECT_EQ(resolve_tensor(p, p.ops[1], TensorRole::kInput, 0, "dsp").datatypes,
            (std::vector<DataType>{DataType::kUFixed8, DataType::kUFixed4}));
}

}  // namespace
}  // namespace oprig::spec
