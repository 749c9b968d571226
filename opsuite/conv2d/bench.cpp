// Conv2D on the cpu backend through the package ABI against oneDNN's
// convolution in the same process: 3x3, stride 1, pad 1, NHWC 1x56x56x64 -> 64
// with bias (a ResNet-50 stage-1 layer), fp32.
//   BM_Conv2DCpu/threads:T/isa:I   — the kernel (isa 2 AVX-512, 1 AVX2; a path the host lacks is skipped)
//   BM_OneDnnConv/threads:T        — dnnl::convolution_forward, NHWC activations, weights
//                                    reordered once to the layout oneDNN picks (format any),
//                                    threads by omp_set_num_threads(T) before creation and run
// Our kernel repacks the weights at every execute; oneDNN's reorder is outside
// the timed loop, so the comparison slightly favours oneDNN.
// Counters: FLOP/s (2 * 56 * 56 * 64 * 3 * 3 * 64 per iteration). Run with
//   --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>
#include <omp.h>

#include <dnnl.hpp>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

constexpr int64_t kBatch = 1, kSize = 56, kChannels = 64, kKernel = 3;
constexpr double kFlops = 2.0 * kBatch * kSize * kSize * kChannels * kKernel * kKernel * kChannels;

std::vector<float> values(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (static_cast<float>(i % 251) - 125.0f) * scale;
  return v;
}

const std::vector<float>& input() {
  static const std::vector<float> v = values(kBatch * kSize * kSize * kChannels, 1.0f / 128);
  return v;
}
const std::vector<float>& weights_hwio() {
  static const std::vector<float> v = values(kKernel * kKernel * kChannels * kChannels, 1.0f / 512);
  return v;
}
const std::vector<float>& bias_values() {
  static const std::vector<float> v = values(kChannels, 1.0f / 64);
  return v;
}

void set_flops(benchmark::State& state) {
  state.counters["FLOP/s"] =
      benchmark::Counter(kFlops * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads, oprig_cpu_isa isa) {
  auto s = std::make_unique<Session>();
  if (isa > oprig::host_cpu_isa()) {
    s->error = "this host lacks the ISA";
    return s;
  }
  s->backend = std::make_unique<oprig::CpuBackend>(threads, isa);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  s->kernel = std::make_unique<KernelSession>(
      *s->backend, *impl, "Conv2D",
      ParamList().add_ints("pad_amount", {1, 1, 1, 1}, OPRIG_DTYPE_UINT_32),
      std::vector<HostTensor>{HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kBatch, kSize, kSize, kChannels}, input()),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kKernel, kKernel, kChannels, kChannels}, weights_hwio()),
                              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kChannels}, bias_values())},
      std::vector<oprig_tensor>{out});
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_Conv2DCpu(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  const auto isa = static_cast<oprig_cpu_isa>(state.range(1));
  static std::map<std::pair<unsigned, int>, std::unique_ptr<Session>> sessions;
  auto& s = sessions[{threads, isa}];
  if (!s) s = make(threads, isa);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  set_flops(state);
}

// oneDNN's convolution with NHWC activations and the weight layout it prefers.
struct OneDnnConv {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::convolution_forward conv;
  dnnl::memory src, weights, bias, dst;

  explicit OneDnnConv(int threads) {
    using dt = dnnl::memory::data_type;
    using tag = dnnl::memory::format_tag;
    omp_set_num_threads(threads);  // oneDNN sizes its blocking and its OpenMP team from this thread's setting
    const dnnl::memory::dims src_dims = {kBatch, kChannels, kSize, kSize}, dst_dims = src_dims;
    const dnnl::memory::dims weight_dims = {kChannels, kChannels, kKernel, kKernel}, bias_dims = {kChannels};
    const dnnl::memory::desc src_md(src_dims, dt::f32, tag::nhwc), dst_md(dst_dims, dt::f32, tag::nhwc);
    const dnnl::memory::desc any_weights(weight_dims, dt::f32, tag::any), bias_md(bias_dims, dt::f32, tag::x);
    const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                               src_md, any_weights, bias_md, dst_md, {1, 1}, {1, 1}, {1, 1});
    const dnnl::convolution_forward::primitive_desc pd(desc, engine);
    conv = dnnl::convolution_forward(pd);
    src = dnnl::memory(src_md, engine, const_cast<float*>(input().data()));
    bias = dnnl::memory(bias_md, engine, const_cast<float*>(bias_values().data()));
    dst = dnnl::memory(dst_md, engine);
    dnnl::memory user_weights({weight_dims, dt::f32, tag::hwio}, engine, const_cast<float*>(weights_hwio().data()));
    weights = dnnl::memory(pd.weights_desc(), engine);
    dnnl::reorder(user_weights, weights).execute(stream, user_weights, weights);
    stream.wait();
  }
  void run() {
    conv.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}});
    stream.wait();
  }
};

void BM_OneDnnConv(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  static std::map<int, std::unique_ptr<OneDnnConv>> convs;
  auto& c = convs[threads];
  if (!c) c = std::make_unique<OneDnnConv>(threads);
  omp_set_num_threads(threads);
  for (auto _ : state) c->run();
  set_flops(state);
}

}  // namespace

BENCHMARK(BM_Conv2DCpu)->ArgNames({"threads", "isa"})
    ->ArgsProduct({{1, 2}, {OPRIG_CPU_ISA_AVX512, OPRIG_CPU_ISA_AVX2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OneDnnConv)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
