// Dequantize on the cpu backend through the package ABI, 16M UINT_8 ->
// FLOAT_32, against BM_AddConstant (harness/bench/micro/reference_add.cpp,
// the in-process bandwidth reference) from the same run:
//   BM_DequantizeCpu/threads:N
// Dequantize reads 1 byte and writes 4 per element, the reference reads 4 and
// writes 4: compare bytes/s (bytes_per_second) as well as elements/s.
// The device rows BM_DequantizeOpenCL / BM_DequantizeVulkan (device time per
// execute, harness/bench/micro/device_kernel_bench.hpp) are read against the
// same-run probe BM_AddConstantOpenCL / BM_AddConstantVulkan by bytes/s.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "device_kernel_bench.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

constexpr int64_t kElements = int64_t{1} << 24;

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

HostTensor input() {
  std::vector<uint8_t> codes(static_cast<size_t>(kElements));
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<uint8_t>(i * 37);
  HostTensor x = HostTensor::of(OPRIG_DTYPE_UINT_8, {kElements}, codes);
  x.scale = 0.03125f;
  x.zero_point = 128;
  return x;
}

std::unique_ptr<Session> make(unsigned threads) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  s->kernel = std::make_unique<KernelSession>(*s->backend, *impl, "Dequantize", ParamList(),
                                              std::vector<HostTensor>{input()}, std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_DequantizeCpu(benchmark::State& state) {
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
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kElements);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kElements * 5);
}

void dequantize_on_device(benchmark::State& state, const char* backend) {
  auto& kernel = oprig::bench::device_kernel(
      "dequantize_u8", backend, "Dequantize", ParamList(), [] { return std::vector<HostTensor>{input()}; },
      {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  oprig::bench::time_device_kernel(state, kernel, kElements);
}

void BM_DequantizeOpenCL(benchmark::State& state) { dequantize_on_device(state, "opencl"); }
void BM_DequantizeVulkan(benchmark::State& state) { dequantize_on_device(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_DequantizeOpenCL)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DequantizeVulkan)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DequantizeCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
