// Crop on the cpu backend through the package ABI against plain memcpy, in
// the same run: 8x130x130x32 fp32 cropped by one pixel on each side to
// 8x128x128x32 (16 MiB out, one 512-byte run per output row).
//   BM_CropCpu/threads:N        — the kernel
//   BM_CropMemcpyRows/threads:N — the same crop as one glibc memcpy per row
//                                 (what a user writes by hand)
//   BM_CropMemcpyFlat/threads:N — one memcpy of 16 MiB: the bandwidth ceiling
// Each moves the same bytes (read 16 MiB, write 16 MiB): compare
// bytes_per_second. Threads:2 for the memcpy peers splits the rows between
// the caller and one std::thread, as BM_AddConstant does.
// The device kernels, device time per execute (device_kernel_bench.hpp), over
// 16M output elements, read against the same-run probe
// BM_AddConstant{OpenCL,Vulkan} (y = x + c over 16M fp32: 64 MiB read, 64 MiB
// written, as shape 0 moves):
//   BM_CropOpenCL/shape:S, BM_CropVulkan/shape:S
//   0: fp32 8x258x258x32 cropped by one on each side to 8x256x256x32 (rows of
//      256 pixels, 32 KiB, in 16-byte units)
//   1: fp16 8x838x838x3, the same crop to 8x836x836x3 (rows of 5016 bytes at
//      offsets of 6-byte pixels: 2-byte units; on vulkan a word a work-item)
#include <benchmark/benchmark.h>

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

constexpr int64_t kBatch = 8, kHeight = 130, kWidth = 130, kChannels = 32, kCrop = 1;
constexpr int64_t kOutHeight = kHeight - 2 * kCrop, kOutWidth = kWidth - 2 * kCrop;
constexpr size_t kOutBytes = static_cast<size_t>(kBatch * kOutHeight * kOutWidth * kChannels) * sizeof(float);

const std::vector<float>& input() {
  static const std::vector<float> v = [] {
    std::vector<float> x(static_cast<size_t>(kBatch * kHeight * kWidth * kChannels));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1009) * 0.5f;
    return x;
  }();
  return v;
}

ParamList crop_params() {
  ParamList params;
  params.add_int("crop_top", kCrop).add_int("crop_bottom", kCrop);
  params.add_int("crop_left", kCrop).add_int("crop_right", kCrop);
  return params;
}

void count(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(2 * kOutBytes));
}

void BM_CropCpu(benchmark::State& state) {
  auto& kernel = oprig::bench::cpu_kernel(
      "crop", static_cast<unsigned>(state.range(0)), "Crop", crop_params(),
      [] {
        return std::vector<HostTensor>{
            HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kBatch, kHeight, kWidth, kChannels}, input())};
      },
      {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  if (!oprig::bench::time_cpu_kernel(state, kernel)) return;
  count(state);
}

// Rows [begin, end) of the output (rows of all images in a row), one memcpy each.
void crop_rows(const float* src, float* dst, int64_t begin, int64_t end) {
  const size_t row_bytes = static_cast<size_t>(kOutWidth * kChannels) * sizeof(float);
  for (int64_t r = begin; r < end; ++r) {
    const int64_t n = r / kOutHeight, h = r % kOutHeight + kCrop;
    std::memcpy(dst + r * kOutWidth * kChannels, src + ((n * kHeight + h) * kWidth + kCrop) * kChannels, row_bytes);
  }
}

std::vector<float>& output() {
  static std::vector<float> y(kOutBytes / sizeof(float), 0.0f);  // pages faulted in before timing
  return y;
}

void BM_CropMemcpyRows(benchmark::State& state) {
  const float* src = input().data();
  float* dst = output().data();
  oprig::bench::split_over_threads(state, state.range(0), kBatch * kOutHeight,
                                   [&](int64_t b, int64_t e) { crop_rows(src, dst, b, e); });
  count(state);
}

void BM_CropMemcpyFlat(benchmark::State& state) {
  const auto* src = reinterpret_cast<const std::byte*>(input().data());
  auto* dst = reinterpret_cast<std::byte*>(output().data());
  oprig::bench::split_over_threads(state, state.range(0), static_cast<int64_t>(kOutBytes), [&](int64_t b, int64_t e) {
    std::memcpy(dst + b, src + b, static_cast<size_t>(e - b));
  });
  count(state);
}

struct DeviceShape {
  oprig_dtype dtype;
  int64_t batch, height, width, channels;
  int64_t out_elements() const { return batch * (height - 2 * kCrop) * (width - 2 * kCrop) * channels; }
};
const DeviceShape kDeviceShapes[] = {{OPRIG_DTYPE_FLOAT_32, 8, 258, 258, 32}, {OPRIG_DTYPE_FLOAT_16, 8, 838, 838, 3}};

void device_crop(benchmark::State& state, const char* backend) {
  const DeviceShape& s = kDeviceShapes[state.range(0)];
  ParamList params;
  params.add_int("crop_top", kCrop).add_int("crop_bottom", kCrop);
  params.add_int("crop_left", kCrop).add_int("crop_right", kCrop);
  auto& kernel = oprig::bench::device_kernel(
      "crop/" + std::to_string(state.range(0)), backend, "Crop", params,
      [&s] {
        std::vector<uint16_t> x(static_cast<size_t>(s.batch * s.height * s.width * s.channels) *
                                (s.dtype == OPRIG_DTYPE_FLOAT_32 ? 2 : 1));
        for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
        return std::vector<HostTensor>{HostTensor::of(s.dtype, {s.batch, s.height, s.width, s.channels}, x)};
      },
      {oprig::bench::output_of(s.dtype)});
  oprig::bench::time_device_kernel(state, kernel, s.out_elements());
}

void BM_CropOpenCL(benchmark::State& state) { device_crop(state, "opencl"); }
void BM_CropVulkan(benchmark::State& state) { device_crop(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_CropCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CropMemcpyRows)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CropMemcpyFlat)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CropOpenCL)->ArgName("shape")->DenseRange(0, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CropVulkan)->ArgName("shape")->DenseRange(0, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
