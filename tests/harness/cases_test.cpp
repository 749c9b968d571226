// The harness's case space, inputs and quantised reference, tested directly
// (linked against oprig_harness) on the real Atan spec and plan. Expected
// values come from the plan text, hand arithmetic, or an independent FNV-1a
// computation (Python), never from the code under test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "cases/case.hpp"
#include "cases/plan.hpp"
#include "cases/tensor_data.hpp"
#include "common/reference.hpp"
#include "runner/abi_params.hpp"
#include "runner/case_executor.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {
namespace {

const std::filesystem::path kAtanDir = std::filesystem::path(OPRIG_SOURCE_DIR) / "opsuite" / "atan";
const std::vector<std::string> kAllBackends = {"cpu", "opencl", "vulkan", "dsp"};
// gtest's POSIX regex rather than std::regex: GCC 12's <regex> trips -Wmaybe-uninitialized under ASan.
const auto kCaseIdText = ::testing::MatchesRegex("[a-z0-9_]+");

class AtanCases : public ::testing::Test {
 protected:
  void SetUp() override {
    plan_ = load_plan(kAtanDir / "plan.json");
    space_ = case_space_from_spec(kAtanDir / "atan.xml", "Atan");
  }
  const Case& find(const std::vector<Case>& cases, const std::string& id) {
    for (const Case& c : cases)
      if (c.id == id) return c;
    ADD_FAILURE() << "no case " << id;
    static const Case kNone;
    return kNone;
  }
  TestPlan plan_;
  OpCaseSpace space_;
};

TEST_F(AtanCases, SpecGivesOneInputOneOutputAndOffsetDefault) {
  ASSERT_EQ(space_.inputs.size(), 1u);
  ASSERT_EQ(space_.outputs.size(), 1u);
  ASSERT_EQ(space_.params.size(), 1u);
  EXPECT_EQ(space_.params[0].name, "offset");
  EXPECT_EQ(space_.params[0].dtype, OPRIG_DTYPE_FLOAT_32);  // atan.xml: QNN_DATATYPE_FLOAT_32
  EXPECT_FALSE(space_.params[0].mandatory);
  EXPECT_EQ(space_.params[0].default_value, nlohmann::json(0));
  EXPECT_EQ(space_.backends, kAllBackends);
  // atan.xml's supplemental lists: FLOAT_32 and FLOAT_16 on CPU and GPU, UFIXED_POINT_8 on DSP.
  const std::vector<TypeChoice> floats = {{OPRIG_DTYPE_FLOAT_32, false}, {OPRIG_DTYPE_FLOAT_16, false}};
  EXPECT_EQ(space_.inputs[0].types_by_backend.at("cpu"), floats);
  EXPECT_EQ(space_.inputs[0].types_by_backend.at("vulkan"), floats);
  EXPECT_EQ(space_.inputs[0].types_by_backend.at("dsp"), (std::vector<TypeChoice>{{OPRIG_DTYPE_UINT_8, true}}));
}

TEST_F(AtanCases, IdsAreUniqueWellFormedAndNameTheirParts) {
  const std::vector<Case> cases = generate_cases(space_, plan_, kAllBackends);
  ASSERT_FALSE(cases.empty());
  std::set<std::string> ids;
  for (const Case& c : cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_THAT(c.id, kCaseIdText);
    EXPECT_THAT(c.golden_id, kCaseIdText);
    EXPECT_EQ(c.id, "atan__" + c.golden_id + "__" + c.backend);
  }
  // One spelled out by hand from plan.json: shape [7], fill "uniform", spec defaults.
  const Case& c = find(cases, "atan__f32__7__uniform__p0__cpu");
  EXPECT_EQ(c.dtype, OPRIG_DTYPE_FLOAT_32);
  EXPECT_EQ(c.shape(), (std::vector<int64_t>{7}));
  // p0 passes no optional parameter: the kernel applies the spec default.
  EXPECT_EQ(c.params, nlohmann::json::object());
  EXPECT_EQ(reference_params(c, space_), (nlohmann::json{{"offset", 0}}));
  // FNV-1a 64 of "atan/f32__7__uniform__p0", computed independently in Python.
  EXPECT_EQ(c.seed, 0x1611dddf187d7366ull);
  const Case& q = find(cases, "atan__u8__1x3x5x7__codes__p0__dsp");
  EXPECT_EQ(q.dtype, OPRIG_DTYPE_UINT_8);
  EXPECT_TRUE(q.quantized);
  EXPECT_EQ(q.seed, 0x89624ef02c651195ull);  // "atan/u8__1x3x5x7__codes__p0"
}

TEST_F(AtanCases, GenerationIsStable) {
  const std::vector<Case> a = generate_cases(space_, plan_, kAllBackends);
  const std::vector<Case> b = generate_cases(space_, plan_, kAllBackends);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].id, b[i].id);
    EXPECT_EQ(a[i].seed, b[i].seed);
    EXPECT_EQ(a[i].params, b[i].params);
  }
  // A backend's cases do not depend on which other backends are selected.
  std::vector<std::string> alone;
  for (const Case& c : generate_cases(space_, plan_, {"vulkan"})) alone.push_back(c.id);
  std::vector<std::string> within;
  for (const Case& c : a)
    if (c.backend == "vulkan") within.push_back(c.id);
  EXPECT_EQ(alone, within);
}

