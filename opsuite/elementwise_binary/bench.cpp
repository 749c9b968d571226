// ElementwiseBinary on the cpu backend through the package ABI, 16M fp32,
// compared with BM_AddConstant (harness/bench/micro/reference_add.cpp, the
// in-process bandwidth reference) from the same run:
//   BM_ElementwiseBinaryCpu/op:K/threads:N   — same shapes, operation K (0 ADD, 3 DIV, 4 MAX)
//   BM_ElementwiseBinaryCpuRowBroadcast/threads:N — [4096, 4096] + [4096]
// ADD reads 8 bytes and writes 4 per element, the reference reads 4 and
// writes 4: compare bytes/s (bytes_per_second), not elements/s.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

constexpr int64_t kElements = int64_t{1} << 24;
const char* const kOperations[] = {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW"};

std::vector<float> values(int64_t n, float scale) {
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = (static_cast<float>(i % 997) + 1.0f) * scale;
  return v;
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads, int op, std::vector<int64_t> a_shape, std::vector<int64_t> b_shape) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  int64_t na = 1, nb = 1;
  for (int64_t d : a_shape) na *= d;
  for (int64_t d : b_shape) nb *= d;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "ElementwiseBinary", ParamList().add_string("operation", kOperations[op]),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, a_shape, values(na, 0.01f)),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, b_shape, values(nb, 0.02f))},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void run(benchmark::State& state, Session& s, int64_t elements) {
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  for (auto _ : state)
    if (s.kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * elements);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * elements * 12);
}

void BM_ElementwiseBinaryCpu(benchmark::State& state) {
  const int op = static_cast<int>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  static std::unique_ptr<Session> sessions[7][3];
  auto& s = sessions[op][threads];
  if (!s) s = make(threads, op, {kElements}, {kElements});
  run(state, *s, kElements);
}

void BM_ElementwiseBinaryCpuRowBroadcast(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  static std::unique_ptr<Session> sessions[3];
  auto& s = sessions[threads];
  if (!s) s = make(threads, 0, {4096, 4096}, {4096});
  run(state, *s, kElements);
}

}  // namespace

BENCHMARK(BM_ElementwiseBinaryCpu)->ArgNames({"op", "threads"})
    ->Args({0, 1})->Args({0, 2})->Args({3, 1})->Args({3, 2})->Args({4, 1})->Args({4, 2})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ElementwiseBinaryCpuRowBroadcast)->ArgName("threads")->Arg(1)->Arg(2)
    ->UseRealTime()->Unit(benchmark::kMillisecond);
