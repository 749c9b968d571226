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

#include "bench/micro/device_kernel_bench.hpp"
#include "cpu/cpu_backend.hpp"
#include "runner/kernel_session.hpp"

extern "C" void omp_set_num_threads(int);  // libgomp, oneDNN's threading runtime in Debian

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
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

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

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

std::unique_ptr<Session> make(size_t shape, unsigned threads) {
  auto session = std::make_unique<Session>();
  session->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &session->error);
  if (impl == nullptr) return session;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  session->kernel = std::make_unique<KernelSession>(*session->backend, *impl, "Pool2D", params_of(kShapes[shape]),
                                                    inputs_of(shape), std::vector<oprig_tensor>{out});
  if (!session->kernel->ok()) session->error = session->kernel->error();
  return session;
}

void BM_Pool2DCpu(benchmark::State& state) {
  const auto shape = static_cast<size_t>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  static std::unique_ptr<Session> sessions[kShapeCount][3];
  auto& s = sessions[shape][threads];
  if (!s) s = make(shape, threads);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  count(state, kShapes[shape]);
}

// oneDNN's pooling with the same shapes, padding excluded from averages as in Pool2D's default.
struct OneDnnPool {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::pooling_forward pool;
  dnnl::memory src, dst;

  explicit OneDnnPool(size_t shape) {
    using tag = dnnl::memory::format_tag;
    using dt = dnnl::memory::data_type;
    const Shape& s = kShapes[shape];
    const dnnl::memory::desc src_md({s.n, s.c, s.h, s.w}, dt::f32, tag::nhwc);
    const dnnl::memory::desc dst_md({s.n, s.c, s.out_h(), s.out_w()}, dt::f32, tag::nhwc);
    const auto algorithm = std::string(s.type) == "MAX" ? dnnl::algorithm::pooling_max
                                                        : dnnl::algorithm::pooling_avg_exclude_padding;
    const dnnl::pooling_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src_md, dst_md,
                                           {s.stride, s.stride}, {s.kernel, s.kernel}, {s.pad, s.pad},
                                           {s.pad, s.pad});
    pool = dnnl::pooling_forward(dnnl::pooling_forward::primitive_desc(desc, engine));
    // Buffers oneDNN allocates (64-byte aligned): its kernels may use
    // aligned non-temporal stores, which fault on a plain std::vector.
    src = dnnl::memory(src_md, engine);
    dst = dnnl::memory(dst_md, engine);
    const std::vector<float>& x = input(shape);
    std::copy(x.begin(), x.end(), static_cast<float*>(src.get_data_handle()));
    std::fill_n(static_cast<float*>(dst.get_data_handle()), s.out_elements(), 0.0f);  // pages faulted in
  }
  void run() {
    pool.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    stream.wait();
  }
};

void BM_Pool2DOneDnn(benchmark::State& state) {
  const auto shape = static_cast<size_t>(state.range(0));
  omp_set_num_threads(static_cast<int>(state.range(1)));
  static std::unique_ptr<OneDnnPool> pools[kShapeCount];
  if (!pools[shape]) pools[shape] = std::make_unique<OneDnnPool>(shape);
  for (auto _ : state) pools[shape]->run();
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
