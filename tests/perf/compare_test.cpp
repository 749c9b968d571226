// compare_runs over two in-memory runs: matching by name, one-sided
// benchmarks listed, order, exit codes and the JSON/table outputs.
#include <gtest/gtest.h>

#include <vector>

#include "perf/compare.hpp"
#include "perf_samples.hpp"

namespace oprig::perf {
namespace {

using test::kBase9;
constexpr auto* run = &test::gbench_run;

// The values were worked at alpha 0.05 (the gate's default is 0.001: regression_rule_test.cpp).
const CompareOptions kAt05 = [] {
  CompareOptions o;
  o.rule.alpha = 0.05;
  return o;
}();

const std::vector<double> kSlower = {5.38, 5.51, 5.29, 5.45, 5.60, 5.33, 5.41, 5.72, 5.36};
const std::vector<double> kSame = {4.93, 5.08, 4.85, 4.97, 5.12, 4.89, 5.01, 5.40, 4.96};

TEST(Compare, RegressionGivesExit1AndComesFirst) {
  const BenchmarkFile base = run("base.json", {{"a", kBase9}, {"b", kBase9}, {"gone", kBase9}});
  const BenchmarkFile next = run("new.json", {{"a", kSame}, {"b", kSlower}, {"added", kBase9}});
  const CompareReport report = compare_runs(base, next, kAt05);
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.rows[0].name, "b");
  EXPECT_EQ(report.rows[0].comparison.verdict, ChangeVerdict::kRegressed);
  EXPECT_EQ(report.rows[1].comparison.verdict, ChangeVerdict::kSame);
  EXPECT_EQ(report.only_in_base, (std::vector<std::string>{"gone"}));
  EXPECT_EQ(report.only_in_new, (std::vector<std::string>{"added"}));
  EXPECT_EQ(compare_exit_code(report), 1);

  const std::string table = render_compare_table(report);
  EXPECT_NE(table.find("REGRESSED"), std::string::npos);
  EXPECT_NE(table.find("only in BASE (1):\n  gone"), std::string::npos) << table;
  EXPECT_NE(table.find("only in NEW (1):\n  added"), std::string::npos) << table;
  EXPECT_NE(table.find("90% CI"), std::string::npos);
  EXPECT_NE(table.find("-> exit 1"), std::string::npos);

