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
#include <cstring>
#include <memory>
#include <string>

#include "registry.hpp"
#include "graph/package_library.hpp"
#include "graph/prepared_model.hpp"

namespace {

using namespace oprig;

std::string add_chain_model(int n) {
  std::string operands = R"({"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},)"
                         R"({"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [1]})";
  std::string operations;
  for (int i = 0; i < n; ++i) {
    operands += std::string(R"(,{"type": "INT_32", "dims": [1], "lifetime": ")") +
                (i == n - 1 ? "SUBGRAPH_OUTPUT" : "TEMPORARY") + "\"}";
    operations += (i ? "," : "") + std::string(R"({"type": "ADD", "inputs": [)") + std::to_string(i == 0 ? 0 : i + 1) +
                  ",1], \"outputs\": [" + std::to_string(i + 2) + "]}";
  }
  return R"({"format": "oprig.model/1", "subgraphs": [{"operands": [)" + operands + R"(], "operations": [)" +
         operations + R"(], "inputs": [0], "outputs": [)" + std::to_string(n + 1) + "]}]}";
}

// i = 0; while (i < n) i = i + 1.
const char* kCountingLoop = R"({"format": "oprig.model/1", "subgraphs": [
  {"operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 1},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 2},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "WHILE", "inputs": [2, 3, 1, 0], "outputs": [4]}],
   "inputs": [0], "outputs": [4]},
  {"operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "BOOL_8", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "LESS", "inputs": [0, 1], "outputs": [2]}],
   "inputs": [0, 1], "outputs": [2]},
  {"operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [1]},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "ADD", "inputs": [0, 2], "outputs": [3]}],
   "inputs": [0, 1], "outputs": [3]}]})";

graph::HostTensor int_input(int32_t v) {
  graph::HostTensor t;
  t.dtype = OPRIG_DTYPE_INT_32;
  t.shape = {1};
  t.data.resize(sizeof v);
  std::memcpy(t.data.data(), &v, sizeof v);
  return t;
}

// Wall time of the timed loop (the counters' per-op figures; a counter
// cannot read the benchmark's own clock).
double ns_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

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
