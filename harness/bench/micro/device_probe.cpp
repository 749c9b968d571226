// BM_AddConstantOpenCL / BM_AddConstantVulkan: y = x + c over 16M fp32 on
// each device API (ElementwiseBinary ADD with a one-element second operand,
// one read and one write per element), the same-run bandwidth probe the
// device kernels of the bench.cpp files are compared with: a kernel that
// moves as many bytes should take about as long. Device time, as the
// kernels' rows (device_kernel_bench.hpp).
#include <benchmark/benchmark.h>

#include <vector>

#include "device_kernel_bench.hpp"

namespace {

using oprig::harness::HostTensor;

constexpr int64_t kElements = int64_t{1} << 24;

void add_constant(benchmark::State& state, const char* backend) {
  oprig::harness::ParamList params;
  params.add_int("operation", 0, OPRIG_DTYPE_UINT_32);  // ADD
  auto& kernel = oprig::bench::device_kernel(
      "add_constant", backend, "ElementwiseBinary", params,
      [] {
        std::vector<float> x(kElements);
        for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1024) * 0.25f;
        return std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kElements}, x),
                                       HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1}, std::vector<float>{0.5f})};
      },
      {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  oprig::bench::time_device_kernel(state, kernel, kElements);
}

void BM_AddConstantOpenCL(benchmark::State& state) { add_constant(state, "opencl"); }
void BM_AddConstantVulkan(benchmark::State& state) { add_constant(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_AddConstantOpenCL)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AddConstantVulkan)->UseManualTime()->Unit(benchmark::kMillisecond);