TEST_F(AtanCases, SameGoldenIdGivesSameSeedParamsAndInputsOnEveryBackend) {
  std::map<std::string, const Case*> first_by_golden;
  std::map<std::string, std::set<std::string>> backends_by_golden;
  const std::vector<Case> cases = generate_cases(space_, plan_, kAllBackends);
  for (const Case& c : cases) {
    backends_by_golden[c.golden_id].insert(c.backend);
    auto [it, inserted] = first_by_golden.emplace(c.golden_id, &c);
    if (inserted) continue;
    const Case& first = *it->second;
    EXPECT_EQ(c.seed, first.seed) << c.id;
    EXPECT_EQ(c.params, first.params) << c.id;
    if (c.element_count() <= 4096) {
      EXPECT_EQ(make_inputs(c, plan_)[0].bytes, make_inputs(first, plan_)[0].bytes) << c.id;
    }
  }
  // The float cases really are shared by cpu, opencl and vulkan.
  EXPECT_EQ(backends_by_golden.at("f32__7__uniform__p1"), (std::set<std::string>{"cpu", "opencl", "vulkan"}));
}

TEST_F(AtanCases, InputsAreDeterministicAndFollowTheFill) {
  const std::vector<Case> cases = generate_cases(space_, plan_, {"cpu"});
  const Case& p0 = find(cases, "atan__f32__127__uniform__p0__cpu");
  const Case& p1 = find(cases, "atan__f32__127__uniform__p1__cpu");
  const TensorData a = make_inputs(p0, plan_).at(0);
  const TensorData b = make_inputs(p0, plan_).at(0);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_NE(a.bytes, make_inputs(p1, plan_).at(0).bytes) << "different golden ids, different data";
  ASSERT_EQ(a.bytes.size(), 127u * sizeof(float));
  std::set<float> distinct;
  for (size_t i = 0; i < 127; ++i) {
    float v;
    std::memcpy(&v, a.bytes.data() + i * sizeof v, sizeof v);
    EXPECT_GE(v, -10.0f);  // plan.json: uniform in [-10, 10]
    EXPECT_LE(v, 10.0f);
    distinct.insert(v);
  }
  EXPECT_GT(distinct.size(), 120u) << "a uniform fill, not a constant";
}

// Bit patterns of plan.json's edge list, by hand from IEEE 754.
const uint32_t kF32EdgeBits[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, /*nan*/ 0x7fc00000,
                                 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x3f800000,
                                 0xbf800000, 0x7f7fffff, 0xff7fffff, 0x00800000, 0x80800000};
const uint16_t kF16EdgeBits[] = {0x0000, 0x8000, 0x7c00, 0xfc00, /*nan*/ 0x7e00, 0x0001, 0x8001, 0x03ff,
                                 0x83ff, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x0400, 0x8400};

