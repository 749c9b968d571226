// The cpu Atan kernel (liboprig_opsuite_cpu.so), loaded through the package
// ABI and run on the cpu backend as the harness runs it:
//   BM_AtanCpu/threads:N  — 16M fp32 (uniform in [-10, 10], offset 0.5) on a
//                           CpuBackend with an N-thread pool; wall time.
//   BM_StdAtan            — the same tensors through a scalar std::atan loop,
//                           the naive baseline.
//   BM_DispatchAtanOneElement{Direct,Backend} — one-element execute, called
//                           as impl->execute directly and through
//                           Backend::execute: the fixed cost of a call.
// Compare BM_AtanCpu with BM_AddConstant (reference_add.cpp) from the same run.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "backend.hpp"
#include "cpu/cpu_backend.hpp"
#include "oprig/oprig_package.h"
#include "runner/kernel_session.hpp"

namespace {

constexpr size_t kElements = size_t{1} << 24;
constexpr float kOffset = 0.5f;

// One backend with its own pool size, a prepared kernel and resident
// tensors; made on first use and kept, so repetitions measure execute only.
struct AtanCpuSession {
  std::unique_ptr<oprig::CpuBackend> backend;
  const oprig_implementation_v1* impl = nullptr;
  oprig_kernel* kernel = nullptr;
  std::unique_ptr<oprig::DeviceBuffer> src, dst;
  oprig_tensor in{}, out{};
  std::string error;

  AtanCpuSession(unsigned threads, size_t n) {
    backend = std::make_unique<oprig::CpuBackend>(threads);
    impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &error);
    if (impl == nullptr) return;
    const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &kOffset};
    if (impl->create(&backend->context(), "Atan", &param, 1, &kernel) != OPRIG_STATUS_OK) {
      error = "create failed";
      return;
    }
    in.dtype = out.dtype = OPRIG_DTYPE_FLOAT_32;
    in.rank = 1;
    in.dims[0] = static_cast<int64_t>(n);
    if (impl->prepare(kernel, &in, 1, &out, 1) != OPRIG_STATUS_OK) {
      error = "prepare failed";
      return;
    }
    std::vector<float> host = inputs(n);
    src = backend->allocate(n * sizeof(float));
    dst = backend->allocate(n * sizeof(float));
    backend->write(*src, std::as_bytes(std::span(host)));
    backend->write(*dst, std::as_bytes(std::span(host)));  // fault the pages in before timing
    src->bind(in);
    dst->bind(out);
  }
  ~AtanCpuSession() {
    if (kernel != nullptr) impl->destroy(kernel);
  }
  bool ready() const { return dst != nullptr; }

  // Uniform in [-10, 10] (as BM_AtanOpenCL): every reduction branch is taken.
  static std::vector<float> inputs(size_t n) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
    std::vector<float> v(n);
    for (float& e : v) e = dist(rng);
    return v;
  }
};

// Function-local statics: each session is made when first used and lives to exit.
AtanCpuSession& large_session(unsigned threads) {
  if (threads == 1) {
    static AtanCpuSession single(1, kElements);
    return single;
  }
  static AtanCpuSession dual(2, kElements);
  return dual;
}

// On 2 threads as on this machine's default; with one element parallel_for
// runs the only chunk on the caller.
AtanCpuSession& one_element_session() {
  static AtanCpuSession one(2, 1);
  return one;
}

void BM_AtanCpu(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  AtanCpuSession& s = large_session(threads);
  if (!s.ready()) {
    state.SkipWithError(("cpu Atan unavailable: " + s.error).c_str());
    return;
  }
  for (auto _ : state) {
    oprig::ExecTiming timing;
    if (s.backend->execute(*s.impl, s.kernel, {&s.in, 1}, {&s.out, 1}, timing) != OPRIG_STATUS_OK) {
      state.SkipWithError("execute failed");
      return;
    }
    benchmark::ClobberMemory();
  }
  const auto items = static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kElements);
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(items * static_cast<int64_t>(2 * sizeof(float)));
  state.SetLabel(s.backend->info().device_name);
}

void BM_StdAtan(benchmark::State& state) {
  static const std::vector<float> x = AtanCpuSession::inputs(kElements);
  static std::vector<float> y(kElements);
  for (auto _ : state) {
    for (size_t i = 0; i < kElements; ++i) y[i] = std::atan(x[i] + kOffset);
    benchmark::ClobberMemory();
  }
  const auto items = static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kElements);
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(items * static_cast<int64_t>(2 * sizeof(float)));
}

void BM_DispatchAtanOneElementDirect(benchmark::State& state) {
  AtanCpuSession& s = one_element_session();
  if (!s.ready()) {
    state.SkipWithError(("cpu Atan unavailable: " + s.error).c_str());
    return;
  }
  oprig_execute_info info{};
  info.struct_size = sizeof info;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s.impl->execute(s.kernel, &s.in, 1, &s.out, 1, &info));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void BM_DispatchAtanOneElementBackend(benchmark::State& state) {
  AtanCpuSession& s = one_element_session();
  if (!s.ready()) {
    state.SkipWithError(("cpu Atan unavailable: " + s.error).c_str());
    return;
  }
  oprig::Backend& backend = *s.backend;  // through the virtual interface, as the harness calls it
  for (auto _ : state) {
    oprig::ExecTiming timing;
    benchmark::DoNotOptimize(backend.execute(*s.impl, s.kernel, {&s.in, 1}, {&s.out, 1}, timing));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

}  // namespace

BENCHMARK(BM_AtanCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StdAtan)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DispatchAtanOneElementDirect)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_DispatchAtanOneElementBackend)->Unit(benchmark::kNanosecond);
