// Pool2D on the cpu backend through the package ABI against oneDNN's pooling
// primitive (libdnnl-dev, NHWC, forward inference), in the same run:
//   BM_Pool2DCpu/shape:S/threads:N   — the kernel
//   BM_Pool2DOneDnn/shape:S/threads:N — oneDNN (OpenMP, capped with omp_set_num_threads)
// and the device kernels, device time per execute (device_kernel_bench.hpp),
// read against the same-run probe BM_AddConstant{OpenCL,Vulkan} (y = x + c,
// the same bytes per second for a kernel that only moves memory):
//   BM_Pool2DOpenCL/shape:S, BM_Pool2DVulkan/shape:S
// Shapes (fp32):
//   0: ResNet's stem max pool, 8x112x112x64, 3x3 window, stride 2, pad 1 -> 8x56x56x64
//   1: average pool 8x56x56x64, 2x2 window, stride 2 -> 8x28x28x64
//   2: global average pool 32x7x7x512 (window = input) -> 32x1x1x512
//   3: the stem max pool of one image, 1x112x112x64 (NCHW's 1x64x112x112) -> 1x56x56x64
// Throughput counts input bytes read plus output bytes written.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "bench/micro/cpu_kernel_bench.hpp"
#include "bench/micro/device_kernel_bench.hpp"
#include "bench/micro/onednn_nhwc_peer.hpp"

extern "C" void omp_set_num_threads(int);  // libgomp, oneDNN's threading runtime in Debian

namespace {

using oprig::harness::HostTensor;
using oprig::harness::ParamList;

struct Shape {
  const char* type;
  int64_t n, h, w, c;
  int64_t kernel, stride, pad;
  int64_t out_h() const { return (h + 2 * pad - kernel) / stride + 1; }
  int64_t out_w() const { return (w + 2 * pad - kernel) / stride + 1; }
  int64_t in_elements() const { return n * h * w * c; }
  int64_t out_elements() const { return n * out_h() * out_w() * c; }
};

const Shape kShapes[] = {{"MAX", 8, 112, 112, 64, 3, 2, 1},
                          {"AVG", 8, 56, 56, 64, 2, 2, 0},
                          {"AVG", 32, 7, 7, 512, 7, 1, 0},
                          {"MAX", 1, 112, 112, 64, 3, 2, 1}};
constexpr size_t kShapeCount = std::size(kShapes);

const std::vector<float>& input(size_t shape) {
  static std::vector<float> inputs[kShapeCount];
  std::vector<float>& x = inputs[shape];
  if (x.empty()) {
    x.resize(static_cast<size_t>(kShapes[shape].in_elements()));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1021) * 0.01f - 5.0f;
  }
  return x;
}

void count(benchmark::State& state, const Shape& s) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * (s.in_elements() + s.out_elements()) * 4);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * s.out_elements());
}

ParamList params_of(const Shape& s) {
  ParamList params;
  params.add_string("type", s.type)
      .add_ints("kernel", {s.kernel, s.kernel})
      .add_ints("stride", {s.stride, s.stride})
      .add_ints("pads", {s.pad, s.pad, s.pad, s.pad});
  return params;
}

std::vector<HostTensor> inputs_of(size_t shape) {
  const Shape& s = kShapes[shape];
  return {HostTensor::of(OPRIG_DTYPE_FLOAT_32, {s.n, s.h, s.w, s.c}, input(shape))};
}

void BM_Pool2DCpu(benchmark::State& state) {
  const auto shape = static_cast<size_t>(state.range(0));
  auto& kernel = oprig::bench::cpu_kernel("pool2d_" + std::to_string(shape), static_cast<unsigned>(state.range(1)),
                                          "Pool2D", params_of(kShapes[shape]), [&] { return inputs_of(shape); },
                                          {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  if (!oprig::bench::time_cpu_kernel(state, kernel)) return;
  count(state, kShapes[shape]);
}

// oneDNN's pooling with the same shapes, padding excluded from averages as in Pool2D's default.
oprig::bench::OneDnnNhwcPeer* onednn_pool(size_t shape) {
  static std::unique_ptr<oprig::bench::OneDnnNhwcPeer> pools[kShapeCount];
  if (!pools[shape]) {
    const Shape& s = kShapes[shape];
    pools[shape] = std::make_unique<oprig::bench::OneDnnNhwcPeer>(
        dnnl::memory::dims{s.n, s.c, s.h, s.w}, dnnl::memory::dims{s.n, s.c, s.out_h(), s.out_w()}, input(shape),
        [&s](const dnnl::engine& engine, const dnnl::memory::desc& src_md, const dnnl::memory::desc& dst_md) {
          const auto algorithm = std::string(s.type) == "MAX" ? dnnl::algorithm::pooling_max
                                                              : dnnl::algorithm::pooling_avg_exclude_padding;
          const dnnl::pooling_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src_md, dst_md,
                                                 {s.stride, s.stride}, {s.kernel, s.kernel}, {s.pad, s.pad},
                                                 {s.pad, s.pad});
          return dnnl::primitive(dnnl::pooling_forward(dnnl::pooling_forward::primitive_desc(desc, engine)));
        });
  }
  return pools[shape].get();
}

void BM_Pool2DOneDnn(benchmark::State& state) {
  const auto shape = static_cast<size_t>(state.range(0));
  omp_set_num_threads(static_cast<int>(state.range(1)));
  oprig::bench::OneDnnNhwcPeer* pool = onednn_pool(shape);
  for (auto _ : state) pool->run();
  count(state, kShapes[shape]);
}

void shapes_and_threads(benchmark::internal::Benchmark* b) {
  b->ArgNames({"shape", "threads"});
  for (int64_t shape = 0; shape < static_cast<int64_t>(kShapeCount); ++shape)
    for (int64_t threads : {1, 2}) b->Args({shape, threads});
}

void device_pool(benchmark::State& state, const char* backend) {
  const auto shape = static_cast<size_t>(state.range(0));
  auto& kernel = oprig::bench::device_kernel("pool2d/" + std::to_string(shape), backend, "Pool2D",
                                             params_of(kShapes[shape]), [shape] { return inputs_of(shape); },
                                             {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  oprig::bench::time_device_kernel(state, kernel, kShapes[shape].out_elements());
}

void BM_Pool2DOpenCL(benchmark::State& state) { device_pool(state, "opencl"); }
void BM_Pool2DVulkan(benchmark::State& state) { device_pool(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_Pool2DCpu)->Apply(shapes_and_threads)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pool2DOneDnn)->Apply(shapes_and_threads)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pool2DOpenCL)->ArgName("shape")->DenseRange(0, 3)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pool2DVulkan)->ArgName("shape")->DenseRange(0, 3)->UseManualTime()->Unit(benchmark::kMillisecond);
