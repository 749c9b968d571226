// report.html's baseline: each case timed in both runs is judged by the
// regression rule over its samples; simulated dsp time is never compared.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "perf/report_baseline.hpp"

namespace oprig::perf {
namespace {

reports::CaseResult timed(const std::string& id, const std::string& backend, std::vector<double> samples,
                          bool device_timer = false) {
  reports::CaseResult c;
  c.id = id;
  c.backend = backend;
  reports::PerfStats p;
  p.device_timer = device_timer;
  p.compute_ns_samples = std::move(samples);
  c.perf = p;
  return c;
}

// Eleven samples around `center` with a spread of +-2 %: the same build's noise.
std::vector<double> around(double center) {
  std::vector<double> v;
  for (int i = -5; i <= 5; ++i) v.push_back(center * (1 + 0.004 * i));
  return v;
}

TEST(ReportBaseline, JudgesEachCaseTimedInBothAndCountsTheRest) {
  reports::RunResults base, next;
  base.cases = {timed("a__cpu", "cpu", around(1000)), timed("b__cpu", "cpu", around(1000)),
                timed("c__cpu", "cpu", around(1000)), timed("gone__cpu", "cpu", around(1000)),
                timed("few__cpu", "cpu", {1000, 1001})};
  next.cases = {timed("a__cpu", "cpu", around(1000)), timed("b__cpu", "cpu", around(1500)),
                timed("c__cpu", "cpu", around(500)), timed("new__cpu", "cpu", around(1000)),
                timed("few__cpu", "cpu", around(1000))};
  const reports::PerfBaseline b = compare_with_baseline(base, next, RegressionRule{0.05, 0.05, 5}, "base/");
  ASSERT_EQ(b.rows.size(), 4u);  // a, b, c and few: 'new' has no baseline, 'gone' no new run
  EXPECT_EQ(b.rows.at("a__cpu").verdict, "SAME");
  EXPECT_EQ(b.rows.at("b__cpu").verdict, "REGRESSED");
  EXPECT_NEAR(b.rows.at("b__cpu").ratio, 1.5, 0.01);
  EXPECT_LE(b.rows.at("b__cpu").low, 1.5);
  EXPECT_GE(b.rows.at("b__cpu").high, 1.5);
  EXPECT_EQ(b.rows.at("c__cpu").verdict, "IMPROVED");
  EXPECT_NEAR(b.rows.at("c__cpu").ratio, 0.5, 0.01);
  EXPECT_EQ(b.rows.at("few__cpu").verdict, "NOT_ENOUGH_SAMPLES");
  EXPECT_EQ(b.only_in_baseline, 1u);
  EXPECT_EQ(b.count("REGRESSED"), 1u);
  EXPECT_NE(b.rule.find("5 %"), std::string::npos) << b.rule;
}

TEST(ReportBaseline, SimulatedDspTimeIsNeverCompared) {
  reports::RunResults base, next;
  base.cases = {timed("atan__u8__dsp", "dsp", around(1000), /*device_timer=*/true)};
  next.cases = {timed("atan__u8__dsp", "dsp", around(3000), /*device_timer=*/true)};
  EXPECT_TRUE(compare_with_baseline(base, next, RegressionRule{0.05, 0.05, 5}, "base").rows.empty());
  // bench times the simulator with the host clock (device_timer false): that is real time.
  base.cases[0].perf->device_timer = next.cases[0].perf->device_timer = false;
  EXPECT_EQ(compare_with_baseline(base, next, RegressionRule{0.05, 0.05, 5}, "base").rows.at("atan__u8__dsp").verdict, "REGRESSED");
}

TEST(ReportBaseline, AMissingBaselineNamesTheFile) {
  try {
    read_baseline_results("/nonexistent/oprig-bench");
    FAIL() << "no error";
  } catch (const reports::ResultsFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/oprig-bench"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace oprig::perf
