// The warm-up rule of `oprig bench` (harness/bench/warmup.hpp) on scripted
// execute times and a scripted wall clock: it stops as soon as the last
// `window` times agree within max_spread, never before min_executes and
// min_seconds, and gives up (not settled) at max_seconds.
#include <gtest/gtest.h>

#include <vector>

#include "bench/warmup.hpp"

namespace oprig::harness {
namespace {

// Each execute returns the next scripted time and advances the wall clock by it.
struct Script {
  std::vector<double> times;
  size_t next = 0;
  double wall = 0;
  double execute() {
    const double t = times[std::min(next++, times.size() - 1)];
    wall += t;
    return t;
  }
};

WarmupResult run(Script& s, const WarmupRule& rule) {
  return warm_up([&] { return s.execute(); }, rule, [&] { return s.wall; });
}

TEST(Warmup, StopsWhenTheLastWindowAgrees) {
  // A slow first execute (cold caches, lazy driver state), then steady 10 ms.
  Script s{{0.306, 0.0118, 0.0124, 0.0101, 0.0100, 0.0102, 0.0101, 0.0100, 0.0100}};
  WarmupRule rule;  // window 5, 5 %, at least 5 executes and 50 ms
  const WarmupResult r = run(s, rule);
  EXPECT_TRUE(r.settled);
  // The last 5 of the first 8 are 0.0101 0.0100 0.0102 0.0101 0.0100: spread 2 %.
  EXPECT_EQ(r.executes, 8u);
}

TEST(Warmup, NeverStopsBeforeTheMinimumExecutesAndSeconds) {
  Script s{{0.0625}};  // steady from the start (a binary fraction: the sums are exact)
  WarmupRule rule;
  rule.min_seconds = 0.5;
  EXPECT_EQ(run(s, rule).executes, 8u);  // 0.5 s of warm-up at 62.5 ms an execute
  Script quick{{0.0625}};
  rule.min_seconds = 0;
  const WarmupResult r = run(quick, rule);
  EXPECT_TRUE(r.settled);
  EXPECT_EQ(r.executes, 5u);  // min_executes
}

TEST(Warmup, GivesUpAtTheCapAndSaysSo) {
  Script s;
  std::vector<double> alternating;
  for (int i = 0; i < 200; ++i) alternating.push_back(i % 2 ? 0.020 : 0.010);  // 100 % spread forever
  s.times = alternating;
  WarmupRule rule;
  const WarmupResult r = run(s, rule);
  EXPECT_FALSE(r.settled);
  EXPECT_GE(r.seconds, rule.max_seconds);
  EXPECT_LT(r.seconds, rule.max_seconds + 0.021);  // stops at the first execute past the cap
}

TEST(Warmup, SpreadIsMeasuredOverTheWindowOnly) {
  WarmupRule rule;
  rule.window = 3;
  rule.max_spread = 0.10;
  EXPECT_FALSE(warmup_settled({1.0, 1.0}, rule));              // fewer than the window
  EXPECT_TRUE(warmup_settled({5.0, 1.0, 1.05, 1.09}, rule));   // 9 %: the 5.0 is outside the window
  EXPECT_FALSE(warmup_settled({1.0, 1.0, 1.05, 1.11}, rule));  // 11 %
}

}  // namespace
}  // namespace oprig::harness
