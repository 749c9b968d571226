// TopK on the cpu backend through the package ABI against two standard-library
// formulations in the same binary, fp32, largest, sorted:
//   BM_TopKCpu/case:C/threads:N     the kernel
//   BM_TopKPartialSort/case:C       per line: indices 0..n-1, std::partial_sort
//                                   by (value descending, index ascending)
//   BM_TopKNthElement/case:C        per line: (value, index) pairs,
//                                   std::nth_element for the k-th, std::sort of the k
//   BM_TopKOpenCL/case:C, BM_TopKVulkan/case:C
//                                   the device kernels, device time per execute
//                                   (device_kernel_bench.hpp); read against the cpu
//                                   kernel and the same-run probe
//                                   BM_AddConstant{OpenCL,Vulkan} (y = x + c, 16M fp32)
// Cases: 0 — [4096, 4096], k = 10 along the last axis; 1 — one line of 16M,
// k = 100; 2 — [4096, 4096], k = 1024 (large k); 3, 4, 5 — [4096, 1024]
// along the last axis with k = 1, 8, 64 (issue 20's device shapes). Cases
// 0-2 read 64 MiB, 3-5 16 MiB (elements/s). The peers run on one thread and
// do not order NaN (the data has none).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "bench/micro/device_kernel_bench.hpp"
#include "cpu/cpu_backend.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

struct BenchCase {
  std::vector<int64_t> shape;
  int k;
};
const BenchCase kCases[] = {{{4096, 4096}, 10}, {{int64_t{1} << 24}, 100}, {{4096, 4096}, 1024},
                            {{4096, 1024}, 1},   {{4096, 1024}, 8},          {{4096, 1024}, 64}};
constexpr size_t kCaseCount = std::size(kCases);
constexpr int64_t kElements = int64_t{1} << 24;  // of the data; a case may use a prefix

const std::vector<float>& data() {
  static const std::vector<float> v = [] {
    std::vector<float> out(static_cast<size_t>(kElements));
    uint32_t x = 54321;
    for (float& e : out) {
      x = x * 1664525u + 1013904223u;
      e = static_cast<float>(x >> 8) * 0x1p-24f;
    }
    return out;
  }();
  return v;
}

int64_t elements_of(const BenchCase& c) {
  int64_t n = 1;
  for (int64_t d : c.shape) n *= d;
  return n;
}
std::vector<float> prefix(const BenchCase& c) { return {data().begin(), data().begin() + elements_of(c)}; }

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads, const BenchCase& c) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor values{}, indices{};
  values.dtype = OPRIG_DTYPE_FLOAT_32;
  indices.dtype = OPRIG_DTYPE_INT_32;
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "TopK", ParamList().add_int("k", c.k),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, c.shape, prefix(c))},
      std::vector<oprig_tensor>{values, indices});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_TopKCpu(benchmark::State& state) {
  const auto c = static_cast<size_t>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  static std::unique_ptr<Session> sessions[kCaseCount][3];
  auto& s = sessions[c][threads];
  if (!s) s = make(threads, kCases[c]);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * elements_of(kCases[c]));
}

void BM_TopKPartialSort(benchmark::State& state) {
  const BenchCase& c = kCases[state.range(0)];
  const auto n = static_cast<size_t>(c.shape.back()), lines = static_cast<size_t>(kElements) / n;
  const auto k = static_cast<size_t>(c.k);
  const float* x = data().data();
  std::vector<int32_t> order(n), indices(lines * k);
  std::vector<float> values(lines * k);
  for (auto _ : state) {
    for (size_t l = 0; l < lines; ++l) {
      const float* line = x + l * n;
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                        [line](int32_t a, int32_t b) { return line[a] > line[b] || (line[a] == line[b] && a < b); });
      for (size_t j = 0; j < k; ++j) {
        indices[l * k + j] = order[j];
        values[l * k + j] = line[order[j]];
      }
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(indices.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kElements);
}

void BM_TopKNthElement(benchmark::State& state) {
  const BenchCase& c = kCases[state.range(0)];
  const auto n = static_cast<size_t>(c.shape.back()), lines = static_cast<size_t>(kElements) / n;
  const auto k = static_cast<size_t>(c.k);
  const float* x = data().data();
  std::vector<std::pair<float, int32_t>> pairs(n);
  std::vector<int32_t> indices(lines * k);
  std::vector<float> values(lines * k);
  auto before = [](const std::pair<float, int32_t>& a, const std::pair<float, int32_t>& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  for (auto _ : state) {
    for (size_t l = 0; l < lines; ++l) {
      const float* line = x + l * n;
      for (size_t i = 0; i < n; ++i) pairs[i] = {line[i], static_cast<int32_t>(i)};
      const auto kth = pairs.begin() + static_cast<std::ptrdiff_t>(k);
      std::nth_element(pairs.begin(), kth - 1, pairs.end(), before);
      std::sort(pairs.begin(), kth, before);
      for (size_t j = 0; j < k; ++j) {
        values[l * k + j] = pairs[j].first;
        indices[l * k + j] = pairs[j].second;
      }
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(indices.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kElements);
}

void device_top_k(benchmark::State& state, const char* backend) {
  const BenchCase& c = kCases[state.range(0)];
  oprig_tensor values{}, indices{};
  values.dtype = OPRIG_DTYPE_FLOAT_32;
  indices.dtype = OPRIG_DTYPE_INT_32;
  auto& kernel = oprig::bench::device_kernel(
      "top_k/" + std::to_string(state.range(0)), backend, "TopK", ParamList().add_int("k", c.k),
      [&c] { return std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, c.shape, prefix(c))}; },
      {values, indices});
  oprig::bench::time_device_kernel(state, kernel, elements_of(c));
}

void BM_TopKOpenCL(benchmark::State& state) { device_top_k(state, "opencl"); }
void BM_TopKVulkan(benchmark::State& state) { device_top_k(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_TopKCpu)->ArgNames({"case", "threads"})
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {1, 2}})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopKPartialSort)->ArgName("case")->Arg(0)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopKNthElement)->ArgName("case")->Arg(0)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopKOpenCL)->ArgName("case")->DenseRange(0, 5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopKVulkan)->ArgName("case")->DenseRange(0, 5)->UseManualTime()->Unit(benchmark::kMillisecond);
