// MatMul through the package ABI against its peers in the same process,
// square products of 1024 and 2048:
//   BM_MatMulCpu/size:S/threads:T/isa:I  — the cpu kernel (isa 2 AVX-512, 1 AVX2, 0 scalar;
//                                          a path the host lacks is skipped)
//   BM_OpenBlasSgemm/size:S/threads:T    — cblas_sgemm, openblas_set_num_threads(T)
//   BM_OneDnnSgemm/size:S/threads:T      — dnnl_sgemm, omp_set_num_threads(T)
//   BM_MatMulOpenCL/size:S/half:H        — the opencl kernel, fp32 (H 0) or fp16 (H 1)
//   BM_MatMulVulkan/size:S/half:H        — the vulkan kernel, likewise
//   BM_ClBlastSgemm/size:S               — CLBlastSgemm on the opencl backend's own
//                                          context and queue (the same device), warmed
//                                          up first: its first call compiles its kernels
// Counters: FLOP/s (2 S^3 per iteration; the device rows' `flops` counter is
// the same from the kernel's cost()). The device rows take device time (the
// opencl and vulkan backends' event and timestamp timers; CLBlast's from a
// marker before its first kernel to the end of its last). Run with
//   --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
// and compare medians within one run: the machine is shared and noisy.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <dnnl.h>
#include <omp.h>

#if OPRIG_BENCH_CLBLAST
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <clblast_c.h>
#endif

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "device_kernel_bench.hpp"
#include "kept_until_exit.hpp"
#include "registry.hpp"
#include "runner/kernel_session.hpp"
#if OPRIG_BENCH_CLBLAST
#include "common/clblast_at_exit.hpp"
#endif

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

// ---- device kernels -----------------------------------------------------------------

HostTensor device_matrix(int64_t n, float scale, bool half) {
  std::vector<float> v = matrix(n, scale);
  if (!half) return HostTensor::of(OPRIG_DTYPE_FLOAT_32, {n, n}, v);
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) h[i] = oprig::float_to_half(v[i]);
  return HostTensor::of(OPRIG_DTYPE_FLOAT_16, {n, n}, h);
}

void matmul_device(benchmark::State& state, const char* backend) {
  const int64_t n = state.range(0);
  const bool half = state.range(1) != 0;
  auto& kernel = oprig::bench::device_kernel(
      "matmul/" + std::to_string(n) + (half ? "/f16" : "/f32"), backend, "MatMul", ParamList(),
      [&] { return std::vector<HostTensor>{device_matrix(n, 1.0f / 128, half), device_matrix(n, 1.0f / 64, half)}; },
      {oprig::bench::output_of(half ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32)});
  oprig::bench::time_device_kernel(state, kernel, n * n);
  if (kernel.session != nullptr) set_flops(state, n);
}

void BM_MatMulOpenCL(benchmark::State& state) { matmul_device(state, "opencl"); }
void BM_MatMulVulkan(benchmark::State& state) { matmul_device(state, "vulkan"); }

#if OPRIG_BENCH_CLBLAST
// Device buffers of A, B and C on the opencl backend's context, and one
// finished call of CLBlastSgemm at this size (its kernels compiled).
struct ClBlastOperands {
  std::unique_ptr<oprig::Backend> backend;
  cl_command_queue queue = nullptr;
  cl_mem a = nullptr, b = nullptr, c = nullptr;
  std::string error;
  ~ClBlastOperands() {
    for (cl_mem m : {a, b, c})
      if (m != nullptr) clReleaseMemObject(m);
  }
};

