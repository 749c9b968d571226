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
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
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

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  ParamList params;
  params.add_int("crop_top", kCrop).add_int("crop_bottom", kCrop);
  params.add_int("crop_left", kCrop).add_int("crop_right", kCrop);
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "Crop", params,
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kBatch, kHeight, kWidth, kChannels}, input())},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void count(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(2 * kOutBytes));
}

void BM_CropCpu(benchmark::State& state) {
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

template <class Body>
void split_over_threads(benchmark::State& state, int64_t units, Body body) {
  const int64_t half = units / 2;
  for (auto _ : state) {
    if (state.range(0) == 1) {
      body(0, units);
    } else {
      std::thread second([&] { body(half, units); });
      body(0, half);
      second.join();
    }
    benchmark::ClobberMemory();
  }
  count(state);
}

void BM_CropMemcpyRows(benchmark::State& state) {
  const float* src = input().data();
  float* dst = output().data();
  split_over_threads(state, kBatch * kOutHeight, [&](int64_t b, int64_t e) { crop_rows(src, dst, b, e); });
}

void BM_CropMemcpyFlat(benchmark::State& state) {
  const auto* src = reinterpret_cast<const std::byte*>(input().data());
  auto* dst = reinterpret_cast<std::byte*>(output().data());
  split_over_threads(state, static_cast<int64_t>(kOutBytes), [&](int64_t b, int64_t e) {
    std::memcpy(dst + b, src + b, static_cast<size_t>(e - b));
  });
}

}  // namespace

BENCHMARK(BM_CropCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CropMemcpyRows)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CropMemcpyFlat)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
