// The models and inputs both graph benchmarks run (graph_overhead.cpp on
// cpu, graph_device.cpp per backend): a counting WHILE loop and a chain of
// ADDs (graph/add_chain_model.hpp), all INT_32 [1], so their figures read
// against each other.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "graph/prepared_model.hpp"

namespace oprig::bench {

// i = 0; while (i < n) i = i + 1: a one-ADD body and a LESS condition; n is the input.
extern const char* const kCountingLoop;

// An INT_32 [1] input of value `v`.
graph::HostTensor int_input(int32_t v);

// Wall time since `start` (the counters' per-op figures; a counter cannot
// read the benchmark's own clock).
double ns_since(std::chrono::steady_clock::time_point start);

}  // namespace oprig::bench
