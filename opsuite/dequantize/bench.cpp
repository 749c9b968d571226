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

#include <string>
#include <vector>

#include "cpu_kernel_bench.hpp"
#include "device_kernel_bench.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::ParamList;

constexpr int64_t kElements = int64_t{1} << 24;

HostTensor input() {
  std::vector<uint8_t> codes(static_cast<size_t>(kElements));
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<uint8_t>(i * 37);
  HostTensor x = HostTensor::of(OPRIG_DTYPE_UINT_8, {kElements}, codes);
  x.scale = 0.03125f;
  x.zero_point = 128;
  return x;
}

void BM_DequantizeCpu(benchmark::State& state) {
  auto& kernel = oprig::bench::cpu_kernel("dequantize_u8", static_cast<unsigned>(state.range(0)), "Dequantize",
                                          ParamList(), [] { return std::vector<HostTensor>{input()}; },
                                          {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  if (!oprig::bench::time_cpu_kernel(state, kernel)) return;
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
