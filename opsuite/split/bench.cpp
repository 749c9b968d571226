// Split on the cpu backend through the package ABI against plain memcpy, in
// the same run: an NHWC fp32 tensor 8x64x64x128 cut along channels into
// 8x64x64x{64, 32, 32} (16 MiB in; per pixel one 256-byte and two 128-byte
// chunks).
//   BM_SplitCpu/threads:N          — the kernel
//   BM_SplitMemcpyChunks/threads:N — the same split as one glibc memcpy per
//                                    chunk (what a user writes by hand)
//   BM_SplitMemcpyFlat/threads:N   — one memcpy of 16 MiB: the bandwidth ceiling
// Each moves the same bytes (read 16 MiB, write 16 MiB): compare
// bytes_per_second. Threads:2 for the memcpy peers splits the pixels between
// the caller and one std::thread, as BM_AddConstant does.
// The device kernels, device time per execute (device_kernel_bench.hpp), over
// 16M input elements, read against the same-run probe
// BM_AddConstant{OpenCL,Vulkan} (y = x + c over 16M fp32: 64 MiB read, 64 MiB
// written, as shape 0 moves):
//   BM_SplitOpenCL/shape:S, BM_SplitVulkan/shape:S
//   0: fp32 8x128x128x128 into 8x128x128x{64, 32, 32} along channels (chunks
//      of 256 and 128 bytes: 16-byte units)
//   1: fp16, the same into {63, 33, 32} (chunks of 126, 66 and 64 bytes at
//      odd offsets: 2-byte units for two outputs; on vulkan a word a work-item)
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
constexpr int64_t kInChannels = 128;
constexpr std::array<int64_t, 3> kChannels = {64, 32, 32};
constexpr size_t kInBytes = static_cast<size_t>(kPixels * kInChannels) * sizeof(float);

const std::vector<float>& input() {
  static const std::vector<float> v = [] {
    std::vector<float> x(kInBytes / sizeof(float));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1013) * 0.25f;
    return x;
  }();
  return v;
}

std::vector<float>& output(size_t k) {
  static std::array<std::vector<float>, 3> outputs = [] {  // zero-filled: pages faulted in before timing
    std::array<std::vector<float>, 3> v;
    for (size_t k = 0; k < 3; ++k) v[k].assign(static_cast<size_t>(kPixels * kChannels[k]), 0.0f);
    return v;
  }();
  return outputs[k];
}

void count(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(2 * kInBytes));
}

void BM_SplitCpu(benchmark::State& state) {
  const oprig_tensor out = oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32);
  auto& kernel = oprig::bench::cpu_kernel(
      "split", static_cast<unsigned>(state.range(0)), "Split",
      ParamList().add_int("axis", 3).add_ints("split", {kChannels[0], kChannels[1], kChannels[2]}),
      [] {
        return std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {8, 64, 64, kInChannels}, input())};
      },
      {out, out, out});
  if (!oprig::bench::time_cpu_kernel(state, kernel)) return;
  count(state);
}

void BM_SplitMemcpyChunks(benchmark::State& state) {
  const float* src = input().data();
  oprig::bench::split_over_threads(state, state.range(0), kPixels, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const float* from = src + p * kInChannels;
      for (size_t k = 0; k < 3; ++k) {
        std::memcpy(output(k).data() + p * kChannels[k], from, static_cast<size_t>(kChannels[k]) * sizeof(float));
        from += kChannels[k];
      }
    }
  });
  count(state);
}

void BM_SplitMemcpyFlat(benchmark::State& state) {
  static std::vector<float> dst(kInBytes / sizeof(float), 0.0f);
  const auto* from = reinterpret_cast<const std::byte*>(input().data());
  auto* to = reinterpret_cast<std::byte*>(dst.data());
  oprig::bench::split_over_threads(state, state.range(0), static_cast<int64_t>(kInBytes), [&](int64_t b, int64_t e) {
    std::memcpy(to + b, from + b, static_cast<size_t>(e - b));
  });
  count(state);
}

// Shape 0: fp32 into {64, 32, 32} channels; 1: fp16 into {63, 33, 32}.
void device_split(benchmark::State& state, const char* backend) {
  const bool halves = state.range(0) == 1;
  const oprig_dtype dtype = halves ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32;
  const std::vector<int64_t> sizes = halves ? std::vector<int64_t>{63, 33, 32} : std::vector<int64_t>{64, 32, 32};
  constexpr int64_t kElements = 8 * 128 * 128 * kInChannels;
  const oprig_tensor out = oprig::bench::output_of(dtype);
  auto& kernel = oprig::bench::device_kernel(
      "split/" + std::to_string(state.range(0)), backend, "Split",
      ParamList().add_int("axis", 3).add_ints("split", sizes),
      [dtype] {
        // Any bits: a copy moves them unchanged.
        std::vector<uint16_t> x(static_cast<size_t>(kElements) * (dtype == OPRIG_DTYPE_FLOAT_32 ? 2 : 1));
        for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
        return std::vector<HostTensor>{HostTensor::of(dtype, {8, 128, 128, kInChannels}, x)};
      },
      {out, out, out});
  oprig::bench::time_device_kernel(state, kernel, kElements);
}

void BM_SplitOpenCL(benchmark::State& state) { device_split(state, "opencl"); }
void BM_SplitVulkan(benchmark::State& state) { device_split(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_SplitCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SplitMemcpyChunks)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SplitMemcpyFlat)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SplitOpenCL)->ArgName("shape")->DenseRange(0, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SplitVulkan)->ArgName("shape")->DenseRange(0, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
