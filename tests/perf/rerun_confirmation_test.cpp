// compare --confirm: a regression in NEW stands only when every rerun that
// re-timed the benchmark finds it again; the rerun's p-value is multiplied by
// the size of the first comparison's family; rerun_filter() selects exactly
// the flagged benchmarks for bench --filter.
#include <gtest/gtest.h>
#include <regex.h>

#include <algorithm>
#include <string>
#include <vector>

#include "perf/compare.hpp"
#include "perf/rerun_confirmation.hpp"
#include "perf_samples.hpp"

namespace oprig::perf {
namespace {

using Runs = std::vector<std::pair<std::string, std::vector<double>>>;
using test::kBase9;
using test::scaled;

constexpr auto* run = &test::gbench_run;

const CompareRow& row_named(const CompareReport& report, const std::string& name) {
  const auto it = std::find_if(report.rows.begin(), report.rows.end(),
                               [&](const CompareRow& r) { return r.name == name; });
  EXPECT_NE(it, report.rows.end()) << name;
  return *it;
}

// A spell: every repetition of NEW 1.5x slower, the rerun back to normal.
TEST(RerunConfirmation, ASlowdownThatDoesNotComeBackIsNotARegression) {
  const BenchmarkFile base = run("base", {{"k", kBase9}, {"other", kBase9}});
  CompareReport report = compare_runs(base, run("new", {{"k", scaled(kBase9, 1.5)}, {"other", kBase9}}), {});
  ASSERT_EQ(compare_exit_code(report), 1);
  const std::vector<BenchmarkFile> reruns = {run("rerun", {{"k", scaled(kBase9, 1.01)}})};
  confirm_regressions(report, base, reruns);
  const CompareRow& k = row_named(report, "k");
  EXPECT_EQ(k.comparison.verdict, ChangeVerdict::kSame);
  EXPECT_TRUE(k.unconfirmed());
  ASSERT_EQ(k.reruns.size(), 1u);
  EXPECT_TRUE(k.reruns[0].retimed);
  EXPECT_EQ(k.reruns[0].comparison.verdict, ChangeVerdict::kSame);
  EXPECT_NE(k.comparison.note.find("not confirmed by the rerun"), std::string::npos) << k.comparison.note;
  EXPECT_TRUE(row_named(report, "other").reruns.empty());  // only flagged rows are re-judged
  EXPECT_EQ(report.unconfirmed(), 1u);
  EXPECT_EQ(compare_exit_code(report), 0);
  const std::string table = render_compare_table(report);
  EXPECT_NE(table.find("SAME (NEW's REGRESSED not confirmed)"), std::string::npos) << table;
  EXPECT_NE(table.find("confirm: "), std::string::npos) << table;
  const nlohmann::json json = compare_to_json(report);
  EXPECT_EQ(json["summary"]["not_confirmed"], 1);
  EXPECT_EQ(json["reruns"], nlohmann::json::array({"rerun"}));
  for (const nlohmann::json& r : json["benchmarks"])
    if (r["name"] == "k") {
      EXPECT_EQ(r["confirmed"], false);
      EXPECT_EQ(r["reruns"][0]["verdict"], "SAME");
    }
}

TEST(RerunConfirmation, ARegressionThatComesBackStands) {
  const BenchmarkFile base = run("base", {{"k", kBase9}});
  CompareReport report = compare_runs(base, run("new", {{"k", scaled(kBase9, 1.5)}}), {});
  const std::vector<BenchmarkFile> reruns = {run("r1", {{"k", scaled(kBase9, 1.4)}}),
                                             run("r2", {{"k", scaled(kBase9, 1.45)}})};
  confirm_regressions(report, base, reruns);
  const CompareRow& k = row_named(report, "k");
  EXPECT_EQ(k.comparison.verdict, ChangeVerdict::kRegressed);
  EXPECT_FALSE(k.unconfirmed());
  EXPECT_EQ(k.reruns.size(), 2u);
  EXPECT_NE(k.comparison.note.find("confirmed by the rerun"), std::string::npos) << k.comparison.note;
  EXPECT_EQ(compare_exit_code(report), 1);
}

// Every rerun must agree: one that clears it is enough to clear it.
TEST(RerunConfirmation, OneRerunThatClearsItClearsIt) {
  const BenchmarkFile base = run("base", {{"k", kBase9}});
  CompareReport report = compare_runs(base, run("new", {{"k", scaled(kBase9, 1.5)}}), {});
  const std::vector<BenchmarkFile> reruns = {run("r1", {{"k", scaled(kBase9, 1.4)}}), run("r2", {{"k", kBase9}})};
  confirm_regressions(report, base, reruns);
  EXPECT_EQ(row_named(report, "k").comparison.verdict, ChangeVerdict::kSame);
  EXPECT_EQ(compare_exit_code(report), 0);
}

// A rerun that did not time the benchmark, or timed too few repetitions,
// measured nothing and clears nothing.
TEST(RerunConfirmation, ARerunThatMeasuredNothingClearsNothing) {
  const BenchmarkFile base = run("base", {{"k", kBase9}});
  for (const Runs& rerun : {Runs{{"unrelated", kBase9}}, Runs{{"k", {4.9, 5.0, 5.1}}}}) {
    CompareReport report = compare_runs(base, run("new", {{"k", scaled(kBase9, 1.5)}}), {});
    const std::vector<BenchmarkFile> reruns = {run("rerun", rerun)};
    confirm_regressions(report, base, reruns);
    const CompareRow& k = row_named(report, "k");
    EXPECT_EQ(k.comparison.verdict, ChangeVerdict::kRegressed);
    ASSERT_EQ(k.reruns.size(), 1u);
    EXPECT_FALSE(k.reruns[0].retimed);
    EXPECT_NE(k.comparison.note.find("the regression stands"), std::string::npos) << k.comparison.note;
    EXPECT_EQ(compare_exit_code(report), 1);
  }
}

// The rerun's p is multiplied by the first comparison's family size. Nine
// repetitions that do not overlap BASE x 1.05 give the exact p 1 / C(18, 9)
// = 2.06e-5 (regression_rule_test.cpp): times 23 benchmarks it is 4.7e-4,
// under 0.001 (confirmed); times 60 it is 1.2e-3, over (not confirmed).
TEST(RerunConfirmation, TheRerunsPIsMultipliedByTheFamilySize) {
  // NEW: 20 repetitions far above BASE, significant even after Holm over 60.
  std::vector<double> new20;
  for (int i = 0; i < 20; ++i) new20.push_back(7.0 + 0.01 * i);
  for (const size_t family : {23u, 60u}) {
    Runs base_runs = {{"k", kBase9}}, new_runs = {{"k", new20}};
    for (size_t i = 1; i < family; ++i) {
      base_runs.push_back({"same" + std::to_string(i), kBase9});
      new_runs.push_back({"same" + std::to_string(i), kBase9});
    }
    const BenchmarkFile base = run("base", base_runs);
    CompareReport report = compare_runs(base, run("new", new_runs), {});
    ASSERT_EQ(row_named(report, "k").comparison.verdict, ChangeVerdict::kRegressed) << family;
    const std::vector<BenchmarkFile> reruns = {run("rerun", {{"k", scaled(kBase9, 1.2)}})};
    confirm_regressions(report, base, reruns);
    const CompareRow& k = row_named(report, "k");
    ASSERT_EQ(k.reruns.size(), 1u);
    EXPECT_NEAR(k.reruns[0].comparison.p_slower_margin, 1.0 / 48620, 1e-12);
    EXPECT_NEAR(k.reruns[0].comparison.p_slower_used, static_cast<double>(family) / 48620, 1e-12);
    EXPECT_EQ(k.comparison.verdict, family == 23 ? ChangeVerdict::kRegressed : ChangeVerdict::kSame) << family;
  }
}

bool matches(const std::string& pattern, const std::string& text) {
  regex_t re;
  EXPECT_EQ(regcomp(&re, pattern.c_str(), REG_EXTENDED | REG_NOSUB), 0) << pattern;
  const bool hit = regexec(&re, text.c_str(), 0, nullptr, 0) == 0;
  regfree(&re);
  return hit;
}

TEST(RerunConfirmation, TheRerunFilterSelectsExactlyTheFlaggedBenchmarks) {
  const std::string flagged = "conv2d__f32__1x8.5(a)+b__cpu/min_time:0.100/manual_time";
  const std::string same = "conv2d__f32__1x8x5__cpu/min_time:0.100/manual_time";
  const BenchmarkFile base = run("base", {{flagged, kBase9}, {same, kBase9}});
  const CompareReport none = compare_runs(base, base, {});
  EXPECT_EQ(rerun_filter(none), "");
  const CompareReport report =
      compare_runs(base, run("new", {{flagged, scaled(kBase9, 1.5)}, {same, kBase9}}), {});
  const std::string filter = rerun_filter(report);
  EXPECT_EQ(filter, "^(conv2d__f32__1x8\\.5\\(a\\)\\+b__cpu)(/|$)");
  // libbenchmark matches --benchmark_filter against the family name with its arguments.
  EXPECT_TRUE(matches(filter, "conv2d__f32__1x8.5(a)+b__cpu/min_time:0.100/manual_time"));
  EXPECT_TRUE(matches(filter, "conv2d__f32__1x8.5(a)+b__cpu"));
  EXPECT_FALSE(matches(filter, "conv2d__f32__1x8x5__cpu/min_time:0.100/manual_time"));
  EXPECT_FALSE(matches(filter, "conv2d__f32__1x8.5(a)+b__cpu_more"));
  EXPECT_FALSE(matches(filter, "xconv2d__f32__1x8.5(a)+b__cpu"));
}

}  // namespace
}  // namespace oprig::perf
