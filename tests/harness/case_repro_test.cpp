// `oprig run --case ID` reproduces a case bit for bit: the same seed, the
// same inputs, so the same output statistics on every run.
#include <gtest/gtest.h>


#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

// Ids as the plan spells them (see plan.json): a quantised dsp case and an
// fp32 cpu case with a random offset.
const char* const kCaseIds[] = {"atan__u8__1x3x5x7__codes__p1__dsp", "atan__f32__127__wide__p1__cpu"};

TEST_F(OprigCliTest, CaseIdReproducesBitForBit) {
  for (const std::string id : kCaseIds) {
    SCOPED_TRACE(id);
    EXPECT_THAT(id, kCaseIdText);
    const std::vector<std::string> args = {"run", "--spec", kAtanSpec.string(), "--case", id};
    const OprigRun a = oprig(args, "a_" + id);
    const OprigRun b = oprig(args, "b_" + id);
    ASSERT_EQ(a.process.exit_code, 0) << a.process.err;
    ASSERT_EQ(b.process.exit_code, 0) << b.process.err;
    ASSERT_EQ(a.cases().size(), 1u);
    ASSERT_EQ(b.cases().size(), 1u);
    const nlohmann::json& ca = a.cases()[0];
    const nlohmann::json& cb = b.cases()[0];
    EXPECT_EQ(ca.at("id"), id);
    EXPECT_EQ(ca.at("verdict"), "PASSED") << ca.at("message");
    EXPECT_EQ(ca.at("seed"), cb.at("seed"));
    EXPECT_EQ(ca.at("params"), cb.at("params"));
    ASSERT_TRUE(ca.at("stats").is_object());
    // Exact equality of the JSON numbers: the same outputs bit for bit give
    // the same maxima to the last digit.
    EXPECT_EQ(ca.at("stats").at("max_abs"), cb.at("stats").at("max_abs"));
    EXPECT_EQ(ca.at("stats").at("max_ulp"), cb.at("stats").at("max_ulp"));
    EXPECT_EQ(ca.at("stats").at("max_rel"), cb.at("stats").at("max_rel"));
    EXPECT_EQ(ca.at("stats").at("count"), cb.at("stats").at("count"));
    EXPECT_EQ(ca.at("stats").at("zero_fraction"), cb.at("stats").at("zero_fraction"));
  }
}

}  // namespace
}  // namespace oprig_test
