// Conv2D through the package ABI against its peers in the same process: 3x3,
// stride 1, pad 1, 1x56x56x64 -> 64 (a ResNet-50 stage-1 layer), fp32.
// On the cpu backend (NHWC, with bias) against oneDNN's convolution:
//   BM_Conv2DCpu/threads:T/isa:I   — the kernel (isa 2 AVX-512, 1 AVX2; a path the host lacks is skipped)
//   BM_OneDnnConv/threads:T        — dnnl::convolution_forward, NHWC activations, weights
//                                    reordered once to the layout oneDNN picks (format any),
//                                    threads by omp_set_num_threads(T) before creation and run
// Our kernel repacks the weights at every execute; oneDNN's reorder is outside
// the timed loop, so the comparison slightly favours oneDNN.
// Counters: FLOP/s (2 * 56 * 56 * 64 * 3 * 3 * 64 per iteration).
// On the device backends (NCHW, the spec's GPU layout; no bias, so that the
// work equals the peer's), device time per execute (UseManualTime):
//   BM_Conv2DOpenCL, BM_Conv2DVulkan — the kernels (device_kernel_bench.hpp)
//   BM_ClBlastConvgemm               — CLBlastSconvgemm (im2col, then CLBlast's GEMM; weights
//        [64, 64, 3, 3] as it wants them) on the opencl backend's own context and queue;
//        time from a marker enqueued before the call to the end of the event CLBlast hands
//        back (both of its kernels and the host's turn between them, as ours is timed from
//        its first command to its last); gemm_ms is the GEMM kernel alone. Warmed up (its
//        first call builds its programs, about 20 s on PoCL) and checked against
//        BM_Conv2DOpenCL's output once before timing.
// Run with --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>
#include <omp.h>
#if OPRIG_BENCH_CLBLAST  // the peer's target defines it (opsuite/CMakeLists.txt): with the OpenCL backend only
#include <CL/cl.h>
#include <clblast_c.h>
#endif

#include <cmath>
#include <dnnl.hpp>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "device_kernel_bench.hpp"
#include "kept_until_exit.hpp"
#include "runner/kernel_session.hpp"
#if OPRIG_BENCH_CLBLAST
#include "common/clblast_at_exit.hpp"
#endif

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

// ---- device backends: NCHW, no bias ---------------------------------------------------

const std::vector<float>& input_nchw() {
  static const std::vector<float> v = [] {
    const std::vector<float>& nhwc = input();
    std::vector<float> t(nhwc.size());
    for (int64_t c = 0; c < kChannels; ++c)
      for (int64_t p = 0; p < kSize * kSize; ++p)
        t[static_cast<size_t>(c * kSize * kSize + p)] = nhwc[static_cast<size_t>(p * kChannels + c)];
    return t;
  }();
  return v;
}

oprig::bench::DeviceKernel& device_conv(const char* backend) {
  return oprig::bench::device_kernel(
      "conv2d_nchw_3x3", backend, "Conv2D",
      ParamList().add_ints("pad_amount", {1, 1, 1, 1}, OPRIG_DTYPE_UINT_32),
      [] {
        return std::vector<HostTensor>{
            HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kBatch, kChannels, kSize, kSize}, input_nchw()),
            HostTensor::of(OPRIG_DTYPE_FLOAT_32, {kKernel, kKernel, kChannels, kChannels}, weights_hwio())};
      },
      {oprig::bench::output_of(OPRIG_DTYPE_FLOAT_32)});
}

constexpr int64_t kOutputs = kBatch * kChannels * kSize * kSize;

void BM_Conv2DOpenCL(benchmark::State& state) {
  oprig::bench::time_device_kernel(state, device_conv("opencl"), kOutputs);
}
void BM_Conv2DVulkan(benchmark::State& state) {
  oprig::bench::time_device_kernel(state, device_conv("vulkan"), kOutputs);
}

#if OPRIG_BENCH_CLBLAST
double profiled_ns(cl_event event, cl_profiling_info what) {
  cl_ulong t = 0;
  clGetEventProfilingInfo(event, what, sizeof t, &t, nullptr);
  return static_cast<double>(t);
}

// CLBlast's convgemm on the opencl backend's context and queue, warmed up and
// checked once against our kernel's output.
struct ClBlastConv {
  cl_command_queue queue = nullptr;
  cl_mem image = nullptr, filters = nullptr, result = nullptr;
  std::string error;

