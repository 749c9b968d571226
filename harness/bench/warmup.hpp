// The warm-up rule of `oprig bench`, applied before a benchmark's first timed
// repetition. Caches, branch predictors, page tables, lazy driver state
// (PoCL builds, Mesa pipeline caches) and CPU frequency all settle over the
// first executes; the Atan sample [306 ms, 11.8, 12.4, 4.9, ...] is
// what timing without it looks like.
//
// Rule: execute at least `min_executes` times and for at least `min_seconds`
// of wall time, then keep executing until the last `window` execute times
// spread by no more than `max_spread` ((max - min) / min), or until
// `max_seconds` of warm-up have passed. A warm-up that hits the cap is
// reported as not settled (the benchmark still runs; its row says so).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace oprig::harness {

struct WarmupRule {
  size_t window = 5;
  double max_spread = 0.05;
  size_t min_executes = 5;
  double min_seconds = 0.05;
  double max_seconds = 1.0;
};

struct WarmupResult {
  size_t executes = 0;
  double seconds = 0;    // wall time the warm-up took
  bool settled = false;  // the last `window` times met max_spread before the cap
  std::vector<double> times_s;  // every execute's time, in order
};

// True when the last `window` entries of `times_s` spread by no more than `max_spread`.
bool warmup_settled(const std::vector<double>& times_s, const WarmupRule& rule);

// Calls `execute_once` (returns the seconds one execute took, by whatever
// clock the benchmark is timed with) until the rule is met. `wall_seconds`
// returns the wall time since the warm-up began (injectable for tests).
WarmupResult warm_up(const std::function<double()>& execute_once, const WarmupRule& rule,
                     const std::function<double()>& wall_seconds);

}  // namespace oprig::harness
