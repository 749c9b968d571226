// LayerNorm on the cpu backend through the package ABI, 4096 x 1024 fp32 over
// the last axis with gamma and beta, compared with BM_AddConstant
// (harness/bench/micro/reference_add.cpp, the in-process bandwidth reference)
// from the same run: both read 4 and write 4 bytes per element (gamma and beta,
// 8 KiB, stay in cache), so bytes_per_second compares directly.
//   BM_LayerNormCpu/threads:N
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

constexpr int64_t kRows = 4096, kColumns = 1024;

std::vector<float> values(int64_t n, uint32_t seed, float low, float high) {
  std::vector<float> v(static_cast<size_t>(n));
  for (float& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = low + (high - low) * static_cast<float>(seed >> 8) * 0x1p-24f;
  }
  return v;
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "LayerNorm", ParamList(),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kRows, kColumns}, values(kRows * kColumns, 1, -4, 4)),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kColumns}, values(kColumns, 2, 0.5f, 2)),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kColumns}, values(kColumns, 3, -1, 1))},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_LayerNormCpu(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  static std::unique_ptr<Session> sessions[3];
  auto& s = sessions[threads];
  if (!s) s = make(threads);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  const auto items = static_cast<int64_t>(state.iterations()) * kRows * kColumns;
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(items * 8);
}

}  // namespace

BENCHMARK(BM_LayerNormCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
