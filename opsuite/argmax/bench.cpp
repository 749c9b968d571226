// ArgMax on the cpu backend through the package ABI against two peers in the
// same binary, fp32:
//   BM_ArgMaxCpu/layout:L/threads:N    the kernel
//   BM_ArgMaxStdMaxElement/layout:L    std::max_element per row (layouts 0, 2)
//   BM_ArgMaxEigen/layout:L            Eigen's maxCoeff(&index) per row or column
//   BM_ArgMaxOpenCL/layout:L, BM_ArgMaxVulkan/layout:L
//                                      the device kernels, device time per execute
//                                      (device_kernel_bench.hpp); read against the
//                                      cpu kernel and the same-run probe
//                                      BM_AddConstant{OpenCL,Vulkan} (y = x + c, 16M fp32)
// Layouts: 0 rows — [4096, 4096] along the last axis; 1 columns — [4096, 4096]
// along axis 0; 2 one row — [16M]; 3 rows — [4096, 1024] along the last axis
// (issue 20's device shape). Layouts 0-2 read 64 MiB once, 3 reads 16 MiB
// (elements/s). The peers run on one thread and do not order NaN (the data
// has none).
#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/micro/device_kernel_bench.hpp"
#include "cpu/cpu_backend.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

struct Layout {
  std::vector<int64_t> shape;
  int axis;
};
const Layout kLayouts[] = {{{4096, 4096}, 1}, {{4096, 4096}, 0}, {{int64_t{1} << 24}, 0}, {{4096, 1024}, 1}};
constexpr size_t kLayoutCount = std::size(kLayouts);
constexpr int64_t kElements = int64_t{1} << 24;  // of the data; a layout may use a prefix

// Distinct-looking values with the maximum somewhere in the middle of each row.
const std::vector<float>& data() {
  static const std::vector<float> v = [] {
    std::vector<float> out(static_cast<size_t>(kElements));
    uint32_t x = 12345;
    for (float& e : out) {
      x = x * 1664525u + 1013904223u;
      e = static_cast<float>(x >> 8) * 0x1p-24f;
    }
    return out;
  }();
  return v;
}

int64_t elements_of(const Layout& layout) {
  int64_t n = 1;
  for (int64_t d : layout.shape) n *= d;
  return n;
}
std::vector<float> prefix(const Layout& layout) {
  return {data().begin(), data().begin() + elements_of(layout)};
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads, const Layout& layout) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_INT_32;
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "ArgMax", ParamList().add_int("axis", layout.axis).add_bool("keepdims", false),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, layout.shape, prefix(layout))},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_ArgMaxCpu(benchmark::State& state) {
  const auto layout = static_cast<size_t>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  static std::unique_ptr<Session> sessions[kLayoutCount][3];
  auto& s = sessions[layout][threads];
  if (!s) s = make(threads, kLayouts[layout]);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * elements_of(kLayouts[layout]));
}

void BM_ArgMaxStdMaxElement(benchmark::State& state) {
  const Layout& layout = kLayouts[state.range(0)];
  const size_t cols = static_cast<size_t>(layout.shape.back());
  const size_t rows = static_cast<size_t>(kElements) / cols;
  const float* x = data().data();
  std::vector<int32_t> out(rows);
  for (auto _ : state) {
    for (size_t r = 0; r < rows; ++r)
      out[r] = static_cast<int32_t>(std::max_element(x + r * cols, x + (r + 1) * cols) - (x + r * cols));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kElements);
}

void BM_ArgMaxEigen(benchmark::State& state) {
  const Layout& layout = kLayouts[state.range(0)];
  const Eigen::Index cols = layout.shape.back(), rows = kElements / cols;
  const Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> m(data().data(), rows,
                                                                                                 cols);
  const bool along_rows = layout.axis == static_cast<int>(layout.shape.size()) - 1;
  std::vector<int32_t> out(static_cast<size_t>(along_rows ? rows : cols));
  for (auto _ : state) {
    Eigen::Index index = 0;
    if (along_rows) {
      for (Eigen::Index r = 0; r < rows; ++r) {
        m.row(r).maxCoeff(&index);
        out[static_cast<size_t>(r)] = static_cast<int32_t>(index);
      }
    } else {
      for (Eigen::Index c = 0; c < cols; ++c) {
        m.col(c).maxCoeff(&index);
        out[static_cast<size_t>(c)] = static_cast<int32_t>(index);
      }
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kElements);
}

void device_argmax(benchmark::State& state, const char* backend) {
  const Layout& layout = kLayouts[state.range(0)];
  auto& kernel = oprig::bench::device_kernel(
      "argmax/" + std::to_string(state.range(0)), backend, "ArgMax",
      ParamList().add_int("axis", layout.axis).add_bool("keepdims", false),
      [&layout] { return std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, layout.shape, prefix(layout))}; },
      {oprig::bench::output_of(OPRIG_DTYPE_INT_32)});
  oprig::bench::time_device_kernel(state, kernel, elements_of(layout));
}

void BM_ArgMaxOpenCL(benchmark::State& state) { device_argmax(state, "opencl"); }
void BM_ArgMaxVulkan(benchmark::State& state) { device_argmax(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_ArgMaxCpu)->ArgNames({"layout", "threads"})
    ->ArgsProduct({{0, 1, 2, 3}, {1, 2}})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ArgMaxStdMaxElement)->ArgName("layout")->Arg(0)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ArgMaxEigen)->ArgName("layout")->Arg(0)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ArgMaxOpenCL)->ArgName("layout")->DenseRange(0, 3)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ArgMaxVulkan)->ArgName("layout")->DenseRange(0, 3)->UseManualTime()->Unit(benchmark::kMillisecond);
