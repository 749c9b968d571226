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

#include <string>
#include <vector>

#include "cpu_kernel_bench.hpp"
#include "device_kernel_bench.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::ParamList;

constexpr int64_t kElements = int64_t{1} << 24;

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

void BM_QuantizeCpu(benchmark::State& state) {
  auto& kernel = oprig::bench::cpu_kernel(
      "quantize_u8", static_cast<unsigned>(state.range(0)), "Quantize", ParamList(),
      [] { return std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kElements}, inputs())}; }, {output()});
  if (!oprig::bench::time_cpu_kernel(state, kernel)) return;
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
