// Parsing the plan.json tolerance entries, and their one-line text.
#include "compare/tolerance.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace oprig::compare {
namespace {

void expect_error(std::string_view text, std::string_view fragment) {
  try {
    parse_tolerance_text(text);
    ADD_FAILURE() << "accepted " << text;
  } catch (const ToleranceError& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(Tolerance, ParsesEachKind) {
  const Tolerance ulp = parse_tolerance_text(R"({"ulp": 3, "reason": "atan within 3 ulp"})");
  EXPECT_EQ(ulp.strict.kind, BoundKind::kUlp);
  EXPECT_EQ(ulp.strict.ulp, 3.0);
  EXPECT_EQ(ulp.reason, "atan within 3 ulp");
  EXPECT_EQ(ulp.nan, NanRule::kMustMatch);
  EXPECT_EQ(ulp.mistrust_zero_fraction, 0.3);
  EXPECT_FALSE(ulp.relaxed.has_value());
  EXPECT_EQ(tolerance_text(ulp), "ulp<=3");

  const Tolerance abs_rel = parse_tolerance_text(R"({"atol": 1e-5, "rtol": 5.96e-7, "reason": "NNAPI"})");
  EXPECT_EQ(abs_rel.strict.kind, BoundKind::kAbsRel);
  EXPECT_EQ(abs_rel.strict.atol, 1e-5);
  EXPECT_EQ(abs_rel.strict.rtol, 5.96e-7);
  EXPECT_EQ(tolerance_text(abs_rel), "atol<=1e-05 rtol<=5.96e-07");

  const Tolerance rtol_only = parse_tolerance_text(R"({"rtol": 0.001, "reason": "r"})");
  EXPECT_EQ(rtol_only.strict.atol, 0.0);

  const Tolerance lsb = parse_tolerance_text(
      R"({"lsb": 1, "reason": "q", "relaxed": {"lsb": 2}, "nan": "unchecked", "mistrust_zero_fraction": 0.9})");
  EXPECT_EQ(lsb.strict.kind, BoundKind::kLsb);
  ASSERT_TRUE(lsb.relaxed.has_value());
  EXPECT_EQ(lsb.relaxed->lsb, 2.0);
  EXPECT_EQ(lsb.nan, NanRule::kUnchecked);
  EXPECT_EQ(lsb.mistrust_zero_fraction, 0.9);
  EXPECT_EQ(tolerance_text(lsb), "lsb<=1 (relaxed lsb<=2)");
}

TEST(Tolerance, ReasonIsRequired) {
  expect_error(R"({"ulp": 3})", "\"reason\" is required");
  expect_error(R"({"ulp": 3, "reason": ""})", "\"reason\" is required");
  expect_error(R"({"ulp": 3, "reason": 7})", "\"reason\" is required");
}

TEST(Tolerance, RejectsMalformedEntries) {
  expect_error(R"({"reason": "r"})", "needs one of");
  expect_error(R"({"ulp": 3, "atol": 1, "reason": "r"})", "only one kind");
  expect_error(R"({"ulp": -1, "reason": "r"})", "\"ulp\" must be a finite number >= 0");
  expect_error(R"({"ulp": "3", "reason": "r"})", "\"ulp\" must be a number");
  expect_error(R"({"ulps": 3, "reason": "r"})", "unknown key \"ulps\"");
  expect_error(R"({"ulp": 3, "reason": "r", "relaxed": 8})", "\"relaxed\" must be an object");
  expect_error(R"({"ulp": 3, "reason": "r", "relaxed": {"ulp": 8, "x": 1}})", "tolerance.relaxed: unknown key \"x\"");
  expect_error(R"({"ulp": 3, "reason": "r", "nan": "ignore"})", "\"nan\" must be");
  expect_error(R"({"ulp": 3, "reason": "r", "mistrust_zero_fraction": 2})", "[0, 1]");
  expect_error(R"([1, 2])", "expected a JSON object");
  expect_error(R"({"ulp": 3,)", "not valid JSON");
  expect_error(R"({"ulp": 1e999})", "not valid JSON");  // nlohmann's out_of_range, not parse_error
}

TEST(Tolerance, ByDtypeTable) {
  const auto table = parse_tolerances_by_dtype(nlohmann::json::parse(
      R"({"FLOAT_32": {"ulp": 3, "reason": "a"}, "u8": {"lsb": 1, "reason": "b"}})"));
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table.at(OPRIG_DTYPE_FLOAT_32).strict.ulp, 3.0);
  EXPECT_EQ(table.at(OPRIG_DTYPE_UINT_8).strict.lsb, 1.0);
  try {
    parse_tolerances_by_dtype(nlohmann::json::parse(R"({"FLOAT_16": {"ulp": 3}})"));
    ADD_FAILURE();
  } catch (const ToleranceError& error) {
    EXPECT_NE(std::string(error.what()).find("FLOAT_16: "), std::string::npos) << error.what();
  }
  EXPECT_THROW(parse_tolerances_by_dtype(nlohmann::json::parse(R"({"FLOAT_99": {"ulp": 3, "reason": "a"}})")),
               ToleranceError);
}

}  // namespace
}  // namespace oprig::compare
