#include "bench/machine_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <benchmark/benchmark.h>

namespace oprig::harness {
namespace {

using Clock = std::chrono::steady_clock;

double ns_of(Clock::time_point t0) { return std::chrono::duration<double, std::nano>(Clock::now() - t0).count(); }

// About 1 ms: each multiply-add waits for the previous one, so the time is
// the core's latency, not what the compiler or the memory system make of it.
double dependent_chain() {
  double x = 1.0;
  for (int i = 0; i < 250000; ++i) {
    x = x * 0.999999 + 1e-7;
    benchmark::DoNotOptimize(x);
  }
  return x;
}

}  // namespace

MachineProbe::MachineProbe(size_t copy_bytes) : source_(copy_bytes, 1), target_(copy_bytes, 0) {}

ProbeSample MachineProbe::measure() {
  ProbeSample best{1e300, 1e300};
  for (int attempt = 0; attempt < 2; ++attempt) {
    Clock::time_point t0 = Clock::now();
    std::memcpy(target_.data(), source_.data(), source_.size());
    benchmark::ClobberMemory();
    best.copy_ns = std::min(best.copy_ns, ns_of(t0));
    t0 = Clock::now();
    benchmark::DoNotOptimize(dependent_chain());
    best.compute_ns = std::min(best.compute_ns, ns_of(t0));
  }
  return best;
}

}  // namespace oprig::harness
