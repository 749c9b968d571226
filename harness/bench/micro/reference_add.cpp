// BM_AddConstant: y = x + c over 16M fp32 in this process, the bandwidth
// reference that the Atan kernels are judged against (an elementwise op that
// reads and writes the same bytes as Atan but does no arithmetic to speak
// of). A plain loop the compiler vectorises; with ->Threads(2) Google
// Benchmark runs two threads, each over its own half of the tensors, and
// reports the combined rate over wall time.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

namespace {

constexpr size_t kElements = size_t{1} << 24;

struct AddTensors {
  std::vector<float> x;
  std::vector<float> y;
  AddTensors() : x(kElements), y(kElements) {
    for (size_t i = 0; i < kElements; ++i) x[i] = static_cast<float>(i % 1000) * 0.01f - 5.0f;
  }
};

AddTensors& tensors() {
  static AddTensors shared;  // made once, by whichever thread comes first
  return shared;
}

// Out of line and restrict-qualified so the loop is the one GCC vectorises
// for any caller, not a special case of the benchmark's constants.
__attribute__((noinline)) void add_constant(const float* __restrict x, float* __restrict y, size_t n, float c) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] + c;
}

void BM_AddConstant(benchmark::State& state) {
  AddTensors& t = tensors();
  const size_t share = kElements / static_cast<size_t>(state.threads());
  const size_t begin = share * static_cast<size_t>(state.thread_index());
  for (auto _ : state) {
    add_constant(t.x.data() + begin, t.y.data() + begin, share, 0.5f);
    benchmark::ClobberMemory();
  }
  const auto items = static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(share);
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(items * static_cast<int64_t>(2 * sizeof(float)));
}

}  // namespace

BENCHMARK(BM_AddConstant)->Threads(1)->Threads(2)->UseRealTime()->Unit(benchmark::kMillisecond);
