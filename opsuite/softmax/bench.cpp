// Softmax on the cpu backend through the package ABI, 4096 x 1024 fp32 along
// the last axis, against the same computation with Eigen 3.4 in the same run
// (the peer of the issue; as this build compiles it, for the baseline x86-64
// ISA, SSE2):
//   BM_SoftmaxCpu/threads:N     the kernel on CpuBackend(N)
//   BM_SoftmaxEigen/threads:N   Eigen: subtract the row max, exp, divide by the row sum;
//                               with 2 threads the caller takes the first half of
//                               the rows and one std::thread the second
//   BM_SoftmaxCpuAxis0/threads:N  the kernel along axis 0 of the same tensor (inner 1024)
//   BM_SoftmaxOpenCL/fp:B/axis:A, BM_SoftmaxVulkan/fp:B/axis:A
//                               the device kernels (device time), fp32 or fp16, along
//                               the last axis or axis 0: read against the same-run probe
//                               BM_AddConstant{OpenCL,Vulkan} (16M fp32, 8 bytes an
//                               element: 128 MiB; these move 2 x 16 MiB in fp32)
// Logits uniform in [-10, 10].
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "device_kernel_bench.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

constexpr int64_t kRows = 4096, kColumns = 1024;

const std::vector<float>& logits() {
  static const std::vector<float> v = [] {
    std::vector<float> x(static_cast<size_t>(kRows * kColumns));
    uint32_t state = 9;
    for (float& e : x) {
      state = state * 1664525u + 1013904223u;
      e = (static_cast<float>(state >> 8) * 0x1p-24f - 0.5f) * 20.0f;
    }
    return x;
  }();
  return v;
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads, int64_t axis) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "Softmax", ParamList().add_int("axis", axis),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kRows, kColumns}, logits())},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void run_kernel(benchmark::State& state, int64_t axis) {
  const auto threads = static_cast<unsigned>(state.range(0));
  static std::unique_ptr<Session> sessions[2][3];
  auto& s = sessions[axis == 0 ? 1 : 0][threads];
  if (!s) s = make(threads, axis);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kRows * kColumns);
}

void BM_SoftmaxCpu(benchmark::State& state) { run_kernel(state, -1); }
void BM_SoftmaxCpuAxis0(benchmark::State& state) { run_kernel(state, 0); }

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Rows [begin, end) the way an Eigen user writes it.
void softmax_eigen(const float* x, float* y, Eigen::Index begin, Eigen::Index end) {
  const Eigen::Map<const RowMajor> in(x + begin * kColumns, end - begin, kColumns);
  Eigen::Map<RowMajor> out(y + begin * kColumns, end - begin, kColumns);
  out = (in.colwise() - in.rowwise().maxCoeff()).array().exp().matrix();
  out.array().colwise() /= out.array().rowwise().sum();
}

void BM_SoftmaxEigen(benchmark::State& state) {
  const auto threads = state.range(0);
  const std::vector<float>& x = logits();
  static std::vector<float> y(x.size(), 0.0f);  // zero-filled: pages faulted in before timing
  for (auto _ : state) {
    if (threads == 1) {
      softmax_eigen(x.data(), y.data(), 0, kRows);
    } else {
      std::thread second([&] { softmax_eigen(x.data(), y.data(), kRows / 2, kRows); });
      softmax_eigen(x.data(), y.data(), 0, kRows / 2);
      second.join();
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kRows * kColumns);
}

void run_device(benchmark::State& state, const char* backend) {
  const bool half = state.range(0) == 16;
  const int64_t axis = state.range(1);
  const oprig_dtype dtype = half ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32;
  auto& kernel = oprig::bench::device_kernel(
      "softmax_" + std::to_string(state.range(0)) + "_" + std::to_string(axis), backend, "Softmax",
      ParamList().add_int("axis", axis),
      [&] {
        if (!half) return std::vector<HostTensor>{HostTensor::of(dtype, {kRows, kColumns}, logits())};
        std::vector<uint16_t> h(logits().size());
        for (size_t i = 0; i < h.size(); ++i) h[i] = oprig::float_to_half(logits()[i]);
        return std::vector<HostTensor>{HostTensor::of(dtype, {kRows, kColumns}, h)};
      },
      {oprig::bench::output_of(dtype)});
  oprig::bench::time_device_kernel(state, kernel, kRows * kColumns);
}

void BM_SoftmaxOpenCL(benchmark::State& state) { run_device(state, "opencl"); }
void BM_SoftmaxVulkan(benchmark::State& state) { run_device(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_SoftmaxOpenCL)->ArgNames({"fp", "axis"})->Args({32, -1})->Args({16, -1})->Args({32, 0})
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SoftmaxVulkan)->ArgNames({"fp", "axis"})->Args({32, -1})->Args({16, -1})->Args({32, 0})
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SoftmaxCpu)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SoftmaxEigen)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SoftmaxCpuAxis0)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
