// The pieces behind the lifecycle passes and the run-to-run check, tested
// directly: which cases are anchors and companions (on the planted-bug plan,
// tests/data/planted/atan, by the rule in harness/README.md, derived by hand
// from the plan's shapes, fills and offsets), the order a group runs in, how
// a differing output element is classified, the heap counter, parameters
// arriving in their spec types, and the plan's signed_zero key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <set>

#include "cases/case.hpp"
#include "cases/plan.hpp"
#include "runner/abi_params.hpp"
#include "runner/heap_usage.hpp"
#include "runner/lifecycle_plan.hpp"
#include "runner/output_poison.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {
namespace {

const std::filesystem::path kPlanted = std::filesystem::path(OPRIG_SOURCE_DIR) / "tests" / "data" / "planted";

class PlantedPlan : public ::testing::Test {
 protected:
  void SetUp() override {
    plan_ = load_plan(kPlanted / "atan" / "plan.json");
    space_ = case_space_from_spec(kPlanted / "atan" / "atan.xml", "Atan");
    cases_ = generate_cases(space_, plan_, {"cpu", "vulkan"});
  }
  TestPlan plan_;
  OpCaseSpace space_;
  std::vector<Case> cases_;
};

// cpu runs f32 and f16, vulkan f32 (the planted spec's lists). Per group the
// anchor is the largest uniform case with a companion: 16384 elements under
// the first offset (-0.0), with the other uniform shapes of that offset,
// largest first: 127 and 7. The edge fill is no random fill.
TEST_F(PlantedPlan, OneAnchorPerBackendAndType) {
  const LifecyclePlan lifecycle(cases_, plan_);
  std::set<std::string> anchors;
  for (const Case& c : cases_)
    if (lifecycle.is_anchor(c.id)) anchors.insert(c.id);
  EXPECT_THAT(anchors, ::testing::ElementsAre("atan__f16__16384__uniform__offsetm0p0_p0__cpu",
                                              "atan__f32__16384__uniform__offsetm0p0_p0__cpu",
                                              "atan__f32__16384__uniform__offsetm0p0_p0__vulkan"));
  const auto companions = lifecycle.companions_of("atan__f32__16384__uniform__offsetm0p0_p0__cpu", {});
  ASSERT_TRUE(companions.has_value());
  std::vector<std::string> ids;
  for (const Case* c : *companions) ids.push_back(c->id);
  EXPECT_THAT(ids, ::testing::ElementsAre("atan__f32__127__uniform__offsetm0p0_p0__cpu",
                                          "atan__f32__7__uniform__offsetm0p0_p0__cpu"));
  EXPECT_FALSE(lifecycle.companions_of("atan__f32__127__uniform__offsetm0p0_p0__cpu", {}).has_value());
}

TEST_F(PlantedPlan, CompanionsThatDidNotPassAreLeftOut) {
  const LifecyclePlan lifecycle(cases_, plan_);
  const auto companions = lifecycle.companions_of("atan__f32__16384__uniform__offsetm0p0_p0__cpu",
                                                  {"atan__f32__7__uniform__offsetm0p0_p0__cpu"});
  ASSERT_TRUE(companions.has_value());
  ASSERT_EQ(companions->size(), 1u);
  EXPECT_EQ(companions->front()->id, "atan__f32__127__uniform__offsetm0p0_p0__cpu");
}

TEST_F(PlantedPlan, AnchorsRunLastInTheirGroup) {
  const LifecyclePlan lifecycle(cases_, plan_);
  std::vector<std::string> ids;
  for (const Case& c : cases_)
    if (c.backend == "cpu") ids.push_back(c.id);
  const std::vector<std::string> order = lifecycle.run_order(ids);
  ASSERT_EQ(order.size(), ids.size());
  EXPECT_EQ(std::set<std::string>(order.begin(), order.end()), std::set<std::string>(ids.begin(), ids.end()));
  EXPECT_EQ(order[order.size() - 2], "atan__f32__16384__uniform__offsetm0p0_p0__cpu");
  EXPECT_EQ(order.back(), "atan__f16__16384__uniform__offsetm0p0_p0__cpu");
  EXPECT_EQ(order.front(), ids.front());  // the others keep their order
}

// Poison A then B on the same inputs: an element holding each run's own
// poison is unwritten, one holding two values of the kernel's nondeterministic.
TEST(OutputPoison, UnwrittenAndNondeterministicAreToldApart) {
  const size_t n = 5;
  std::vector<std::byte> run0 = poison(n * 4, 4, 0), run1 = poison(n * 4, 4, 1);
  const float values[n] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
  for (size_t e = 0; e < 3; ++e) {  // elements 3 and 4 stay unwritten
    std::memcpy(run0.data() + e * 4, &values[e], 4);
    std::memcpy(run1.data() + e * 4, &values[e], 4);
  }
  const float other = 2.5f;
  std::memcpy(run1.data() + 1 * 4, &other, 4);  // element 1 differs: nondeterministic
  const OutputDifference d = run_to_run_difference(run0, run1, 4);
  EXPECT_EQ(d.elements, n);
  EXPECT_EQ(d.unwritten, 2u);
  EXPECT_EQ(d.first_unwritten, 3u);
  EXPECT_EQ(d.other, 1u);
  EXPECT_EQ(d.first_other, 1u);
  EXPECT_EQ(difference_text(d, "nondeterministic"),
            "2 of 5 element(s) left unwritten (still oprig's poison after execute), first at index 3; "
            "1 of 5 element(s) nondeterministic, first at index 1");
}

TEST(OutputPoison, AgainstASingleInstance) {
  std::vector<std::byte> wanted(8, std::byte{0}), got = poison(8, 2, 1);  // four fp16 elements
  got[0] = got[1] = std::byte{0};                                          // element 0 right
  got[2] = std::byte{1};                                                   // element 1 a wrong value
  const OutputDifference d = output_difference(got, 1, wanted, 2);
  EXPECT_EQ(d.unwritten, 2u);  // elements 2 and 3
  EXPECT_EQ(d.first_unwritten, 2u);
  EXPECT_EQ(d.other, 1u);
  EXPECT_EQ(d.first_other, 1u);
  EXPECT_FALSE(output_difference(wanted, 0, wanted, 2).any());
}

TEST(OutputPoison, PatternsDifferInEveryByte) {
  for (size_t size : {1u, 2u, 4u, 8u}) {
    const std::vector<std::byte> a = poison(size, size, 0), b = poison(size, size, 1);
    for (size_t i = 0; i < size; ++i) EXPECT_NE(a[i], b[i]) << size << " byte elements, byte " << i;
  }
}

TEST(HeapUsage, SeesALiveAllocation) {
  const size_t before = heap_in_use();
  auto block = std::make_unique<char[]>(1 << 20);
  block[0] = 1;
  const size_t during = heap_in_use();
  EXPECT_GE(during, before + (1 << 20));
  block.reset();
  EXPECT_LT(heap_in_use(), during);
}

// The planted typed_params spec declares `repeats` INT_32 and `exact` BOOL_8:
// they reach a kernel as one int32 and one byte, never as FLOAT_32.
TEST(TypedParams, IntAndBoolArriveInTheirSpecTypes) {
  const OpCaseSpace space = case_space_from_spec(kPlanted / "typed_params" / "atan.xml", "Atan");
  const AbiParams abi(nlohmann::json{{"repeats", 3}, {"exact", true}, {"offset", 0.5}}, space);
  ASSERT_EQ(abi.size(), 3u);
  for (size_t i = 0; i < abi.size(); ++i) {
    const oprig_param& p = abi.data()[i];
    ASSERT_EQ(p.count, 1u) << p.name;
    if (std::strcmp(p.name, "repeats") == 0) {
      EXPECT_EQ(p.dtype, OPRIG_DTYPE_INT_32);
      int32_t v;
      std::memcpy(&v, p.data, sizeof v);
      EXPECT_EQ(v, 3);
    } else if (std::strcmp(p.name, "exact") == 0) {
      EXPECT_EQ(p.dtype, OPRIG_DTYPE_BOOL_8);
      EXPECT_EQ(*static_cast<const unsigned char*>(p.data), 1u);
    } else {
      EXPECT_STREQ(p.name, "offset");
      EXPECT_EQ(p.dtype, OPRIG_DTYPE_FLOAT_32);
    }
  }
}

TEST(PlanSignedZero, TrueAListOrAnError) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "op": "Atan", "spec": "atan.xml", "shapes": [[7]],
    "fills": {"uniform": {"kind": "uniform", "low": -1, "high": 1}},
    "tolerance": {"FLOAT_32": {"ulp": 1, "reason": "t"}}})");
  const std::filesystem::path file = kPlanted / "atan" / "plan.json";
  EXPECT_FALSE(parse_plan(j, file).signed_zero_all);
  j["signed_zero"] = true;
  EXPECT_TRUE(parse_plan(j, file).signed_zero_all);
  j["signed_zero"] = {"out"};
  EXPECT_THAT(parse_plan(j, file).signed_zero_outputs, ::testing::ElementsAre("out"));
  j["signed_zero"] = "yes";
  EXPECT_THROW(parse_plan(j, file), std::runtime_error);
}

}  // namespace
}  // namespace oprig::harness