TEST_F(AtanCases, EdgeFillHoldsEveryListedValue) {
  const std::vector<Case> cases = generate_cases(space_, plan_, {"cpu"});
  {
    const TensorData t = make_inputs(find(cases, "atan__f32__15__edge__p0__cpu"), plan_).at(0);
    ASSERT_EQ(t.bytes.size(), 15u * 4);
    std::multiset<uint32_t> got;
    bool saw_nan = false;
    for (size_t i = 0; i < 15; ++i) {
      uint32_t bits;
      std::memcpy(&bits, t.bytes.data() + 4 * i, 4);
      const bool nan = (bits & 0x7fffffffu) > 0x7f800000u;
      saw_nan |= nan;
      got.insert(nan ? 0x7fc00000u : bits);
    }
    EXPECT_TRUE(saw_nan);
    EXPECT_EQ(got, std::multiset<uint32_t>(std::begin(kF32EdgeBits), std::end(kF32EdgeBits)));
  }
  {
    const TensorData t = make_inputs(find(cases, "atan__f16__15__edge__p0__cpu"), plan_).at(0);
    ASSERT_EQ(t.bytes.size(), 15u * 2);
    std::multiset<uint16_t> got;
    for (size_t i = 0; i < 15; ++i) {
      uint16_t bits;
      std::memcpy(&bits, t.bytes.data() + 2 * i, 2);
      const bool nan = (bits & 0x7fffu) > 0x7c00u;
      got.insert(nan ? uint16_t{0x7e00} : bits);
    }
    EXPECT_EQ(got, std::multiset<uint16_t>(std::begin(kF16EdgeBits), std::end(kF16EdgeBits)));
  }
}

// A shape entry (and a golden literal) may carry its own quantisation, which
// replaces the plan's for its cases only: the Atan spec's dsp cases are
// quantised on input and output.
TEST_F(AtanCases, ShapeEntryAndLiteralQuantizationReplaceThePlans) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "op": "Atan", "spec": "atan.xml",
    "shapes": [[5], {"name": "own", "inputs": [[5]],
                     "quantization": {"inputs": [{"scale": 0.5, "zero_point": 3}],
                                      "outputs": [{"scale": 0.25, "zero_point": 7}]}}],
    "fills": {"uniform": {"kind": "uniform", "low": -1, "high": 1}},
    "quantization": {"inputs": [{"scale": 2, "zero_point": 100}], "outputs": [{"scale": 4, "zero_point": 200}]},
    "tolerance": {"UINT_8": {"lsb": 1, "reason": "test"}},
    "golden": {"cases": [{"name": "lit", "dtype": "FLOAT_32", "inputs": [[1]],
                          "quantization": {"outputs": [{"scale": 8, "zero_point": 9}]}}]}
  })");
  const TestPlan plan = parse_plan(j, kAtanDir / "plan.json");
  const std::vector<Case> cases = generate_cases(space_, plan, {"dsp"});
  const Case& plain = find(cases, "atan__u8__5__uniform__p0__dsp");
  EXPECT_EQ(plain.inputs.at(0).quant.scale, 2);
  EXPECT_EQ(plain.inputs.at(0).quant.zero_point, 100);
  EXPECT_EQ(plain.outputs.at(0).quant.scale, 4);
  EXPECT_EQ(plain.outputs.at(0).quant.zero_point, 200);
  const Case& own = find(cases, "atan__u8__own__uniform__p0__dsp");
  EXPECT_EQ(own.inputs.at(0).quant.scale, 0.5);
  EXPECT_EQ(own.inputs.at(0).quant.zero_point, 3);
  EXPECT_EQ(own.outputs.at(0).quant.scale, 0.25);
  EXPECT_EQ(own.outputs.at(0).quant.zero_point, 7);
  ASSERT_EQ(plan.golden_literals.size(), 1u);
  EXPECT_TRUE(plan.golden_literals[0].input_quantization.empty());
  ASSERT_EQ(plan.golden_literals[0].output_quantization.size(), 1u);
  EXPECT_EQ(plan.golden_literals[0].output_quantization[0].scale, 8);
  // A typo in an entry's quantisation is an error, not a silently ignored key.
  j["shapes"][1]["quantization"]["output"] = j["shapes"][1]["quantization"]["outputs"];
  EXPECT_THROW(parse_plan(j, kAtanDir / "plan.json"), std::runtime_error);
}

// "integer_reference" names the rule; an empty rule or a misspelt key is refused.
TEST(IntegerReferencePlan, RuleIsReadAndTyposAreRefused) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "op": "Atan", "spec": "atan.xml", "shapes": [[4]],
    "fills": {"uniform": {"kind": "uniform", "low": -1, "high": 1}},
    "tolerance": {"FLOAT_32": {"ulp": 3, "reason": "test"}},
    "integer_reference": {"rule": "int32 sums, TFLite requantisation", "about": "x"}})");
  EXPECT_EQ(parse_plan(j, kAtanDir / "plan.json").integer_rule, "int32 sums, TFLite requantisation");
  j.erase("integer_reference");
  EXPECT_EQ(parse_plan(j, kAtanDir / "plan.json").integer_rule, "");
  j["integer_reference"] = {{"rule", ""}};
  EXPECT_THROW(parse_plan(j, kAtanDir / "plan.json"), std::runtime_error);
  j["integer_reference"] = {{"rules", "x"}};
  EXPECT_THROW(parse_plan(j, kAtanDir / "plan.json"), std::runtime_error);
}

