// Control flow on the devices (runtime/graph with the opsuite's built-in
// kernel map), per backend, against the backend's own floor:
//  BM_GraphWhileIteration/<backend>: one execution of i = 0; while (i < n)
//    i = i + 1 (a one-ADD INT_32 body, a LESS condition) placed entirely on
//    the backend; ns_per_iteration = wall time / n. On opencl and vulkan each
//    iteration is the ADD and the LESS enqueued on the device and one
//    condition byte read back (one submission on vulkan).
//  BM_DeviceLaunchReadbackFloor/<backend>: the least a device iteration can
//    cost: one trivial kernel (an INT_32 [1] ADD of ElementwiseBinary) on
//    the backend's DeviceStream (execute() on host-memory backends) and a
//    4-byte read back; ns_per_launch = wall time per launch.
//  BM_GraphChain/<backend>: one execution of a chain of INT_32 [1] ADDs all
//    on the backend; ns_per_op = the executor's cost per device operation
//    (enqueue without waiting; one read of the result at the end).
// Targets: on opencl and vulkan a WHILE iteration within 2x of the floor. Run
//   oprig_microbench --benchmark_filter='Graph|Floor' --benchmark_repetitions=5
// and compare the medians of the same run.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "graph/add_chain_model.hpp"
#include "graph/package_library.hpp"
#include "kept_until_exit.hpp"
#include "graph/prepared_model.hpp"
#include "graph_models.hpp"
#include "models/builtin_kernels.hpp"
#include "registry.hpp"
#include "runner/suite.hpp"

namespace {

using namespace oprig;
using graph::add_chain_model;
using bench::int_input;
using bench::kCountingLoop;
using bench::ns_since;

// Backends and the map, made once per process: contexts and programs are
// expensive and Google Benchmark calls each function several times. Never
// destroyed (kept_until_exit.hpp: at exit the driver may already be gone).
Backend* backend(const std::string& name) {
  static auto& backends = kept_until_exit<std::map<std::string, std::unique_ptr<Backend>>>();
  auto it = backends.find(name);
  if (it == backends.end()) {
    std::string why;
    it = backends.emplace(name, create_backend(name, &why)).first;
  }
  return it->second.get();
}

const graph::BuiltinKernelMap& builtin_kernels() {
  static const std::unique_ptr<harness::models::OpsuiteBuiltinKernels> map =
      harness::models::OpsuiteBuiltinKernels::bundled();
  return *map;
}

// Prepares `json` entirely on `name`; nullopt (and a skip) when it is not
// there or something fell back.
std::optional<graph::PreparedModel> prepare_all_on(benchmark::State& state, const std::string& name,
                                                   const std::string& json) {
  Backend* target = backend(name);
  if (target == nullptr) {
    state.SkipWithError((name + " is not available").c_str());
    return std::nullopt;
  }
  static const graph::PackageLibrary no_packages;
  const graph::Model model = graph::parse_model(json, "bench.json", ".", no_packages);
  graph::PreparedModel p = graph::prepare(model, {target, backend("cpu")}, {&builtin_kernels()});
  if (!p.placement_notes().empty()) {
    state.SkipWithError(p.placement_notes()[0].c_str());
    return std::nullopt;
  }
  return p;
}

void BM_GraphWhileIteration(benchmark::State& state, const char* name, int32_t iterations) {
  const std::optional<graph::PreparedModel> p = prepare_all_on(state, name, kCountingLoop);
  if (!p) return;
  const std::vector<graph::HostTensor> inputs = {int_input(iterations)};
  p->execute(inputs);  // kernels prepared, constants resident
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    graph::ExecutionResult r = p->execute(inputs);
    if (r.status != graph::ExecutionStatus::kOk || r.loop_iterations != static_cast<uint64_t>(iterations))
      state.SkipWithError(("the loop did not run: " + r.message).c_str());
    benchmark::DoNotOptimize(r.outputs);
  }
  state.counters["ns_per_iteration"] =
      ns_since(start) / (static_cast<double>(iterations) * static_cast<double>(state.iterations()));
}
// The cpu figure of the target is BM_GraphWhile100k (graph_overhead.cpp).
BENCHMARK_CAPTURE(BM_GraphWhileIteration, dsp, "dsp", 10000)
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_GraphWhileIteration, opencl, "opencl", 1000)
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_GraphWhileIteration, vulkan, "vulkan", 1000)
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_GraphChain(benchmark::State& state, const char* name, int ops) {
  const std::optional<graph::PreparedModel> p = prepare_all_on(state, name, add_chain_model(ops));
  if (!p) return;
  const std::vector<graph::HostTensor> inputs = {int_input(3)};
  p->execute(inputs);
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    graph::ExecutionResult r = p->execute(inputs);
    if (r.status != graph::ExecutionStatus::kOk) state.SkipWithError(r.message.c_str());
    benchmark::DoNotOptimize(r.outputs);
  }
  state.counters["ns_per_op"] = ns_since(start) / (static_cast<double>(ops) * static_cast<double>(state.iterations()));
}
BENCHMARK_CAPTURE(BM_GraphChain, dsp, "dsp", 1000)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_GraphChain, opencl, "opencl", 100)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_GraphChain, vulkan, "vulkan", 100)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// One ElementwiseBinary ADD instance on [1] INT_32 tensors resident on the backend.
struct FloorKernel {
  std::unique_ptr<Package> package;
  const oprig_implementation_v1* impl = nullptr;
  oprig_kernel* kernel = nullptr;
  std::unique_ptr<DeviceBuffer> a, b, y;
  oprig_tensor in[2] = {}, out[1] = {};
  ~FloorKernel() {
    if (kernel != nullptr) impl->destroy(kernel);
  }
};

