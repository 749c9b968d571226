// BM_AddConstant: y = x + c over 16M fp32 in this process, the bandwidth
// reference the Atan kernels are judged against: an elementwise op that
// reads and writes the same bytes as Atan and does almost no arithmetic.
// A plain loop the compiler vectorises. With threads:2 the caller takes the
// first half and one std::thread the second, each iteration, so the figure
// is the wall time of the whole tensor on both cores (a thread start costs
// tens of microseconds against milliseconds of work).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <thread>
#include <vector>

namespace {

constexpr size_t kElements = size_t{1} << 24;
constexpr float kConstant = 0.5f;

// Out of line and restrict-qualified: the loop GCC vectorises for any
// caller, not a special case of the benchmark's constants.
__attribute__((noinline)) void add_constant(const float* __restrict x, float* __restrict y, size_t n, float c) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] + c;
}

void BM_AddConstant(benchmark::State& state) {
  const auto threads = static_cast<size_t>(state.range(0));
  static const std::vector<float> x = [] {
    std::vector<float> v(kElements);
    for (size_t i = 0; i < kElements; ++i) v[i] = static_cast<float>(i % 1000) * 0.01f - 5.0f;
    return v;
  }();
  static std::vector<float> y(kElements, 0.0f);  // zero-filled: pages faulted in before timing
  const size_t half = kElements / 2;
  for (auto _ : state) {
    if (threads == 1) {
      add_constant(x.data(), y.data(), kElements, kConstant);
    } else {
      std::thread second([&] { add_constant(x.data() + half, y.data() + half, kElements - half, kConstant); });
      add_constant(x.data(), y.data(), half, kConstant);
      second.join();
    }
    benchmark::ClobberMemory();
  }
  const auto items = static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kElements);
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(items * static_cast<int64_t>(2 * sizeof(float)));
}

}  // namespace

BENCHMARK(BM_AddConstant)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
