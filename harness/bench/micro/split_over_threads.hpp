// The timed loop of a hand-written peer (memcpy per row or chunk, one flat
// memcpy) on one or two threads: with two, the caller takes the first half of
// the units and one std::thread the second, each iteration, as BM_AddConstant
// does (a thread start is part of the figure, as it is in any caller's own
// loop). Used by the memcpy peers of Concat's, Crop's and Split's bench.cpp.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <thread>

namespace oprig::bench {

// Calls body(begin, end) over [0, units) per iteration on `threads` (1 or 2).
template <class Body>
void split_over_threads(benchmark::State& state, int64_t threads, int64_t units, Body body) {
  const int64_t half = units / 2;
  for (auto _ : state) {
    if (threads == 1) {
      body(0, units);
    } else {
      std::thread second([&] { body(half, units); });
      body(0, half);
      second.join();
    }
    benchmark::ClobberMemory();
  }
}

}  // namespace oprig::bench
