// MatMul on the cpu backend through the package ABI against its peers in the
// same process, square fp32 products of 1024 and 2048:
//   BM_MatMulCpu/size:S/threads:T/isa:I  — the kernel (isa 2 AVX-512, 1 AVX2, 0 scalar;
//                                          a path the host lacks is skipped)
//   BM_OpenBlasSgemm/size:S/threads:T    — cblas_sgemm, openblas_set_num_threads(T)
//   BM_OneDnnSgemm/size:S/threads:T      — dnnl_sgemm, omp_set_num_threads(T)
// Counters: FLOP/s (2 S^3 per iteration). Run with
//   --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
// and compare medians within one run: the machine is shared and noisy.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <dnnl.h>
#include <omp.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

extern "C" void openblas_set_num_threads(int num_threads);

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

std::vector<float> matrix(int64_t n, float scale) {
  std::vector<float> v(static_cast<size_t>(n * n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = (static_cast<float>(i % 251) - 125.0f) * scale;
  return v;
}

void set_flops(benchmark::State& state, int64_t n) {
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * static_cast<double>(n) * static_cast<double>(n) *
                                                    static_cast<double>(n) * static_cast<double>(state.iterations()),
                                                benchmark::Counter::kIsRate);
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(int64_t n, unsigned threads, oprig_cpu_isa isa) {
  auto s = std::make_unique<Session>();
  if (isa > oprig::host_cpu_isa()) {
    s->error = "this host lacks the ISA";
    return s;
  }
  s->backend = std::make_unique<oprig::CpuBackend>(threads, isa);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "MatMul", ParamList(),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {n, n}, matrix(n, 1.0f / 128)),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {n, n}, matrix(n, 1.0f / 64))},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_MatMulCpu(benchmark::State& state) {
  const int64_t n = state.range(0);
  const auto threads = static_cast<unsigned>(state.range(1));
  const auto isa = static_cast<oprig_cpu_isa>(state.range(2));
  static std::map<std::tuple<int64_t, unsigned, int>, std::unique_ptr<Session>> sessions;
  auto& s = sessions[{n, threads, isa}];
  if (!s) s = make(n, threads, isa);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  set_flops(state, n);
}

struct Operands {
  std::vector<float> a, b, c;
};

Operands& operands(int64_t n) {
  static std::map<int64_t, Operands> by_size;
  Operands& o = by_size[n];
  if (o.a.empty()) o = {matrix(n, 1.0f / 128), matrix(n, 1.0f / 64), std::vector<float>(static_cast<size_t>(n * n))};
  return o;
}

void BM_OpenBlasSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  Operands& o = operands(n);
  openblas_set_num_threads(static_cast<int>(state.range(1)));
  const auto ni = static_cast<blasint>(n);
  for (auto _ : state)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0f, o.a.data(), ni, o.b.data(), ni, 0.0f,
                o.c.data(), ni);
  set_flops(state, n);
}

void BM_OneDnnSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  Operands& o = operands(n);
  // oneDNN runs on OpenMP here: the thread count is this calling thread's setting.
  omp_set_num_threads(static_cast<int>(state.range(1)));
  for (auto _ : state)
    if (dnnl_sgemm('N', 'N', n, n, n, 1.0f, o.a.data(), n, o.b.data(), n, 0.0f, o.c.data(), n) != dnnl_success)
      state.SkipWithError("dnnl_sgemm failed");
  set_flops(state, n);
}

}  // namespace

BENCHMARK(BM_MatMulCpu)->ArgNames({"size", "threads", "isa"})
    ->ArgsProduct({{1024, 2048}, {1, 2}, {OPRIG_CPU_ISA_AVX512, OPRIG_CPU_ISA_AVX2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OpenBlasSgemm)->ArgNames({"size", "threads"})->ArgsProduct({{1024, 2048}, {1, 2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OneDnnSgemm)->ArgNames({"size", "threads"})->ArgsProduct({{1024, 2048}, {1, 2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
