// Quantize on the cpu backend through the package ABI, 16M fp32 -> UINT_8,
// against BM_AddConstant (harness/bench/micro/reference_add.cpp, the
// in-process bandwidth reference) from the same run:
//   BM_QuantizeCpu/threads:N
// Quantize reads 4 bytes and writes 1 per element, the reference reads 4 and
// writes 4: compare bytes/s (bytes_per_second) as well as elements/s.
// The device rows BM_QuantizeOpenCL / BM_QuantizeVulkan (device time per
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

std::vector<float> inputs() {
  std::vector<float> x(static_cast<size_t>(kElements));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1000) * 0.01f - 5.0f;  // past both ends
  return x;
}

oprig_tensor output() {
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_UINT_8;
  out.scale = 0.03125f;
  out.zero_point = 128;
  return out;
}

std::unique_ptr<Session> make(unsigned threads) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  s->kernel = std::make_unique<KernelSession>(*s->backend, *impl, "Quantize", ParamList(),
                                              std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kElements}, inputs())},
                                              std::vector<oprig_tensor>{output()});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_QuantizeCpu(benchmark::State& state) {
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

void quantize_on_device(benchmark::State& state, const char* backend) {
  auto& kernel = oprig::bench::device_kernel(
      "quantize_u8", backend, "Quantize", ParamList(),
      [] { return std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kElements}, inputs())}; }, {output()});
  oprig::bench::time_device_kernel(state, kernel, kElements);
}

void BM_QuantizeOpenCL(benchmark::State& state) { quantize_on_device(state, "opencl"); }
void BM_QuantizeVulkan(benchmark::State& state) { quantize_on_device(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_QuantizeOpenCL)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_QuantizeVulkan)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_QuantizeCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
