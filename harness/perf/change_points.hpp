// Steps and drifts in a nightly series (one value per night: the median of
// its repetitions), in the spirit of asv's step detection, written for oprig.
//
// Steps: the series, on a log scale (so steps are relative), is fitted with a
// piecewise-constant function minimising
//     sum over segments of sum_i |y_i - median(segment)|  +  penalty * (segments - 1)
// exactly, by dynamic programming over all segmentations (optimal
// partitioning, O(n^2) segment costs, each from two running heaps).
// L1 rather than L2: one night disturbed by a co-tenant moves a median, not a
// mean, so it does not become a step of its own unless it is very large.
//
// Penalty: beta = 2 * sigma * (1 + 1 / sqrt(n - 2)) * ln(n), where sigma is the
// night-to-night noise estimated robustly (1.4826 * MAD of the first
// differences / sqrt 2; a step or a drift barely moves it), floored at 0.1 %
// so a deterministic series (simulated dsp time) still needs a real change.
// The ln(n) grows the price of a step with the number of places it could go,
// as BIC does; the sqrt term pays for sigma being estimated from few nights.
// Measured on synthetic series by tests/perf/change_point_rates.cpp (200
// series each, noise 1 % Gaussian or Student-t3): a noise-only series gets a
// step in 5-6 % of 10-night windows and 0-2 % of 20..90-night ones; a 5 % step
// in the middle is found in 97-100 %, one in the last 3 nights in 87-95 %.
//
// Drift: a slow change of about 1 % a night would only show as a staircase of
// steps, late. So a single straight line (Theil-Sen slope, the median of the
// pairwise slopes, with Sen's distribution-free interval from Kendall's tau)
// competes with the steps under the same L1 cost and the same penalty per
// extra parameter: the series is a DRIFT when the line explains it more
// cheaply than the steps, its slope's 95 % interval excludes 0, and its total
// change over the window is at least min_effect. On the same synthetic
// series a drift of 1 % a night is DRIFT in 97 % of 10-night windows and
// 100 % of longer ones, and a 5 % step is never DRIFT in 20+ nights (2 % at
// 10). A drift that begins inside the window (the last 10 of 20+ nights)
// shows as a staircase of steps.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace oprig::perf {

struct ChangePointOptions {
  double penalty_scale = 2.0;   // k in beta = k * sigma * (1 + 1/sqrt(n-2)) * ln n
  double noise_floor = 1e-3;    // sigma never below 0.1 % (log scale)
  double min_effect = 0.05;     // a drift must total at least this over the window
  size_t min_points = 5;        // fewer nights: too short to say anything
};

struct Segment {
  size_t begin = 0, end = 0;  // nights [begin, end)
  double level = 0;           // median of the segment's values (original scale)
};

struct Trend {
  double ratio_per_point = 1;      // exp(Theil-Sen slope on log values): 1.01 = +1 % a night
  double ratio_low = 1, ratio_high = 1;  // its 95 % interval
  double total_ratio = 1;          // over the whole window: ratio_per_point^(n-1)
  bool significant = false;        // the interval excludes 1
  double intercept = 0;            // log value at night 0 of the fitted line
};

enum class SeriesKind { kTooShort, kFlat, kSteps, kDrift };
std::string_view series_kind_name(SeriesKind kind);  // "TOO_SHORT", "FLAT", "STEPS", "DRIFT"

struct SeriesAnalysis {
  SeriesKind kind = SeriesKind::kTooShort;
  std::vector<Segment> segments;      // the piecewise-constant fit (one segment when flat)
  std::vector<size_t> change_points;  // first night of each segment after the first
  Trend trend;
  double noise = 0;    // sigma, relative (log scale)
  double penalty = 0;  // beta used
  double steps_cost = 0, line_cost = 0;  // the two models' penalised L1 costs
};

// values: positive (times). Throws std::invalid_argument otherwise.
SeriesAnalysis analyse_series(std::span<const double> values, const ChangePointOptions& options = {});

// The exact optimal partition of y under L1 cost with a per-step penalty;
// returns the first index of each segment after the first. Exposed for tests.
std::vector<size_t> l1_optimal_partition(std::span<const double> y, double penalty);

// Robust noise of a series: 1.4826 * MAD(first differences) / sqrt 2.
double robust_noise(std::span<const double> y);

}  // namespace oprig::perf
