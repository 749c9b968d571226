// BM_AtanVulkan: the Atan compute shader through the vulkan backend, both
// tensors resident in device memory, exactly as the harness runs a case.
// Iteration time is the device time between the two timestamp queries the
// backend writes around the kernel (UseManualTime); `wall_ms` beside it is the
// host's view of one whole execute (record, submit, fence wait). Sizes: 16M
// elements (throughput) and 4096 (what one dispatch costs when there is
// almost no work).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kept_until_exit.hpp"
#include "registry.hpp"
#include "core/half.hpp"
#include "oprig/oprig_package.h"
#include "runner/kernel_session.hpp"

namespace {

// Everything one (dtype, size) needs, built on first use and kept: Google
// Benchmark calls the function once per repetition, and lavapipe compiles a
// pipeline in tens of milliseconds.
struct VulkanAtanFixture {
  std::unique_ptr<oprig::Backend> backend;
  const oprig_implementation_v1* impl = nullptr;
  oprig_kernel* kernel = nullptr;
  std::unique_ptr<oprig::DeviceBuffer> src, dst;
  oprig_tensor in{}, out{};
  std::string error;

  ~VulkanAtanFixture() {
    if (kernel != nullptr) impl->destroy(kernel);
    src.reset();
    dst.reset();
  }
  bool ready() const { return dst != nullptr; }
};

VulkanAtanFixture& fixture(oprig_dtype dtype, size_t count) {
  static auto& fixtures = oprig::kept_until_exit<std::map<std::pair<int, size_t>, VulkanAtanFixture>>();  // never destroyed: see there
  auto [it, inserted] = fixtures.try_emplace({dtype, count});
  VulkanAtanFixture& f = it->second;
  if (!inserted) return f;

  f.backend = oprig::create_backend("vulkan", &f.error);
  if (!f.backend) return f;
  f.impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_VULKAN, &f.error);
  if (f.impl == nullptr) return f;
  const float offset = 0.25f;
  const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
  if (f.impl->create(&f.backend->context(), "Atan", &param, 1, &f.kernel) != OPRIG_STATUS_OK) {
    f.error = "Atan create failed";
    return f;
  }
  f.in.dtype = f.out.dtype = dtype;
  f.in.rank = 1;
  f.in.dims[0] = static_cast<int64_t>(count);
  if (f.impl->prepare(f.kernel, &f.in, 1, &f.out, 1) != OPRIG_STATUS_OK) {
    f.error = "Atan prepare failed";
    return f;
  }
  // Uniform over [-12, 12]: all three reduction ranges, in proportions a real
  // activation tensor might have. The shader is branch-free, so the mix does
  // not change its speed.
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> values(-12.0f, 12.0f);
  const size_t element = dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  std::vector<std::byte> host(count * element);
  for (size_t i = 0; i < count; ++i) {
    const float v = values(rng);
    if (element == 2) {
      const uint16_t h = oprig::float_to_half(v);
      std::memcpy(&host[i * 2], &h, 2);
    } else {
      std::memcpy(&host[i * 4], &v, 4);
    }
  }
  f.src = f.backend->allocate(host.size());
  f.dst = f.backend->allocate(host.size());
  f.backend->write(*f.src, host);
  f.src->bind(f.in);
  f.dst->bind(f.out);
  return f;
}

void bench_atan_vulkan(benchmark::State& state, oprig_dtype dtype) {
  const auto count = static_cast<size_t>(state.range(0));
  VulkanAtanFixture& f = fixture(dtype, count);
  if (!f.ready()) {
    state.SkipWithError(("vulkan Atan unavailable: " + f.error).c_str());
    return;
  }
  double wall_ns = 0;
  for (auto _ : state) {
    oprig::ExecTiming timing;
    const auto start = std::chrono::steady_clock::now();
    const oprig_status status = f.backend->execute(*f.impl, f.kernel, {&f.in, 1}, {&f.out, 1}, timing);
    wall_ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    if (status != OPRIG_STATUS_OK) {
      state.SkipWithError("vulkan Atan execute failed");
      return;
    }
    state.SetIterationTime(timing.compute_ns * 1e-9);
  }
  oprig_cost cost{};
  f.impl->cost(f.kernel, &cost);
  const auto iterations = static_cast<int64_t>(state.iterations());
  state.SetItemsProcessed(iterations * static_cast<int64_t>(count));
  state.SetBytesProcessed(iterations * static_cast<int64_t>(cost.bytes_read + cost.bytes_written));
  state.counters["flops"] = benchmark::Counter(
      static_cast<double>(cost.flops) * static_cast<double>(iterations), benchmark::Counter::kIsRate);
  state.counters["wall_ms"] = benchmark::Counter(wall_ns * 1e-6 / static_cast<double>(iterations));
  state.SetLabel(f.backend->info().device_name);
}

void BM_AtanVulkan(benchmark::State& state) { bench_atan_vulkan(state, OPRIG_DTYPE_FLOAT_32); }
void BM_AtanVulkanHalf(benchmark::State& state) { bench_atan_vulkan(state, OPRIG_DTYPE_FLOAT_16); }

}  // namespace

BENCHMARK(BM_AtanVulkan)->Arg(1 << 24)->Arg(1 << 12)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AtanVulkanHalf)->Arg(1 << 24)->UseManualTime()->Unit(benchmark::kMillisecond);
