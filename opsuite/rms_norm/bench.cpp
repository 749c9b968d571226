// RMSNorm on the cpu backend through the package ABI, 4096 x 1024 fp32 over
// the last axis, compared with BM_AddConstant (harness/bench/micro/
// reference_add.cpp, the in-process bandwidth reference) from the same run:
// both read 4 and write 4 bytes per element (the 4 KiB weight stays in
// cache), so bytes_per_second compares directly.
//   BM_RmsNormCpu/threads:N
//   BM_RMSNormOpenCL/fp:B, BM_RMSNormVulkan/fp:B: the device kernels (device time),
//     fp32 or fp16, read against the same-run probe BM_AddConstant{OpenCL,Vulkan}
//     (16M fp32 elements, 8 bytes each: 128 MiB; these move 2 x 16 MiB in fp32)
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "device_kernel_bench.hpp"
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
      *s->backend, *impl, "RMSNorm", ParamList(),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kRows, kColumns}, values(kRows * kColumns, 1, -4, 4)),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kColumns}, values(kColumns, 2, 0.5f, 2))},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_RmsNormCpu(benchmark::State& state) {
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

// The values as a tensor of `dtype` (FLOAT_16 rounded once).
HostTensor tensor(oprig_dtype dtype, std::vector<int64_t> shape, const std::vector<float>& v) {
  if (dtype == OPRIG_DTYPE_FLOAT_32) return HostTensor::of(dtype, std::move(shape), v);
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) h[i] = oprig::float_to_half(v[i]);
  return HostTensor::of(dtype, std::move(shape), h);
}

void run_device(benchmark::State& state, const char* backend) {
  const oprig_dtype dtype = state.range(0) == 16 ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32;
  auto& kernel = oprig::bench::device_kernel(
      "rms_norm_" + std::to_string(state.range(0)), backend, "RMSNorm", ParamList(),
      [&] { return std::vector<HostTensor>{tensor(dtype, {kRows, kColumns}, values(kRows * kColumns, 1, -4, 4)),
                                       tensor(dtype, {kColumns}, values(kColumns, 2, 0.5f, 2))}; },
      {oprig::bench::output_of(dtype)});
  oprig::bench::time_device_kernel(state, kernel, kRows * kColumns);
}

void BM_RMSNormOpenCL(benchmark::State& state) { run_device(state, "opencl"); }
void BM_RMSNormVulkan(benchmark::State& state) { run_device(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_RMSNormOpenCL)->ArgName("fp")->Arg(32)->Arg(16)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RMSNormVulkan)->ArgName("fp")->Arg(32)->Arg(16)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RmsNormCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
