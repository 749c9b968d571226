// Graph runtime overhead on cpu (runtime/graph):
//  BM_GraphChain1000: one execution of a chain of 1000 INT_32 [1] ADDs; the
//    ns_per_op counter is the executor's cost per operation (step dispatch,
//    shape check, one-element kernel). Target: <= 100 ns per op.
//  BM_GraphWhile100k: a WHILE of 100,000 iterations whose body is one INT_32
//    ADD (and whose condition is one LESS); ns_per_iteration covers binding,
//    the condition, the body, the loop-carried copy and the deadline check.
//    Target: <= 1 us per iteration.
// Run with --benchmark_repetitions=5 and read the medians.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>

#include "registry.hpp"
#include "graph/add_chain_model.hpp"
#include "graph/package_library.hpp"
#include "graph/prepared_model.hpp"
#include "graph_models.hpp"

namespace {

using namespace oprig;
using graph::add_chain_model;
using bench::int_input;
using bench::kCountingLoop;
using bench::ns_since;

struct CpuModel {
  std::unique_ptr<Backend> cpu;
  graph::PreparedModel prepared;
};

CpuModel prepare_on_cpu(const std::string& json) {
  static const graph::PackageLibrary no_packages;
  std::string why;
  CpuModel m{create_backend("cpu", &why), {}};
  const graph::Model model = graph::parse_model(json, "bench.json", ".", no_packages);
  m.prepared = graph::prepare(model, {m.cpu.get(), m.cpu.get()});
  return m;
}

void BM_GraphChain1000(benchmark::State& state) {
  constexpr int kOps = 1000;
  const CpuModel m = prepare_on_cpu(add_chain_model(kOps));
  const std::vector<graph::HostTensor> inputs = {int_input(3)};
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    graph::ExecutionResult r = m.prepared.execute(inputs);
    if (r.status != graph::ExecutionStatus::kOk) state.SkipWithError(r.message.c_str());
    benchmark::DoNotOptimize(r.outputs);
  }
  state.counters["ns_per_op"] = ns_since(start) / (static_cast<double>(kOps) * static_cast<double>(state.iterations()));
}
BENCHMARK(BM_GraphChain1000)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_GraphWhile100k(benchmark::State& state) {
  constexpr int32_t kIterations = 100000;
  const CpuModel m = prepare_on_cpu(kCountingLoop);
  const std::vector<graph::HostTensor> inputs = {int_input(kIterations)};
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    graph::ExecutionResult r = m.prepared.execute(inputs);
    if (r.status != graph::ExecutionStatus::kOk || r.loop_iterations != static_cast<uint64_t>(kIterations))
      state.SkipWithError("the loop did not run 100,000 times");
    benchmark::DoNotOptimize(r.outputs);
  }
  state.counters["ns_per_iteration"] =
      ns_since(start) / (static_cast<double>(kIterations) * static_cast<double>(state.iterations()));
}
BENCHMARK(BM_GraphWhile100k)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace
