// BM_AtanOpenCL: the Atan OpenCL kernel over 16M elements with both tensors
// resident on the device, run through the opencl backend exactly as the
// harness runs it. Iteration time is device time from profiling events
// (UseManualTime); the wall time of the whole execute (enqueue, wait, event
// queries) is reported beside it as the wall_ms counter.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kept_until_exit.hpp"
#include "registry.hpp"
#include "core/half.hpp"
#include "oprig/oprig_package.h"
#include "runner/kernel_session.hpp"

namespace {

// Backend, kernel and resident tensors, made once per (dtype, size) and kept
// for the process: Google Benchmark calls the function several times, and a
// fresh context each time would rebuild the program each time.
struct AtanSession {
  std::unique_ptr<oprig::Backend> backend;
  const oprig_implementation_v1* impl = nullptr;
  oprig_kernel* kernel = nullptr;
  std::unique_ptr<oprig::DeviceBuffer> src;
  std::unique_ptr<oprig::DeviceBuffer> dst;
  oprig_tensor in{};
  oprig_tensor out{};
  std::string error;

  ~AtanSession() {
    if (kernel != nullptr) impl->destroy(kernel);
  }
};

AtanSession& session(oprig_dtype dtype, size_t n) {
  static auto& sessions = oprig::kept_until_exit<std::map<std::pair<int, size_t>, AtanSession>>();  // never destroyed: see there
  auto [it, fresh] = sessions.try_emplace({dtype, n});
  AtanSession& s = it->second;
  if (!fresh) return s;

  s.backend = oprig::create_backend("opencl", &s.error);
  if (s.backend == nullptr) return s;
  s.impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_OPENCL, &s.error);
  if (s.impl == nullptr) return s;
  const float offset = 0.5f;
  const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
  if (s.impl->create(&s.backend->context(), "Atan", &param, 1, &s.kernel) != OPRIG_STATUS_OK) {
    s.error = "create failed";
    return s;
  }
  s.in.dtype = s.out.dtype = dtype;
  s.in.rank = 1;
  s.in.dims[0] = static_cast<int64_t>(n);
  if (s.impl->prepare(s.kernel, &s.in, 1, &s.out, 1) != OPRIG_STATUS_OK) {
    s.error = "prepare failed";
    return s;
  }
  // Uniform in [-10, 10]: every branch of the range reduction is taken.
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  const size_t element = dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  std::vector<std::byte> host(n * element);
  for (size_t i = 0; i < n; ++i) {
    const float v = dist(rng);
    if (element == 2) {
      const uint16_t h = oprig::float_to_half(v);
      std::memcpy(&host[i * 2], &h, 2);
    } else {
      std::memcpy(&host[i * 4], &v, 4);
    }
  }
  s.src = s.backend->allocate(host.size());
  s.dst = s.backend->allocate(host.size());
  s.backend->write(*s.src, host);
  s.src->bind(s.in);
  s.dst->bind(s.out);
  return s;
}

void run_atan(benchmark::State& state, oprig_dtype dtype) {
  const size_t n = static_cast<size_t>(state.range(0));
  AtanSession& s = session(dtype, n);
  if (s.kernel == nullptr || s.src == nullptr) {
    state.SkipWithError(("opencl Atan unavailable: " + s.error).c_str());
    return;
  }
  double wall_ns = 0;
  for (auto _ : state) {
    oprig::ExecTiming timing;
    const auto start = std::chrono::steady_clock::now();
    const oprig_status status = s.backend->execute(*s.impl, s.kernel, {&s.in, 1}, {&s.out, 1}, timing);
    wall_ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    if (status != OPRIG_STATUS_OK) {
      state.SkipWithError("execute failed");
      return;
    }
    state.SetIterationTime(timing.compute_ns * 1e-9);
  }
  oprig_cost cost{};
  s.impl->cost(s.kernel, &cost);
  const auto iterations = static_cast<int64_t>(state.iterations());
  state.SetItemsProcessed(iterations * static_cast<int64_t>(n));
  state.SetBytesProcessed(iterations * static_cast<int64_t>(cost.bytes_read + cost.bytes_written));
  state.counters["wall_ms"] = benchmark::Counter(wall_ns * 1e-6 / static_cast<double>(iterations));
  state.counters["flops"] = benchmark::Counter(static_cast<double>(cost.flops) * static_cast<double>(iterations),
                                               benchmark::Counter::kIsRate);
  state.SetLabel(s.backend->info().device_name);
}

void BM_AtanOpenCL(benchmark::State& state) { run_atan(state, OPRIG_DTYPE_FLOAT_32); }
void BM_AtanOpenCLHalf(benchmark::State& state) { run_atan(state, OPRIG_DTYPE_FLOAT_16); }

}  // namespace

BENCHMARK(BM_AtanOpenCL)->Arg(1 << 24)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AtanOpenCLHalf)->Arg(1 << 24)->UseManualTime()->Unit(benchmark::kMillisecond);
