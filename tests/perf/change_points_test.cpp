// Change points and drift on synthetic nightly series whose answer is known
// by construction: a step, a drift, noise only, an outlier night, a
// deterministic series; and the L1 partition against a hand-worked case.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "perf/change_points.hpp"

namespace oprig::perf {
namespace {

// Fixed pseudo-random noise, uniform in [-1, 1], from SplitMix64 written out
// here (no library distribution: the series must be the same everywhere).
double wobble(size_t i) {
  uint64_t z = 0x9e3779b97f4a7c15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) / 9007199254740992.0 * 2 - 1;
}

std::vector<double> series(size_t n, double noise, double (*level)(size_t, size_t)) {
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(5e6 * level(i, n) * (1 + noise * wobble(i)));
  return v;
}

double flat(size_t, size_t) { return 1.0; }
double step_at_12(size_t i, size_t) { return i < 12 ? 1.0 : 1.05; }
double step_last_3(size_t i, size_t n) { return i + 3 < n ? 1.0 : 1.05; }
double drift_1pc(size_t i, size_t) { return std::pow(1.01, static_cast<double>(i)); }
double outlier_at_7(size_t i, size_t) { return i == 7 ? 1.08 : 1.0; }

TEST(ChangePoints, HandWorkedPartition) {
  // 0 0 0 10 10 10: one step costs the penalty, keeping one segment costs
  // |0-10|*3 = 30 (median 0 or 10). Penalty 29 splits at 3; penalty 31 does not.
  const std::vector<double> y = {0, 0, 0, 10, 10, 10};
  EXPECT_EQ(l1_optimal_partition(y, 29), (std::vector<size_t>{3}));
  EXPECT_EQ(l1_optimal_partition(y, 31), (std::vector<size_t>{}));
  // Two steps: 0 0 5 5 9 9 with penalty 1 -> segments at 2 and 4.
  EXPECT_EQ(l1_optimal_partition(std::vector<double>{0, 0, 5, 5, 9, 9}, 1), (std::vector<size_t>{2, 4}));
}

TEST(ChangePoints, RobustNoiseIgnoresASingleStep) {
  // Differences alternate +-0.01 around 0 except one jump: the MAD sees only the alternation.
  std::vector<double> y;
  for (size_t i = 0; i < 21; ++i) y.push_back((i % 2 ? 0.01 : 0.0) + (i >= 10 ? 0.5 : 0.0));
  EXPECT_NEAR(robust_noise(y), 1.4826 * 0.01 / std::sqrt(2.0), 1e-12);
}

TEST(ChangePoints, FivePercentStepOnOnePercentNoise) {
  const SeriesAnalysis a = analyse_series(series(20, 0.01, step_at_12));
  EXPECT_EQ(a.kind, SeriesKind::kSteps);
  ASSERT_EQ(a.change_points, (std::vector<size_t>{12}));
  ASSERT_EQ(a.segments.size(), 2u);
  EXPECT_NEAR(a.segments[1].level / a.segments[0].level, 1.05, 0.015);
}

TEST(ChangePoints, StepInTheLastThreeNights) {
  const SeriesAnalysis a = analyse_series(series(30, 0.01, step_last_3));
  EXPECT_EQ(a.kind, SeriesKind::kSteps);
  EXPECT_EQ(a.change_points, (std::vector<size_t>{27}));
}

TEST(ChangePoints, DriftOfOnePercentANight) {
  const SeriesAnalysis a = analyse_series(series(20, 0.01, drift_1pc));
  EXPECT_EQ(a.kind, SeriesKind::kDrift);
  EXPECT_TRUE(a.trend.significant);
  EXPECT_NEAR(a.trend.ratio_per_point, 1.01, 0.002);
  EXPECT_NEAR(a.trend.total_ratio, std::pow(1.01, 19), 0.03);
  EXPECT_LT(a.trend.ratio_low, 1.01);
  EXPECT_GT(a.trend.ratio_high, 1.01);
  EXPECT_LT(a.line_cost, a.steps_cost);
}

TEST(ChangePoints, NoiseOnlyHasNoChangePoint) {
  for (size_t n : {8u, 20u, 60u}) {
    const SeriesAnalysis a = analyse_series(series(n, 0.02, flat));
    EXPECT_EQ(a.kind, SeriesKind::kFlat) << n << " nights";
    EXPECT_TRUE(a.change_points.empty());
    ASSERT_EQ(a.segments.size(), 1u);
  }
}

TEST(ChangePoints, OneSlowNightIsNotAStep) {
  // An 8 % outlier on 1 % noise: a segment of its own would cost two steps.
  const SeriesAnalysis a = analyse_series(series(20, 0.01, outlier_at_7));
  EXPECT_EQ(a.kind, SeriesKind::kFlat);
}

TEST(ChangePoints, DeterministicSeriesNeedsOnlyARealChange) {
  // Simulated dsp time: identical nights, then +0.5 %. The noise floor (0.1 %) keeps
  // the penalty positive, so the constant part is one segment and the change is found.
  std::vector<double> v(12, 1000.0);
  for (size_t i = 8; i < 12; ++i) v[i] = 1005.0;
  const SeriesAnalysis a = analyse_series(v);
  EXPECT_EQ(a.kind, SeriesKind::kSteps);
  EXPECT_EQ(a.change_points, (std::vector<size_t>{8}));
  EXPECT_EQ(analyse_series(std::vector<double>(12, 1000.0)).kind, SeriesKind::kFlat);
}

TEST(ChangePoints, TooShortSaysSo) {
  const SeriesAnalysis a = analyse_series(std::vector<double>{1, 2, 3, 4});
  EXPECT_EQ(a.kind, SeriesKind::kTooShort);
  EXPECT_TRUE(a.change_points.empty());
  EXPECT_EQ(series_kind_name(a.kind), "TOO_SHORT");
}

TEST(ChangePoints, RejectsNonPositiveValues) {
  EXPECT_THROW(analyse_series(std::vector<double>{1, 2, 0, 4, 5}), std::invalid_argument);
}

}  // namespace
}  // namespace oprig::perf
