// Prints how often analyse_series (harness/perf/change_points.hpp) calls a
// synthetic series FLAT, STEPS or DRIFT: noise only (1 % Gaussian or
// Student-t3), a 5 % step in the middle or in the last 3 nights, a drift of
// 1 % a night over the whole window or its last 10 nights. The rates quoted
// in change_points.hpp come from this program (fixed seed). Not a test: a
// measurement, run by hand: build/tests/perf/oprig_change_point_rates
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include "perf/change_points.hpp"
using namespace oprig::perf;
int main() {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g(0, 0.01);
  std::student_t_distribution<double> t3(3);
  for (int n : {6, 10, 20, 30, 60, 90}) {
    const int trials = 200;
    std::map<std::string, std::map<std::string, int>> counts;
    for (int r = 0; r < trials; ++r) {
      auto gen = [&](const std::string& kind) {
        std::vector<double> v;
        for (int i = 0; i < n; ++i) {
          double e = kind == "noise_t3" ? 0.01 * t3(rng) : g(rng);
          double level = 0;
          if (kind == "step5_mid" && i >= n / 2) level = 0.05;
          if (kind == "step5_last3" && i >= n - 3) level = 0.05;
          if (kind == "drift1") level = 0.01 * i;
          if (kind == "drift1_last10") level = 0.01 * std::max(0, i - (n - 10));
          v.push_back(std::exp(level) * (1 + e));
        }
        return v;
      };
      for (std::string kind : {"noise", "noise_t3", "step5_mid", "step5_last3", "drift1", "drift1_last10"}) {
        auto a = analyse_series(gen(kind));
        counts[kind][std::string(series_kind_name(a.kind))]++;
      }
    }
    for (auto& [kind, c] : counts) {
      std::printf("n=%2d %-14s", n, kind.c_str());
      for (auto& [k, v] : c) std::printf(" %s=%.0f%%", k.c_str(), 100.0 * v / trials);
      std::printf("\n");
    }
  }
}
