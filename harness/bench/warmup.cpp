#include "bench/warmup.hpp"

#include <algorithm>

namespace oprig::harness {

bool warmup_settled(const std::vector<double>& times_s, const WarmupRule& rule) {
  if (rule.window == 0 || times_s.size() < rule.window) return false;
  const auto [lo, hi] = std::minmax_element(times_s.end() - static_cast<std::ptrdiff_t>(rule.window), times_s.end());
  if (*lo <= 0) return *hi <= 0;
  return (*hi - *lo) / *lo <= rule.max_spread;
}

WarmupResult warm_up(const std::function<double()>& execute_once, const WarmupRule& rule,
                     const std::function<double()>& wall_seconds) {
  WarmupResult out;
  for (;;) {
    out.times_s.push_back(execute_once());
    out.seconds = wall_seconds();
    out.executes = out.times_s.size();
    const bool enough = out.executes >= rule.min_executes && out.seconds >= rule.min_seconds;
    if (enough && warmup_settled(out.times_s, rule)) {
      out.settled = true;
      return out;
    }
    if (out.seconds >= rule.max_seconds) return out;
  }
}

}  // namespace oprig::harness