std::string make_floor_kernel(Backend& target, FloorKernel& k) {
  k.package = Package::load(harness::default_package_path());
  std::string why;
  k.impl = k.package->implementation(target.kind(), &why);
  if (k.impl == nullptr) return why;
  const uint32_t add = 0;
  const oprig_param param{"operation", OPRIG_DTYPE_UINT_32, 1, &add};
  if (k.impl->create(&target.context(), "ElementwiseBinary", &param, 1, &k.kernel) != OPRIG_STATUS_OK)
    return "create() failed";
  for (oprig_tensor* t : {&k.in[0], &k.in[1], &k.out[0]}) {
    t->dtype = OPRIG_DTYPE_INT_32;
    t->rank = 1;
    t->dims[0] = 1;
    t->bytes = 4;
  }
  if (k.impl->prepare(k.kernel, k.in, 2, k.out, 1) != OPRIG_STATUS_OK) return "prepare() failed";
  k.a = target.allocate(4);
  k.b = target.allocate(4);
  k.y = target.allocate(4);
  const int32_t two = 2;
  target.write(*k.a, std::as_bytes(std::span(&two, 1)));
  target.write(*k.b, std::as_bytes(std::span(&two, 1)));
  k.a->bind(k.in[0]);
  k.b->bind(k.in[1]);
  k.y->bind(k.out[0]);
  return {};
}

void BM_DeviceLaunchReadbackFloor(benchmark::State& state, const char* name) {
  Backend* target = backend(name);
  if (target == nullptr) return state.SkipWithError((std::string(name) + " is not available").c_str());
  FloorKernel k;
  if (const std::string why = make_floor_kernel(*target, k); !why.empty()) return state.SkipWithError(why.c_str());
  const bool host_memory = target->kind() == OPRIG_BACKEND_CPU || target->kind() == OPRIG_BACKEND_DSP;
  std::unique_ptr<DeviceStream> stream = target->open_stream();
  int32_t result = 0;
  const auto bytes = std::as_writable_bytes(std::span(&result, 1));
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (host_memory) {
      ExecTiming timing;
      if (target->execute(*k.impl, k.kernel, k.in, k.out, timing) != OPRIG_STATUS_OK) state.SkipWithError("execute");
      target->read(*k.y, bytes);
    } else {
      if (stream->enqueue(*k.impl, k.kernel, k.in, k.out) != OPRIG_STATUS_OK) state.SkipWithError("enqueue");
      stream->read(*k.y, bytes);
    }
    if (result != 4) state.SkipWithError("2 + 2 is not 4 on this device");
  }
  state.counters["ns_per_launch"] = ns_since(start) / static_cast<double>(state.iterations());
}
BENCHMARK_CAPTURE(BM_DeviceLaunchReadbackFloor, dsp, "dsp")->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_DeviceLaunchReadbackFloor, opencl, "opencl")->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_DeviceLaunchReadbackFloor, vulkan, "vulkan")->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace
