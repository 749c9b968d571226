// Concat on the cpu backend through the package ABI against plain memcpy, in
// the same run: three NHWC fp32 tensors 8x64x64x{64, 32, 32} joined along
// channels into 8x64x64x128 (16 MiB out; per pixel one 256-byte and two
// 128-byte chunks).
//   BM_ConcatCpu/threads:N        — the kernel
//   BM_ConcatMemcpyChunks/threads:N — the same concat as one glibc memcpy per
//                                   chunk (what a user writes by hand)
//   BM_ConcatMemcpyFlat/threads:N — one memcpy of 16 MiB: the bandwidth ceiling
// Each moves the same bytes (read 16 MiB, write 16 MiB): compare
// bytes_per_second. Threads:2 for the memcpy peers splits the pixels between
// the caller and one std::thread, as BM_AddConstant does.
// The device kernels, device time per execute (device_kernel_bench.hpp), over
// 16M output elements, read against the same-run probe
// BM_AddConstant{OpenCL,Vulkan} (y = x + c over 16M fp32: 64 MiB read, 64 MiB
// written, as shape 0 moves):
//   BM_ConcatOpenCL/shape:S, BM_ConcatVulkan/shape:S
//   0: fp32 8x128x128x{64, 32, 32} into 8x128x128x128 along channels (chunks
//      of 256 and 128 bytes: 16-byte units)
//   1: fp16, the same from {63, 33, 32} (chunks of 126, 66 and 64 bytes at
//      odd offsets: 2-byte units for two inputs; on vulkan a word a work-item)
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench/micro/cpu_kernel_bench.hpp"
#include "bench/micro/device_kernel_bench.hpp"
#include "bench/micro/split_over_threads.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::ParamList;

constexpr int64_t kPixels = 8 * 64 * 64;
constexpr std::array<int64_t, 3> kChannels = {64, 32, 32};
constexpr int64_t kOutChannels = 128;
constexpr size_t kOutBytes = static_cast<size_t>(kPixels * kOutChannels) * sizeof(float);

const std::vector<float>& input(size_t k) {
  static const std::array<std::vector<float>, 3> inputs = [] {
    std::array<std::vector<float>, 3> v;
    for (size_t k = 0; k < 3; ++k) {
      v[k].resize(static_cast<size_t>(kPixels * kChannels[k]));
      for (size_t i = 0; i < v[k].size(); ++i) v[k][i] = static_cast<float>((i + 7 * k) % 1013) * 0.25f;
    }
    return v;
  }();
  return inputs[k];
}

std::vector<float>& output() {
  static std::vector<float> y(kOutBytes / sizeof(float), 0.0f);  // pages faulted in before timing
  return y;
}

void count(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(2 * kOutBytes));
}

void BM_ConcatCpu(benchmark::State& state) {
  auto& kernel = oprig::bench::cpu_kernel(
      "concat", static_cast<unsigned>(state.range(0)), "Concat", ParamList().add_int("axis", 3),
      [] {
        std::vector<HostTensor> inputs;
        for (size_t k = 0; k < 3; ++k)
          inputs.push_back(HostTensor::of(OPRIG_DTYPE_FLOAT_32, {8, 64, 64, kChannels[k]}, input(k)));
        return inputs;
      },
      {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  if (!oprig::bench::time_cpu_kernel(state, kernel)) return;
  count(state);
}

void BM_ConcatMemcpyChunks(benchmark::State& state) {
  float* dst = output().data();
  oprig::bench::split_over_threads(state, state.range(0), kPixels, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      float* to = dst + p * kOutChannels;
      for (size_t k = 0; k < 3; ++k) {
        std::memcpy(to, input(k).data() + p * kChannels[k], static_cast<size_t>(kChannels[k]) * sizeof(float));
        to += kChannels[k];
      }
    }
  });
  count(state);
}

void BM_ConcatMemcpyFlat(benchmark::State& state) {
  static const std::vector<float> src(kOutBytes / sizeof(float), 1.0f);
  const auto* from = reinterpret_cast<const std::byte*>(src.data());
  auto* to = reinterpret_cast<std::byte*>(output().data());
  oprig::bench::split_over_threads(state, state.range(0), static_cast<int64_t>(kOutBytes), [&](int64_t b, int64_t e) {
    std::memcpy(to + b, from + b, static_cast<size_t>(e - b));
  });
  count(state);
}

struct DeviceShape {
  oprig_dtype dtype;
  std::array<int64_t, 3> parts;  // channels of each input
};
const DeviceShape kDeviceShapes[] = {{OPRIG_DTYPE_FLOAT_32, {64, 32, 32}}, {OPRIG_DTYPE_FLOAT_16, {63, 33, 32}}};

void device_concat(benchmark::State& state, const char* backend) {
  const DeviceShape& s = kDeviceShapes[state.range(0)];
  constexpr int64_t kDevicePixels = 8 * 128 * 128;
  auto& kernel = oprig::bench::device_kernel(
      "concat/" + std::to_string(state.range(0)), backend, "Concat", ParamList().add_int("axis", 3),
      [&s] {
        std::vector<HostTensor> inputs;
        for (int64_t channels : s.parts) {
          std::vector<uint16_t> x(static_cast<size_t>(kDevicePixels * channels) *
                                  (s.dtype == OPRIG_DTYPE_FLOAT_32 ? 2 : 1));
          for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>((i + inputs.size()) * 2654435761u >> 7);
          inputs.push_back(HostTensor::of(s.dtype, {8, 128, 128, channels}, x));
        }
        return inputs;
      },
      {oprig::bench::output_of(s.dtype)});
  oprig::bench::time_device_kernel(state, kernel, kDevicePixels * kOutChannels);
}

void BM_ConcatOpenCL(benchmark::State& state) { device_concat(state, "opencl"); }
void BM_ConcatVulkan(benchmark::State& state) { device_concat(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_ConcatCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConcatMemcpyChunks)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConcatMemcpyFlat)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConcatOpenCL)->ArgName("shape")->DenseRange(0, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConcatVulkan)->ArgName("shape")->DenseRange(0, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
