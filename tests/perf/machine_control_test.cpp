// The machine controls in compare: a slowdown the controls measured at the
// same moment is not blamed on the kernel; one beyond it is; files without
// controls are judged as before. Repetition values are chosen so that each
// side's order is clear (exact Mann-Whitney p = 2.06e-5 for 9 vs 9 with no
// overlap, scipy), so what decides is the ratio against the shift.
#include <gtest/gtest.h>

#include <vector>

#include "perf/compare.hpp"

namespace oprig::perf {
namespace {

std::vector<double> scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (double x : v) out.push_back(factor * x);
  return out;
}

// With the controls on (--machine-controls; off by default).
const CompareOptions kControls = [] {
  CompareOptions o;
  o.machine_controls = true;
  return o;
}();

const std::vector<double> kTimes = {4.91, 5.02, 4.87, 5.10, 4.95, 4.99, 5.01, 4.90, 5.05};
const std::vector<double> kCopy = {10.1, 10.3, 10.0, 10.2, 10.4, 10.1, 10.2, 10.0, 10.3};
const std::vector<double> kChain = {1.00, 1.01, 1.00, 1.02, 1.01, 1.00, 1.01, 1.02, 1.00};

// One benchmark "k" with times in ms and both controls as per-repetition counters.
BenchmarkFile run(const std::string& path, const std::vector<double>& ms, const std::vector<double>* copy,
                  const std::vector<double>* chain) {
  nlohmann::json doc = {{"context", nlohmann::json::object()}, {"benchmarks", nlohmann::json::array()}};
  for (size_t i = 0; i < ms.size(); ++i) {
    nlohmann::json e = {{"name", "k"},           {"run_name", "k"},    {"run_type", "iteration"},
                        {"repetitions", ms.size()}, {"repetition_index", i}, {"iterations", 1},
                        {"real_time", ms[i]},    {"cpu_time", ms[i]},  {"time_unit", "ms"}};
    if (copy) e["control_copy_ns"] = (*copy)[i] * 1e6;
    if (chain) e["control_compute_ns"] = (*chain)[i] * 1e6;
    doc["benchmarks"].push_back(e);
  }
  return parse_benchmark_json(doc, path);
}

TEST(MachineControl, CountersAreReadPerRepetition) {
  const BenchmarkFile f = run("b", kTimes, &kCopy, &kChain);
  ASSERT_EQ(f.benchmarks.size(), 1u);
  EXPECT_EQ(f.benchmarks[0].counter_samples.at("control_copy_ns").size(), 9u);
  EXPECT_DOUBLE_EQ(f.benchmarks[0].counter_samples.at("control_copy_ns")[4], 10.4e6);
}

TEST(MachineControl, SlowdownTheMachineAlsoHadIsNotBlamedOnTheKernel) {
  // The copy control and the kernel both 1.8x slower: a spell of the machine.
  const std::vector<double> copy_slow = scaled(kCopy, 1.8);
  const CompareReport report = compare_runs(run("b", kTimes, &kCopy, &kChain),
                                            run("n", scaled(kTimes, 1.8), &copy_slow, &kChain), kControls);
  ASSERT_EQ(report.rows.size(), 1u);
  const CompareRow& row = report.rows[0];
  EXPECT_EQ(row.comparison.verdict, ChangeVerdict::kSame) << row.comparison.note;
  EXPECT_NEAR(row.machine.slower, 1.8, 1e-9);
  EXPECT_EQ(row.machine.control, "control_copy_ns");
  EXPECT_NE(row.comparison.note.find("not blamed on the kernel"), std::string::npos) << row.comparison.note;
  EXPECT_EQ(compare_exit_code(report), 0);

  CompareOptions raw;  // the default: the repetitions alone decide
  EXPECT_EQ(compare_runs(run("b", kTimes, &kCopy, &kChain), run("n", scaled(kTimes, 1.8), &copy_slow, &kChain), raw)
                .rows[0]
                .comparison.verdict,
            ChangeVerdict::kRegressed);
}

TEST(MachineControl, SlowdownBeyondTheMachinesIsRegressed) {
  // The machine 1.2x slower, the kernel 1.4x: 1.4 > 1.2 * 1.05.
  const std::vector<double> chain_slow = scaled(kChain, 1.2);
  const CompareReport report = compare_runs(run("b", kTimes, &kCopy, &kChain),
                                            run("n", scaled(kTimes, 1.4), &kCopy, &chain_slow), kControls);
  const CompareRow& row = report.rows[0];
  EXPECT_EQ(row.comparison.verdict, ChangeVerdict::kRegressed);
  EXPECT_NEAR(row.machine.slower, 1.2, 1e-9);
  EXPECT_EQ(row.machine.control, "control_compute_ns");
  EXPECT_NE(row.comparison.note.find("slower by more than the machine"), std::string::npos);
  EXPECT_EQ(compare_exit_code(report), 1);
}

TEST(MachineControl, UnchangedMachineLeavesTheRuleAsItWas) {
  // Controls equal on both sides: a 10 % slowdown is REGRESSED as without controls.
  const CompareReport report =
      compare_runs(run("b", kTimes, &kCopy, &kChain), run("n", scaled(kTimes, 1.1), &kCopy, &kChain), kControls);
  EXPECT_TRUE(report.rows[0].machine.measured);
  EXPECT_EQ(report.rows[0].machine.slower, 1);
  EXPECT_EQ(report.rows[0].comparison.verdict, ChangeVerdict::kRegressed);
}

TEST(MachineControl, FilesWithoutControlsAreJudgedAsBefore) {
  const CompareReport report =
      compare_runs(run("b", kTimes, nullptr, nullptr), run("n", scaled(kTimes, 1.8), nullptr, nullptr), kControls);
  EXPECT_FALSE(report.rows[0].machine.measured);
  EXPECT_EQ(report.rows[0].comparison.verdict, ChangeVerdict::kRegressed);
}

TEST(MachineControl, ImprovementTheMachineAlsoHadIsNotCredited) {
  const std::vector<double> copy_fast = scaled(kCopy, 0.6);
  const CompareReport report =
      compare_runs(run("b", kTimes, &kCopy, &kChain), run("n", scaled(kTimes, 0.6), &copy_fast, &kChain), kControls);
  EXPECT_EQ(report.rows[0].comparison.verdict, ChangeVerdict::kSame);
  EXPECT_NEAR(report.rows[0].machine.faster, 0.6, 1e-9);
}

}  // namespace
}  // namespace oprig::perf