  explicit ClBlastConv(oprig::bench::DeviceKernel& ours) {
    if (ours.session == nullptr) {
      error = "unavailable: " + ours.error;
      return;
    }
    const oprig_backend_context& ctx = ours.backend->context();
    queue = static_cast<cl_command_queue>(ctx.cl_queue);
    const auto context = static_cast<cl_context>(ctx.cl_context);
    std::vector<float> oihw(weights_hwio().size());
    for (int64_t o = 0; o < kChannels; ++o)
      for (int64_t i = 0; i < kChannels; ++i)
        for (int64_t t = 0; t < kKernel * kKernel; ++t)
          oihw[static_cast<size_t>((o * kChannels + i) * kKernel * kKernel + t)] =
              weights_hwio()[static_cast<size_t>((t * kChannels + i) * kChannels + o)];
    cl_int err = CL_SUCCESS;
    auto upload = [&](const std::vector<float>& v) {
      return clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(float),
                            const_cast<float*>(v.data()), &err);
    };
    image = upload(input_nchw());
    filters = upload(oihw);
    result = clCreateBuffer(context, CL_MEM_READ_WRITE, kOutputs * sizeof(float), nullptr, &err);
    if (image == nullptr || filters == nullptr || result == nullptr) {
      error = "buffers: OpenCL error " + std::to_string(err);
      return;
    }
    cl_event done = nullptr;
    if (!run(&done)) return;  // the warm-up: CLBlast builds its programs on the first call
    oprig::opsuite::clear_clblast_cache_at_exit();
    clReleaseEvent(done);
    std::vector<float> theirs(kOutputs);
    clEnqueueReadBuffer(queue, result, CL_TRUE, 0, theirs.size() * sizeof(float), theirs.data(), 0, nullptr, nullptr);
    if (ours.session->run() != OPRIG_STATUS_OK) {
      error = "our kernel failed";
      return;
    }
    const std::vector<float> mine = ours.session->output(0).as<float>();
    for (size_t i = 0; i < theirs.size(); ++i)
      if (std::fabs(theirs[i] - mine[i]) > 1e-3f * (1.0f + std::fabs(mine[i]))) {
        error = "CLBlast and Conv2D disagree at element " + std::to_string(i);
        return;
      }
  }
  ~ClBlastConv() {
    for (cl_mem m : {image, filters, result})
      if (m != nullptr) clReleaseMemObject(m);
  }

  bool run(cl_event* done) {
    const CLBlastStatusCode status = CLBlastSconvgemm(
        CLBlastKernelModeCrossCorrelation, kChannels, kSize, kSize, kKernel, kKernel, 1, 1, 1, 1, 1, 1, kChannels,
        kBatch, image, 0, filters, 0, result, 0, &queue, done);
    if (status != CLBlastSuccess) {
      error = "CLBlastSconvgemm returned " + std::to_string(status);
      return false;
    }
    return clWaitForEvents(1, done) == CL_SUCCESS;
  }
};

void BM_ClBlastConvgemm(benchmark::State& state) {
  // Never destroyed (kept_until_exit.hpp: at exit the driver may already be gone).
  static auto& peer = oprig::kept_until_exit<ClBlastConv>(device_conv("opencl"));
  if (!peer.error.empty()) {
    state.SkipWithError(peer.error.c_str());
    return;
  }
  double gemm_ns = 0;
  for (auto _ : state) {
    cl_event start = nullptr, done = nullptr;
    clEnqueueMarkerWithWaitList(peer.queue, 0, nullptr, &start);
    if (!peer.run(&done)) {
      state.SkipWithError(peer.error.c_str());
      return;
    }
    const double end = profiled_ns(done, CL_PROFILING_COMMAND_END);
    state.SetIterationTime((end - profiled_ns(start, CL_PROFILING_COMMAND_START)) * 1e-9);
    gemm_ns += end - profiled_ns(done, CL_PROFILING_COMMAND_START);
    clReleaseEvent(start);
    clReleaseEvent(done);
  }
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["gemm_ms"] = benchmark::Counter(gemm_ns * 1e-6 / std::max(1.0, iterations));
  state.counters["flops"] = benchmark::Counter(kFlops * iterations, benchmark::Counter::kIsRate);
  state.SetItemsProcessed(static_cast<int64_t>(iterations) * kOutputs);
}
#endif

}  // namespace

BENCHMARK(BM_Conv2DCpu)->ArgNames({"threads", "isa"})
    ->ArgsProduct({{1, 2}, {OPRIG_CPU_ISA_AVX512, OPRIG_CPU_ISA_AVX2}})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OneDnnConv)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Conv2DOpenCL)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Conv2DVulkan)->UseManualTime()->Unit(benchmark::kMillisecond);
#if OPRIG_BENCH_CLBLAST
BENCHMARK(BM_ClBlastConvgemm)->UseManualTime()->Unit(benchmark::kMillisecond);
#endif