  const nlohmann::json json = compare_to_json(report);
  EXPECT_EQ(json["schema"], "oprig-compare/1");
  EXPECT_EQ(json["benchmarks"][0]["verdict"], "REGRESSED");
  EXPECT_NEAR(json["benchmarks"][0]["ratio"].get<double>(), 1.0868686868686868, 1e-12);
  EXPECT_NEAR(json["benchmarks"][0]["base_median_ns"].get<double>(), 4.99e6, 1e-3);
  EXPECT_EQ(json["summary"]["regressed"], 1);
  EXPECT_EQ(json["exit_code"], 1);
}

// The interval's level is 1 - 2 alpha: 99.8 % at the default alpha 0.001,
// which a whole-percent label would print as "100% CI".
TEST(Compare, TheIntervalLabelKeepsTheLevelsDecimals) {
  const CompareReport report = compare_runs(run("b", {{"a", kBase9}}), run("n", {{"a", kSame}}), CompareOptions{});
  const std::string table = render_compare_table(report);
  EXPECT_NE(table.find("99.8% CI"), std::string::npos) << table;
  EXPECT_EQ(table.find("100% CI"), std::string::npos) << table;
}

TEST(Compare, UnchangedRunsExit0) {
  const CompareReport report = compare_runs(run("b", {{"a", kBase9}}), run("n", {{"a", kSame}}), kAt05);
  EXPECT_EQ(compare_exit_code(report), 0);
  EXPECT_TRUE(mismatch_reason(report).empty());
}

TEST(Compare, ImprovementAloneExits0) {
  const CompareReport report = compare_runs(run("b", {{"a", kSlower}}), run("n", {{"a", kBase9}}), kAt05);
  EXPECT_EQ(report.rows[0].comparison.verdict, ChangeVerdict::kImproved);
  EXPECT_EQ(compare_exit_code(report), 0);
}

TEST(Compare, NothingInCommonIsMismatchedExit2) {
  const CompareReport report = compare_runs(run("b", {{"a", kBase9}}), run("n", {{"z", kBase9}}), kAt05);
  EXPECT_EQ(compare_exit_code(report), 2);
  EXPECT_NE(mismatch_reason(report).find("no benchmark is in both"), std::string::npos);
}

TEST(Compare, NoTestableBenchmarkExits2ButOneIsEnough) {
  const std::vector<double> three = {5, 5.1, 5.2};
  EXPECT_EQ(compare_exit_code(compare_runs(run("b", {{"a", three}}), run("n", {{"a", three}}), kAt05)), 2);
  const CompareReport mixed =
      compare_runs(run("b", {{"a", three}, {"c", kBase9}}), run("n", {{"a", three}, {"c", kSame}}), kAt05);
  EXPECT_EQ(compare_exit_code(mixed), 0);
  EXPECT_EQ(mixed.rows.back().comparison.verdict, ChangeVerdict::kNotEnoughSamples);  // listed last
}

TEST(Compare, CpuTimeMetricUsesCpuTimes) {
  // cpu_time is real_time / 100 in these runs: the same verdict, smaller medians.
  CompareOptions options = kAt05;
  options.metric = TimeMetric::kCpuTime;
  const CompareReport report = compare_runs(run("b", {{"b", kBase9}}), run("n", {{"b", kSlower}}), options);
  EXPECT_EQ(report.rows[0].comparison.verdict, ChangeVerdict::kRegressed);
  EXPECT_NEAR(report.rows[0].comparison.base_median, 4.99e4, 1e-6);
  EXPECT_NE(render_compare_table(report).find("cpu_time"), std::string::npos);
}

TEST(Compare, PValuesAreAdjustedForTheNumberOfBenchmarks) {
  // 8 % slower against the 5 % margin: exact one-sided p = 0.0122 (regression_rule_test.cpp),
  // REGRESSED alone. Among 6 benchmarks Holm ranks it second: 5 * 0.0122 = 0.061, SAME; kSlower
  // (p = 0.00282 against the margin, exact enumeration) ranks first: 6 * 0.00282, REGRESSED.
  std::vector<double> slower8;
  for (double v : kBase9) slower8.push_back(1.08 * v);
  const CompareReport alone = compare_runs(run("b", {{"w", kBase9}}), run("n", {{"w", slower8}}), kAt05);
  EXPECT_EQ(alone.rows[0].comparison.verdict, ChangeVerdict::kRegressed);

  const BenchmarkFile base =
      run("b", {{"w", kBase9}, {"s", kBase9}, {"x", kBase9}, {"y", kBase9}, {"z", kBase9}, {"v", kBase9}});
  const BenchmarkFile next =
      run("n", {{"w", slower8}, {"s", kSlower}, {"x", kSame}, {"y", kSame}, {"z", kSame}, {"v", kSame}});
  const CompareReport family = compare_runs(base, next, kAt05);
  ASSERT_EQ(family.rows.size(), 6u);
  EXPECT_EQ(family.rows[0].name, "s");
  EXPECT_EQ(family.rows[0].comparison.verdict, ChangeVerdict::kRegressed);
  EXPECT_NEAR(family.rows[0].comparison.p_slower_used, 6 * 0.002817770464829288, 1e-12);
  EXPECT_EQ(family.rows[1].name, "w");
  EXPECT_EQ(family.rows[1].comparison.verdict, ChangeVerdict::kSame);
  EXPECT_NEAR(family.rows[1].comparison.p_slower_used, 5 * 0.012217194570135747, 1e-12);
  EXPECT_NE(render_compare_table(family).find("Holm over 6 benchmarks"), std::string::npos);
  EXPECT_EQ(compare_to_json(family)["rule"]["family_correction"], "holm");

  CompareOptions per_benchmark = kAt05;
  per_benchmark.family_correction = false;  // --correction none: alpha per benchmark
  EXPECT_EQ(compare_runs(base, next, per_benchmark).count(ChangeVerdict::kRegressed), 2u);
}

TEST(Compare, AggregatesOnlyFilesAreExplained) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"benchmarks": [
    {"name": "A_mean", "run_name": "A", "run_type": "aggregate", "aggregate_name": "mean",
     "real_time": 5, "cpu_time": 5, "time_unit": "ms"}]})");
  const CompareReport report = compare_runs(parse_benchmark_json(doc, "b"), parse_benchmark_json(doc, "n"), kAt05);
  ASSERT_EQ(report.rows.size(), 1u);
  EXPECT_NE(report.rows[0].comparison.note.find("only aggregates"), std::string::npos);
  EXPECT_EQ(compare_exit_code(report), 2);
}

}  // namespace
}  // namespace oprig::perf
