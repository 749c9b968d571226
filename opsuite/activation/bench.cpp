// Activation on the cpu backend through the package ABI, 16M fp32, compared
// with BM_AddConstant (harness/bench/micro/reference_add.cpp, the in-process
// bandwidth reference: y = x + c reads and writes the same 8 bytes per
// element) from the same run:
//   BM_ActivationCpu/mode:K/threads:N   K: 0 RELU 1 RELU6 2 SIGMOID 3 TANH
//                                          4 GELU_ERF 5 GELU_TANH 6 SILU 7 HARD_SWISH
// Inputs are uniform in [-8, 8]: the fast formulas, as in a network.
// The device rows BM_ActivationOpenCL/mode:K and BM_ActivationVulkan/mode:K
// (K: RELU, GELU_TANH, SILU; device time per execute,
// harness/bench/micro/device_kernel_bench.hpp) are read against the same-run
// probe BM_AddConstantOpenCL / BM_AddConstantVulkan (the same 8 bytes per
// element).
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
constexpr int kModeCount = 8;
const char* const kModes[kModeCount] = {"RELU", "RELU6", "SIGMOID", "TANH", "GELU_ERF", "GELU_TANH", "SILU", "HARD_SWISH"};

std::vector<float> inputs() {
  std::vector<float> v(static_cast<size_t>(kElements));
  uint32_t state = 7;
  for (float& e : v) {
    state = state * 1664525u + 1013904223u;
    e = (static_cast<float>(state >> 8) * 0x1p-24f - 0.5f) * 16.0f;
  }
  return v;
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads, int mode) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  s->kernel = std::make_unique<KernelSession>(*s->backend, *impl, "Activation",
                                              ParamList().add_string("mode", kModes[mode]),
                                              std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kElements}, inputs())},
                                              std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_ActivationCpu(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  static std::unique_ptr<Session> sessions[kModeCount][3];
  auto& s = sessions[mode][threads];
  if (!s) s = make(threads, mode);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  const auto items = static_cast<int64_t>(state.iterations()) * kElements;
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(items * 8);  // 4 read, 4 written: the same as BM_AddConstant
}

void activation_on_device(benchmark::State& state, const char* backend) {
  const int mode = static_cast<int>(state.range(0));
  auto& kernel = oprig::bench::device_kernel(
      std::string("activation_") + kModes[mode], backend, "Activation", ParamList().add_string("mode", kModes[mode]),
      [] { return std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kElements}, inputs())}; },
      {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  oprig::bench::time_device_kernel(state, kernel, kElements);
}

void BM_ActivationOpenCL(benchmark::State& state) { activation_on_device(state, "opencl"); }
void BM_ActivationVulkan(benchmark::State& state) { activation_on_device(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_ActivationOpenCL)->ArgName("mode")->Arg(0)->Arg(5)->Arg(6)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ActivationVulkan)->ArgName("mode")->Arg(0)->Arg(5)->Arg(6)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ActivationCpu)->ArgNames({"mode", "threads"})->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {1, 2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
