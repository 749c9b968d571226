// Resize on the cpu backend through the package ABI against oneDNN's
// resampling primitive (libdnnl-dev, NHWC, forward inference; its linear
// and nearest use half-pixel coordinates), in the same run:
//   BM_ResizeCpu/shape:S/threads:N    — the kernel, HALF_PIXEL
//   BM_ResizeOneDnn/shape:S/threads:N — oneDNN (OpenMP, capped with omp_set_num_threads)
// and the device kernels, device time per execute (device_kernel_bench.hpp),
// read against the same-run probe BM_AddConstant{OpenCL,Vulkan} (y = x + c,
// the same bytes per second for a kernel that only moves memory):
//   BM_ResizeOpenCL/shape:S, BM_ResizeVulkan/shape:S
// Shapes (fp32):
//   0: BILINEAR 2x up, 8x64x64x32 -> 8x128x128x32 (16 MiB out)
//   1: NEAREST 2x up, the same sizes
//   2: BILINEAR down, 8x128x128x32 -> 8x45x45x32
//   3: BILINEAR 2x up of one image, 1x56x56x64 (NCHW's 1x64x56x56) -> 1x112x112x64
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
  const char* mode;
  int64_t n, h, w, c, out_h, out_w;
  int64_t in_elements() const { return n * h * w * c; }
  int64_t out_elements() const { return n * out_h * out_w * c; }
};

const Shape kShapes[] = {{"BILINEAR", 8, 64, 64, 32, 128, 128},
                         {"NEAREST", 8, 64, 64, 32, 128, 128},
                         {"BILINEAR", 8, 128, 128, 32, 45, 45},
                         {"BILINEAR", 1, 56, 56, 64, 112, 112}};
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
  params.add_int("output_height", s.out_h)
      .add_int("output_width", s.out_w)
      .add_string("mode", s.mode)
      .add_string("coordinate_transformation", "HALF_PIXEL");
  return params;
}

std::vector<HostTensor> inputs_of(size_t shape) {
  const Shape& s = kShapes[shape];
  return {HostTensor::of(OPRIG_DTYPE_FLOAT_32, {s.n, s.h, s.w, s.c}, input(shape))};
}

void BM_ResizeCpu(benchmark::State& state) {
  const auto shape = static_cast<size_t>(state.range(0));
  auto& kernel = oprig::bench::cpu_kernel("resize_" + std::to_string(shape), static_cast<unsigned>(state.range(1)),
                                          "Resize", params_of(kShapes[shape]), [&] { return inputs_of(shape); },
                                          {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  if (!oprig::bench::time_cpu_kernel(state, kernel)) return;
  count(state, kShapes[shape]);
}

oprig::bench::OneDnnNhwcPeer* onednn_resize(size_t shape) {
  static std::unique_ptr<oprig::bench::OneDnnNhwcPeer> resizes[kShapeCount];
  if (!resizes[shape]) {
    const Shape& s = kShapes[shape];
    resizes[shape] = std::make_unique<oprig::bench::OneDnnNhwcPeer>(
        dnnl::memory::dims{s.n, s.c, s.h, s.w}, dnnl::memory::dims{s.n, s.c, s.out_h, s.out_w}, input(shape),
        [&s](const dnnl::engine& engine, const dnnl::memory::desc& src_md, const dnnl::memory::desc& dst_md) {
          const auto algorithm = std::string(s.mode) == "BILINEAR" ? dnnl::algorithm::resampling_linear
                                                                   : dnnl::algorithm::resampling_nearest;
          const dnnl::resampling_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src_md, dst_md);
          return dnnl::primitive(dnnl::resampling_forward(dnnl::resampling_forward::primitive_desc(desc, engine)));
        });
  }
  return resizes[shape].get();
}

void BM_ResizeOneDnn(benchmark::State& state) {
  const auto shape = static_cast<size_t>(state.range(0));
  omp_set_num_threads(static_cast<int>(state.range(1)));
  oprig::bench::OneDnnNhwcPeer* resize = onednn_resize(shape);
  for (auto _ : state) resize->run();
  count(state, kShapes[shape]);
}

void shapes_and_threads(benchmark::internal::Benchmark* b) {
  b->ArgNames({"shape", "threads"});
  for (int64_t shape = 0; shape < static_cast<int64_t>(kShapeCount); ++shape)
    for (int64_t threads : {1, 2}) b->Args({shape, threads});
}

void device_resize(benchmark::State& state, const char* backend) {
  const auto shape = static_cast<size_t>(state.range(0));
  auto& kernel = oprig::bench::device_kernel("resize/" + std::to_string(shape), backend, "Resize",
                                             params_of(kShapes[shape]), [shape] { return inputs_of(shape); },
                                             {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  oprig::bench::time_device_kernel(state, kernel, kShapes[shape].out_elements());
}

void BM_ResizeOpenCL(benchmark::State& state) { device_resize(state, "opencl"); }
void BM_ResizeVulkan(benchmark::State& state) { device_resize(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_ResizeCpu)->Apply(shapes_and_threads)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResizeOneDnn)->Apply(shapes_and_threads)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResizeOpenCL)->ArgName("shape")->DenseRange(0, 3)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResizeVulkan)->ArgName("shape")->DenseRange(0, 3)->UseManualTime()->Unit(benchmark::kMillisecond);
