// DepthwiseConv2D on the cpu backend through the package ABI against
// oneDNN's grouped convolution (groups = channels) in the same process:
// 3x3, stride 1, pad 1, NHWC, multiplier 1, with bias, fp32, two MobileNet
// layers: 1x112x112x32 and 1x28x28x256.
//   BM_DepthwiseConv2DCpu/size:S/channels:C/threads:T/isa:I — the kernel (isa 2 AVX-512, 1 AVX2)
//   BM_OneDnnDepthwise/size:S/channels:C/threads:T         — dnnl::convolution_forward with
//        groups, NHWC activations, weights reordered once to the layout oneDNN picks (format
//        any), threads by omp_set_num_threads(T) before creation and run
// Counters: FLOP/s (2 * S * S * C * 9 per iteration) and bytes/s (input and
// output once: depthwise convolution is bound by memory more than arithmetic).
// On the device backends, the same convolution (NHWC, with bias) at
// 1x56x56x128 (a MobileNet layer), 1x112x112x32, and 8x112x112x128 (51 MB
// each way: big enough for a GPU's memory, not its launch, to set the time;
// seconds per execute on lavapipe), device time per execute (UseManualTime),
// bytes_per_second from the kernel's cost (input, weights, bias and output
// once):
//   BM_DepthwiseConv2DOpenCL/size:S/channels:C/batch:B, BM_DepthwiseConv2DVulkan/... —
//        read against the same-run probe BM_AddConstant{OpenCL,Vulkan}
//        (device_probe.cpp: the bandwidth of a copy-like pass on the same API)
// Run with --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>
#include <omp.h>

#include <dnnl.hpp>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "device_kernel_bench.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

constexpr int64_t kKernel = 3;

std::vector<float> values(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < v.size(); ++i) v[i] = (static_cast<float>(i % 251) - 125.0f) * scale;
  return v;
}

struct Data {
  std::vector<float> input, weights, bias;  // NHWC; [3, 3, 1, C]; [C]
};

const Data& data(int64_t size, int64_t channels) {
  static std::map<std::pair<int64_t, int64_t>, Data> by_shape;
  Data& d = by_shape[{size, channels}];
  if (d.input.empty())
    d = {values(static_cast<size_t>(size * size * channels), 1.0f / 128),
         values(static_cast<size_t>(kKernel * kKernel * channels), 1.0f / 16), values(static_cast<size_t>(channels), 1.0f / 64)};
  return d;
}

void set_counters(benchmark::State& state, int64_t size, int64_t channels) {
  const double outputs = static_cast<double>(size * size * channels) * static_cast<double>(state.iterations());
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * kKernel * kKernel * outputs, benchmark::Counter::kIsRate);
  state.counters["bytes/s"] = benchmark::Counter(8.0 * outputs, benchmark::Counter::kIsRate);
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(int64_t size, int64_t channels, unsigned threads, oprig_cpu_isa isa) {
  auto s = std::make_unique<Session>();
  if (isa > oprig::host_cpu_isa()) {
    s->error = "this host lacks the ISA";
    return s;
  }
  s->backend = std::make_unique<oprig::CpuBackend>(threads, isa);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  const Data& d = data(size, channels);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "DepthwiseConv2D", ParamList().add_ints("pad_amount", {1, 1, 1, 1}, OPRIG_DTYPE_UINT_32),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, size, size, channels}, d.input),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kKernel, kKernel, 1, channels}, d.weights),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {channels}, d.bias)},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_DepthwiseConv2DCpu(benchmark::State& state) {
  const int64_t size = state.range(0), channels = state.range(1);
  const auto threads = static_cast<unsigned>(state.range(2));
  const auto isa = static_cast<oprig_cpu_isa>(state.range(3));
  static std::map<std::tuple<int64_t, int64_t, unsigned, int>, std::unique_ptr<Session>> sessions;
  auto& s = sessions[{size, channels, threads, isa}];
  if (!s) s = make(size, channels, threads, isa);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  set_counters(state, size, channels);
}

// oneDNN's depthwise convolution: groups = channels, one input and one output channel per group.
struct OneDnnDepthwise {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::convolution_forward conv;
  dnnl::memory src, weights, bias, dst;