// Device time of one call: from a marker enqueued before it to the end of its last kernel.
double clblast_sgemm_seconds(const ClBlastOperands& o, int64_t n, CLBlastStatusCode* status) {
  cl_event start = nullptr, end = nullptr;
  cl_command_queue queue = o.queue;
  if (clEnqueueMarkerWithWaitList(queue, 0, nullptr, &start) != CL_SUCCESS) {
    *status = CLBlastInvalidOperation;
    return 0;
  }
  const auto size = static_cast<size_t>(n);
  *status = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, size, size, size, 1.0f, o.a, 0,
                         size, o.b, 0, size, 0.0f, o.c, 0, size, &queue, &end);
  double seconds = 0;
  if (*status == CLBlastSuccess && clWaitForEvents(1, &end) == CL_SUCCESS) {
    cl_ulong t0 = 0, t1 = 0;
    clGetEventProfilingInfo(start, CL_PROFILING_COMMAND_END, sizeof t0, &t0, nullptr);
    clGetEventProfilingInfo(end, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr);
    seconds = static_cast<double>(t1 - t0) * 1e-9;
  }
  clReleaseEvent(start);
  if (end != nullptr) clReleaseEvent(end);
  return seconds;
}

ClBlastOperands& clblast_operands(int64_t n) {
  // Never destroyed, the backend with them (kept_until_exit.hpp: at exit the driver may already be gone).
  static auto& by_size = oprig::kept_until_exit<std::map<int64_t, ClBlastOperands>>();
  auto [it, fresh] = by_size.try_emplace(n);
  ClBlastOperands& o = it->second;
  if (!fresh) return o;
  o.backend = oprig::create_backend("opencl", &o.error);
  if (o.backend == nullptr) return o;
  const oprig_backend_context& ctx = o.backend->context();
  const auto context = static_cast<cl_context>(ctx.cl_context);
  o.queue = static_cast<cl_command_queue>(ctx.cl_queue);
  const std::vector<float> a = matrix(n, 1.0f / 128), b = matrix(n, 1.0f / 64);
  const size_t bytes = a.size() * sizeof(float);
  cl_int e1 = CL_SUCCESS, e2 = CL_SUCCESS, e3 = CL_SUCCESS;
  o.a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, const_cast<float*>(a.data()), &e1);
  o.b = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, const_cast<float*>(b.data()), &e2);
  o.c = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &e3);
  if (e1 != CL_SUCCESS || e2 != CL_SUCCESS || e3 != CL_SUCCESS) {
    o.error = "clCreateBuffer failed";
    return o;
  }
  CLBlastStatusCode status = CLBlastSuccess;
  clblast_sgemm_seconds(o, n, &status);  // the warm-up: CLBlast compiles its kernels on the first call
  oprig::opsuite::clear_clblast_cache_at_exit();
  if (status != CLBlastSuccess) o.error = "CLBlastSgemm failed with status " + std::to_string(status);
  return o;
}

void BM_ClBlastSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  ClBlastOperands& o = clblast_operands(n);
  if (!o.error.empty()) {
    state.SkipWithError(("unavailable: " + o.error).c_str());
    return;
  }
  for (auto _ : state) {
    CLBlastStatusCode status = CLBlastSuccess;
    const double seconds = clblast_sgemm_seconds(o, n, &status);
    if (status != CLBlastSuccess) {
      state.SkipWithError(("CLBlastSgemm failed with status " + std::to_string(status)).c_str());
      return;
    }
    state.SetIterationTime(seconds);
  }
  set_flops(state, n);
  state.SetLabel(o.backend->info().device_name);
}
#endif

}  // namespace

BENCHMARK(BM_MatMulCpu)->ArgNames({"size", "threads", "isa"})
    ->ArgsProduct({{1024, 2048}, {1, 2}, {OPRIG_CPU_ISA_AVX512, OPRIG_CPU_ISA_AVX2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OpenBlasSgemm)->ArgNames({"size", "threads"})->ArgsProduct({{1024, 2048}, {1, 2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OneDnnSgemm)->ArgNames({"size", "threads"})->ArgsProduct({{1024, 2048}, {1, 2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatMulOpenCL)->ArgNames({"size", "half"})->ArgsProduct({{1024, 2048}, {0, 1}})
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatMulVulkan)->ArgNames({"size", "half"})->ArgsProduct({{1024, 2048}, {0, 1}})
    ->UseManualTime()->Unit(benchmark::kMillisecond);
#if OPRIG_BENCH_CLBLAST
BENCHMARK(BM_ClBlastSgemm)->ArgName("size")->Arg(1024)->Arg(2048)->UseManualTime()->Unit(benchmark::kMillisecond);
#endif