TEST(QuantizeReference, RoundsHalfAwayFromZeroAndClamps) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // scale 0.5, zero point 10: q = clamp(round(y / 0.5) + 10, 0, 255).
  const std::vector<double> y = {0.25, -0.25, 1.25, -1.25, 0.74, -0.76, 1000.0, -1000.0, nan, 0.0};
  const std::vector<double> expected = {11, 9, 13, 7, 11, 8, 255, 0, 10, 10};
  EXPECT_EQ(quantize_reference(y, OPRIG_DTYPE_UINT_8, {0.5, 10}), expected);
  // scale 1, zero point 128: 127.5 -> 128 + 128 = 256 clamps to 255; -128.5 -> -129 + 128 = -1 clamps to 0.
  EXPECT_EQ(quantize_reference({127.5, -128.5, -127.5}, OPRIG_DTYPE_UINT_8, {1.0, 128}),
            (std::vector<double>{255, 0, 0}));
  // Signed codes clamp to [-128, 127]: 2.5 -> 3; -2.5 -> -3; 1e9 -> 127; -1e9 -> -128.
  EXPECT_EQ(quantize_reference({2.5, -2.5, 1e9, -1e9}, OPRIG_DTYPE_INT_8, {1.0, 0}),
            (std::vector<double>{3, -3, 127, -128}));
}

// A fill's own tolerance comes first for the cases of that fill; other fills
// (and golden folders) get the plan's; an entry without a reason is refused.
TEST(FillTolerance, AFillsOwnTableWinsForItsCasesOnly) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "op": "Atan", "spec": "atan.xml", "shapes": [[4]],
    "fills": {"uniform": {"kind": "uniform", "low": -1, "high": 1},
              "exact": {"kind": "small_int", "low": -3, "high": 3,
                        "tolerance": {"FLOAT_32": {"ulp": 0, "reason": "small integers: exact"}}}},
    "tolerance": {"FLOAT_32": {"ulp": 3, "reason": "the plan's bound"}}})");
  const TestPlan plan = parse_plan(j, kAtanDir / "plan.json");
  const OpCaseSpace space = case_space_from_spec(kAtanDir / "atan.xml", "Atan");
  OpContext op;
  op.tolerances = parse_tolerance_table(plan.tolerance, space);
  for (const Fill& f : plan.fills)
    if (!f.tolerance.is_null()) op.fill_tolerances[f.name] = parse_tolerance_table(f.tolerance, space);
  ASSERT_EQ(op.fill_tolerances.size(), 1u);
  const compare::Tolerance* exact = find_tolerance(op, "exact", "out", OPRIG_DTYPE_FLOAT_32);
  const compare::Tolerance* uniform = find_tolerance(op, "uniform", "out", OPRIG_DTYPE_FLOAT_32);
  ASSERT_NE(exact, nullptr);
  ASSERT_NE(uniform, nullptr);
  EXPECT_EQ(exact->strict.ulp, 0);
  EXPECT_EQ(uniform->strict.ulp, 3);
  EXPECT_EQ(find_tolerance(op, "golden", "out", OPRIG_DTYPE_FLOAT_32), uniform);
  EXPECT_EQ(find_tolerance(op, "exact", "out", OPRIG_DTYPE_FLOAT_16), nullptr);  // neither table has fp16

  j["fills"]["exact"]["tolerance"]["FLOAT_32"].erase("reason");
  EXPECT_THROW(parse_plan(j, kAtanDir / "plan.json"), std::runtime_error);
}

