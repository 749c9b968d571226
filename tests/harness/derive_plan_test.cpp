// The plan oprig derives from a spec alone (harness/cases/derive_plan): run
// through the real plan parser and case generator, as `oprig run` does when
// there is no plan.json, on tests/data/specs/derive/rank2_op.xml.
#include "cases/derive_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cases/case.hpp"
#include "cases/plan.hpp"
#include "cases/tensor_data.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {
namespace {

const std::filesystem::path kSpec = std::filesystem::path(OPRIG_SOURCE_DIR) / "tests/data/specs/derive/rank2_op.xml";

struct Derived {
  OpCaseSpace space;
  nlohmann::ordered_json json;
  TestPlan plan;
  std::vector<Case> cases;
};

const Derived& derived() {
  static const Derived d = [] {
    Derived out;
    out.space = case_space_from_spec(kSpec, "Rank2Op");
    out.json = derive_plan_json(out.space, kSpec.filename().string());
    out.plan = parse_plan(nlohmann::json::parse(out.json.dump()), kSpec.parent_path() / "plan.json");
    out.cases = generate_cases(out.space, out.plan, {"cpu"});
    return out;
  }();
  return d;
}

TEST(DerivePlan, ARank2DOpGetsOnlyRank2Cases) {
  ASSERT_FALSE(derived().cases.empty());
  for (const Case& c : derived().cases)
    for (const CaseTensor& t : c.inputs) {
      if (t.present) {
        EXPECT_EQ(t.shape.size(), 2u) << c.id << " input " << t.name;
      }
    }
  EXPECT_NO_THROW(check_plan_ranks(derived().space, derived().plan));
}

TEST(DerivePlan, EveryEnumerationValueAppears) {
  std::set<std::string> seen;
  for (const Case& c : derived().cases)
    if (c.params.contains("mode")) seen.insert(c.params["mode"].dump());
  EXPECT_EQ(seen.size(), 3u) << "mode values seen: " << seen.size();
}

TEST(DerivePlan, DefaultsPlusARandomVariantInsideTheConstraintRange) {
  bool default_case = false, random_inside = false;
  for (const Case& c : derived().cases) {
    if (!c.params.contains("gain") || c.params["gain"].get<double>() == 1.0) default_case = true;
    if (c.params.contains("gain")) {
      const double g = c.params["gain"].get<double>();
      EXPECT_GT(g, 0.0) << c.id;  // "0 < gain": open below
      EXPECT_LE(g, 4.0) << c.id;
      random_inside |= g != 1.0;
    }
  }
  EXPECT_TRUE(default_case) << "no case with gain at its Default";
  EXPECT_TRUE(random_inside) << "no random gain inside (0, 4]";
}

TEST(DerivePlan, OptionalInputsPresentAndAbsent) {
  bool present = false, absent = false;
  for (const Case& c : derived().cases) {
    // An absent trailing optional input is dropped from the case, as from the kernel's list.
    ASSERT_GE(c.inputs.size(), 1u) << c.id;
    (c.inputs.size() == 2 && c.inputs[1].present ? present : absent) = true;
  }
  EXPECT_TRUE(present);
  EXPECT_TRUE(absent);
}

TEST(DerivePlan, QuantisedInputsCoverTheWholeCodeRange) {
  std::set<int> codes;
  bool any_quantised = false;
  for (const Case& c : derived().cases) {
    if (!c.quantized) continue;
    any_quantised = true;
    const std::vector<TensorData> inputs = make_inputs(c, derived().plan);
    for (size_t i = 0; i < inputs[0].bytes.size(); ++i) codes.insert(static_cast<int>(inputs[0].bytes[i]));
  }
  ASSERT_TRUE(any_quantised);
  EXPECT_EQ(codes.size(), 256u) << "uint8 codes 0..255 all appear";
}

TEST(DerivePlan, TolerancesComeFromTheTypesAndTheWork) {
  const auto& tol = derived().json.at("tolerance");
  ASSERT_TRUE(tol.contains("FLOAT_32"));
  // Floats: a few ulp plus the work behind each element, never a fixed atol
  // that a long correct reduction exceeds and a short wrong one meets.
  EXPECT_FALSE(tol["FLOAT_32"].contains("atol"));
  EXPECT_EQ(tol["FLOAT_32"]["accumulation"].get<std::string>(), "FLOAT_32");
  EXPECT_NE(tol["FLOAT_32"]["reason"].get<std::string>().find("harness/README.md"), std::string::npos);
  ASSERT_TRUE(tol.contains("UINT_8"));
  EXPECT_EQ(tol["UINT_8"]["lsb"].get<int>(), 1);
  EXPECT_NE(tol["UINT_8"]["reason"].get<std::string>().find("within 1"), std::string::npos);
  // fp16 data is summed in fp32 by the derived rule: an fp16 accumulator errs beyond it.
  EXPECT_EQ(derived_tolerance("FLOAT_16", false)["accumulation"].get<std::string>(), "FLOAT_32");
  // The plan.json default table (hand-written plans) keeps NNAPI's figures.
  const auto fp16 = default_tolerance("FLOAT_16");
  ASSERT_TRUE(fp16);
  EXPECT_DOUBLE_EQ((*fp16)["atol"].get<double>(), 5.0 / 1024);
}

}  // namespace
}  // namespace oprig::harness
