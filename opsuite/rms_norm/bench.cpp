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

#include <string>
#include <vector>

#include "bench_inputs.hpp"
#include "cpu_kernel_bench.hpp"
#include "device_kernel_bench.hpp"

namespace {

using oprig::bench::float_tensor;
using oprig::bench::uniform_values;
using oprig::harness::HostTensor;
using oprig::harness::ParamList;

constexpr int64_t kRows = 4096, kColumns = 1024;

// x, then the weight, as `dtype`.
std::vector<HostTensor> inputs(oprig_dtype dtype) {
  return {float_tensor(dtype, {kRows, kColumns}, uniform_values(kRows * kColumns, 1, -4, 4)),
          float_tensor(dtype, {kColumns}, uniform_values(kColumns, 2, 0.5f, 2))};
}

void BM_RmsNormCpu(benchmark::State& state) {
  auto& kernel = oprig::bench::cpu_kernel("rms_norm", static_cast<unsigned>(state.range(0)), "RMSNorm", ParamList(),
                                          [] { return inputs(OPRIG_DTYPE_FLOAT_32); },
                                          {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  if (!oprig::bench::time_cpu_kernel(state, kernel)) return;
  const auto items = static_cast<int64_t>(state.iterations()) * kRows * kColumns;
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(items * 8);
}

void run_device(benchmark::State& state, const char* backend) {
  const oprig_dtype dtype = state.range(0) == 16 ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32;
  auto& kernel = oprig::bench::device_kernel("rms_norm_" + std::to_string(state.range(0)), backend, "RMSNorm",
                                             ParamList(), [&] { return inputs(dtype); },
                                             {oprig::bench::output_of(dtype)});
  oprig::bench::time_device_kernel(state, kernel, kRows * kColumns);
}

void BM_RMSNormOpenCL(benchmark::State& state) { run_device(state, "opencl"); }
void BM_RMSNormVulkan(benchmark::State& state) { run_device(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_RMSNormOpenCL)->ArgName("fp")->Arg(32)->Arg(16)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RMSNormVulkan)->ArgName("fp")->Arg(32)->Arg(16)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RmsNormCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