// A 2D tensor parameter written nested reaches the kernel and the reference
// as its elements in row-major order.
TEST(TensorParams, NestedArraysArriveRowMajor) {
  OpCaseSpace space;
  space.op = "Conv";
  ParamSlot pads;
  pads.name = "pad_amount";
  pads.dtype = OPRIG_DTYPE_INT_32;
  pads.tensor = true;
  space.params.push_back(pads);
  const nlohmann::json params = {{"pad_amount", {{1, 2}, {3, 4}}}};
  const AbiParams abi(params, space);
  ASSERT_EQ(abi.size(), 1u);
  ASSERT_EQ(abi.data()[0].count, 4u);
  int32_t got[4];
  std::memcpy(got, abi.data()[0].data, sizeof got);
  EXPECT_THAT(got, ::testing::ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(opsuite::RefParams(params).integers("pad_amount"), (std::vector<int64_t>{1, 2, 3, 4}));
}

// A golden literal of an op whose last output is Repeated says how many
// outputs it has, as a shape entry does (Split's literal cases need it).
TEST(GoldenLiterals, NumOutputsCountsARepeatedOutput) {
  OpCaseSpace space;
  space.op = "Parts";
  space.package = "Test";
  space.backends = {"cpu"};
  TensorSlot in;
  in.name = "in";
  in.types_by_backend["cpu"] = {{OPRIG_DTYPE_FLOAT_32, false}};
  TensorSlot out = in;
  out.name = "out";
  out.repeated = true;
  space.inputs = {in};
  space.outputs = {out};
  const nlohmann::json plan_json = nlohmann::json::parse(R"({
    "op": "Parts", "spec": "parts.xml", "shapes": [[6]],
    "fills": {"uniform": {"kind": "uniform", "low": -1, "high": 1}},
    "tolerance": {"FLOAT_32": {"ulp": 0, "reason": "a copy"}},
    "golden": {"cases": [{"name": "three", "dtype": "FLOAT_32", "inputs": [[1, 2, 3, 4, 5, 6]], "num_outputs": 3},
                         {"name": "one", "dtype": "FLOAT_32", "inputs": [[1, 2]]}]}})");
  const TestPlan plan = parse_plan(plan_json, "parts/plan.json");
  const std::vector<Case> cases = generate_cases(space, plan, {"cpu"});
  std::map<std::string, size_t> outputs_by_literal;
  for (const Case& c : cases)
    if (c.literal >= 0) outputs_by_literal[c.fill] = c.outputs.size();
  EXPECT_EQ(outputs_by_literal, (std::map<std::string, size_t>{{"one", 1}, {"three", 3}}));
  nlohmann::json bad = plan_json;
  bad["golden"]["cases"][0]["num_outputs"] = 0;
  EXPECT_THROW(parse_plan(bad, "parts/plan.json"), std::runtime_error);
}

}  // namespace
// A Repeated last output: a shape entry's num_outputs counts every output;
// an optional (Mandatory false) Repeated last output may occur zero times, a
// mandatory one may not.
TEST(RepeatedOutputs, NumOutputsCountsEveryOutputAndAnOptionalLastMayBeAbsent) {
  using nlohmann::json;
  OpCaseSpace space;
  space.op = "Gather";
  space.package = "P";
  space.backends = {"cpu"};
  TensorSlot in;
  in.name = "in";
  in.types_by_backend["cpu"] = {{OPRIG_DTYPE_FLOAT_32, false}};
  TensorSlot count = in, features = in;
  count.name = "count";
  features.name = "features";
  features.repeated = true;
  features.mandatory = false;
  space.inputs = {in};
  space.outputs = {count, features};
  auto plan_with = [](int num_outputs) {
    const json j = json::parse(R"({"op": "Gather", "spec": "gather.xml",
      "shapes": [{"inputs": [[3]], "num_outputs": )" + std::to_string(num_outputs) + R"(}],
      "fills": {"u": {"kind": "uniform", "low": 0, "high": 1}},
      "tolerance": {"FLOAT_32": {"ulp": 0, "reason": "test"}}})");
    return parse_plan(j, "plan.json");
  };
  auto output_names = [&](int num_outputs) {
    const std::vector<Case> cases = generate_cases(space, plan_with(num_outputs), {"cpu"});
    std::vector<std::string> names;
    for (const CaseTensor& t : cases.at(0).outputs) names.push_back(t.name);
    return names;
  };
  EXPECT_EQ(output_names(1), (std::vector<std::string>{"count"}));
  EXPECT_EQ(output_names(3), (std::vector<std::string>{"count", "features", "features"}));
  space.outputs.back().mandatory = true;
  EXPECT_THROW(generate_cases(space, plan_with(1), {"cpu"}), std::runtime_error);
}

}  // namespace oprig::harness