  OneDnnDepthwise(int64_t size, int64_t channels, int threads) {
    using dt = dnnl::memory::data_type;
    using tag = dnnl::memory::format_tag;
    omp_set_num_threads(threads);  // oneDNN sizes its blocking and its OpenMP team from this thread's setting
    const Data& d = data(size, channels);
    const dnnl::memory::dims act_dims = {1, channels, size, size};
    const dnnl::memory::dims weight_dims = {channels, 1, 1, kKernel, kKernel}, bias_dims = {channels};  // g, o, i, h, w
    const dnnl::memory::desc src_md(act_dims, dt::f32, tag::nhwc), dst_md(act_dims, dt::f32, tag::nhwc);
    const dnnl::memory::desc any_weights(weight_dims, dt::f32, tag::any), bias_md(bias_dims, dt::f32, tag::x);
    const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                               src_md, any_weights, bias_md, dst_md, {1, 1}, {1, 1}, {1, 1});
    const dnnl::convolution_forward::primitive_desc pd(desc, engine);
    conv = dnnl::convolution_forward(pd);
    src = dnnl::memory(src_md, engine, const_cast<float*>(d.input.data()));
    bias = dnnl::memory(bias_md, engine, const_cast<float*>(d.bias.data()));
    dst = dnnl::memory(dst_md, engine);
    // Ours: [kh, kw, 1, channels] = h, w, i, g, o in memory.
    dnnl::memory user_weights({weight_dims, dt::f32, tag::hwigo}, engine, const_cast<float*>(d.weights.data()));
    weights = dnnl::memory(pd.weights_desc(), engine);
    dnnl::reorder(user_weights, weights).execute(stream, user_weights, weights);
    stream.wait();
  }
  void run() {
    conv.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}});
    stream.wait();
  }
};

void BM_OneDnnDepthwise(benchmark::State& state) {
  const int64_t size = state.range(0), channels = state.range(1);
  const int threads = static_cast<int>(state.range(2));
  static std::map<std::tuple<int64_t, int64_t, int>, std::unique_ptr<OneDnnDepthwise>> convs;
  auto& c = convs[{size, channels, threads}];
  if (!c) c = std::make_unique<OneDnnDepthwise>(size, channels, threads);
  omp_set_num_threads(threads);
  for (auto _ : state) c->run();
  set_counters(state, size, channels);
}

void device_depthwise(benchmark::State& state, const char* backend) {
  const int64_t size = state.range(0), channels = state.range(1), batch = state.range(2);
  auto& kernel = oprig::bench::device_kernel(
      "depthwise_" + std::to_string(batch) + "x" + std::to_string(size) + "x" + std::to_string(channels), backend,
      "DepthwiseConv2D", ParamList().add_ints("pad_amount", {1, 1, 1, 1}, OPRIG_DTYPE_UINT_32),
      [size, channels, batch] {
        const Data& d = data(size, channels);
        std::vector<float> images;
        for (int64_t n = 0; n < batch; ++n) images.insert(images.end(), d.input.begin(), d.input.end());
        return std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {batch, size, size, channels}, images),
                                       HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kKernel, kKernel, 1, channels}, d.weights),
                                       HostTensor::of(OPRIG_DTYPE_FLOAT_32, {channels}, d.bias)};
      },
      {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
  oprig::bench::time_device_kernel(state, kernel, batch * size * size * channels);
}

void BM_DepthwiseConv2DOpenCL(benchmark::State& state) { device_depthwise(state, "opencl"); }
void BM_DepthwiseConv2DVulkan(benchmark::State& state) { device_depthwise(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_DepthwiseConv2DCpu)->ArgNames({"size", "channels", "threads", "isa"})
    ->Args({112, 32, 1, OPRIG_CPU_ISA_AVX512})->Args({112, 32, 2, OPRIG_CPU_ISA_AVX512})
    ->Args({112, 32, 1, OPRIG_CPU_ISA_AVX2})->Args({28, 256, 1, OPRIG_CPU_ISA_AVX512})
    ->Args({28, 256, 2, OPRIG_CPU_ISA_AVX512})->Args({28, 256, 1, OPRIG_CPU_ISA_AVX2})
    ->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OneDnnDepthwise)->ArgNames({"size", "channels", "threads"})
    ->Args({112, 32, 1})->Args({112, 32, 2})->Args({28, 256, 1})->Args({28, 256, 2})
    ->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DepthwiseConv2DOpenCL)->ArgNames({"size", "channels", "batch"})
    ->Args({56, 128, 1})->Args({112, 32, 1})->Args({112, 128, 8})->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DepthwiseConv2DVulkan)->ArgNames({"size", "channels", "batch"})
    ->Args({56, 128, 1})->Args({112, 32, 1})->Args({112, 128, 8})->UseManualTime()->Unit(benchmark::kMicrosecond);
