// ScaledDotProductAttention on the cpu backend through the package ABI,
// against the textbook Eigen formulation (eigen_peer.cpp: two Eigen GEMMs and
// a row softmax, built for the same vector ISA as the kernel's path), in the
// same run, fp32:
//   BM_SdpaCpu/shape:S/causal:C/threads:N     the kernel
//   BM_SdpaEigen/shape:S/causal:C/threads:N   the peer; threads:2 splits the
//                                             heads between the caller and one std::thread
// Shapes: 0 = [1, 8, 512, 64] self-attention (encoder), 1 = [1, 32, 1, 128]
// queries over [1, 32, 2048, 128] keys (one decoding step). The GFLOPs
// counter counts 4 Sq Sk D per head whether causal or not.
// On the device backends (device time per execute, device_kernel_bench.hpp),
// [1, 8, 1024, 64], fp32 and fp16, causal or not, read against the same-run
// probe BM_AddConstant{OpenCL,Vulkan} and the device's calibrated FMA peak:
//   BM_ScaledDotProductAttentionOpenCL/fp16:H/causal:C   the fused kernel
//   BM_ScaledDotProductAttentionVulkan/fp16:H/causal:C
//   BM_SdpaUnfusedOpenCL/fp16:H/causal:C   the same attention unfused, through
//   BM_SdpaUnfusedVulkan/fp16:H/causal:C   the suite's own device kernels: MatMul
//       (Q K^T, transpose_b), for causal an ElementwiseBinary ADD of a [S, S]
//       mask (-Inf above the diagonal), Softmax (beta = the scale) over the
//       [1, 8, S, S] logits in memory, MatMul (P V); the sum of their device
//       times per iteration (each kernel on resident inputs of its shape).
#include <benchmark/benchmark.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "device_kernel_bench.hpp"
#include "runner/kernel_session.hpp"
#include "scaled_dot_product_attention/eigen_peer.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;
using oprig::opsuite::sdpa_peer::EigenPeerProblem;

struct BenchShape {
  int64_t heads, query_len, key_len, depth;
};
constexpr BenchShape kShapes[] = {{8, 512, 512, 64}, {32, 1, 2048, 128}};

struct Inputs {
  std::vector<float> query, key, value;
};

const Inputs& inputs(int shape) {
  static std::unique_ptr<Inputs> cache[2];
  if (!cache[shape]) {
    const BenchShape& s = kShapes[shape];
    cache[shape] = std::make_unique<Inputs>();
    uint32_t state = 7;
    auto fill = [&](std::vector<float>& v, int64_t n) {
      v.resize(static_cast<size_t>(n));
      for (float& e : v) {
        state = state * 1664525u + 1013904223u;
        e = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
      }
    };
    fill(cache[shape]->query, s.heads * s.query_len * s.depth);
    fill(cache[shape]->key, s.heads * s.key_len * s.depth);
    fill(cache[shape]->value, s.heads * s.key_len * s.depth);
  }
  return *cache[shape];
}

void count(benchmark::State& state, const BenchShape& s) {
  const double flops = 4.0 * static_cast<double>(s.heads * s.query_len * s.key_len * s.depth);
  state.counters["GFLOPs"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

struct KernelRun {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

void BM_SdpaCpu(benchmark::State& state) {
  const auto shape = static_cast<int>(state.range(0));
  const bool causal = state.range(1) != 0;
  const auto threads = static_cast<unsigned>(state.range(2));
  static std::unique_ptr<KernelRun> runs[2][2][3];
  auto& r = runs[shape][causal][threads];
  if (!r) {
    r = std::make_unique<KernelRun>();
    r->backend = std::make_unique<oprig::CpuBackend>(threads);
    const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &r->error);
    if (impl != nullptr) {
      const BenchShape& s = kShapes[shape];
      const Inputs& in = inputs(shape);
      oprig_tensor out{};
      out.dtype = OPRIG_DTYPE_FLOAT_32;
      r->kernel = std::make_unique<KernelSession>(
          *r->backend, *impl, "ScaledDotProductAttention", ParamList().add_bool("is_causal", causal),
          std::vector<HostTensor>{
              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, s.heads, s.query_len, s.depth}, in.query),
              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, s.heads, s.key_len, s.depth}, in.key),
              HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, s.heads, s.key_len, s.depth}, in.value)},
          std::vector<oprig_tensor>{out});
      if (!r->kernel->ok()) r->error = r->kernel->error();
    }
  }
  if (!r->error.empty()) {
    state.SkipWithError(r->error.c_str());
    return;
  }
  for (auto _ : state)
    if (r->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  count(state, kShapes[shape]);
}

void BM_SdpaEigen(benchmark::State& state) {
  const auto shape = static_cast<int>(state.range(0));
  const bool causal = state.range(1) != 0;
  const auto threads = static_cast<int64_t>(state.range(2));
  const BenchShape& s = kShapes[shape];
  const Inputs& in = inputs(shape);
  // The peer gets the vector ISA the kernel's path gets (the host's, or
  // OPRIG_CPU_ISA's cap).
  const oprig::CpuBackend backend(1);
  auto* attention = &oprig::opsuite::sdpa_peer::avx2::attention;
  if (backend.context().cpu_isa == OPRIG_CPU_ISA_AVX512) attention = &oprig::opsuite::sdpa_peer::avx512::attention;
  else if (backend.context().cpu_isa != OPRIG_CPU_ISA_AVX2) {
    state.SkipWithError("the Eigen peer is built for AVX2 and AVX-512 only");
    return;
  }
  std::vector<float> out(static_cast<size_t>(s.heads * s.query_len * s.depth));
  EigenPeerProblem p{s.query_len, s.key_len, s.depth, s.depth, 1.0f / std::sqrt(static_cast<float>(s.depth)), causal,
                     in.query.data(), in.key.data(), in.value.data(), out.data()};
  std::vector<float> logits[2];
  for (auto& l : logits) l.resize(static_cast<size_t>(s.query_len * s.key_len));
  const int64_t half = s.heads / 2;
  for (auto _ : state) {
    if (threads == 1) {
      attention(p, 0, s.heads, logits[0].data());
    } else {
      std::thread second([&] { attention(p, half, s.heads, logits[1].data()); });
      attention(p, 0, half, logits[0].data());
      second.join();
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  count(state, s);
}

void arguments(benchmark::internal::Benchmark* b) {
  b->ArgNames({"shape", "causal", "threads"});
  for (int64_t threads : {1, 2}) {
    b->Args({0, 0, threads});
    b->Args({0, 1, threads});
    b->Args({1, 0, threads});
  }
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}

// The device rows: [1, 8, 1024, 64] with the default scale.
constexpr BenchShape kDeviceShape = {8, 1024, 1024, 64};

// FLOAT_32 or FLOAT_16 (rounded from) `values`.
HostTensor device_tensor(std::vector<int64_t> shape, const std::vector<float>& values, bool half) {
  if (!half) return HostTensor::of(OPRIG_DTYPE_FLOAT_32, std::move(shape), values);
  std::vector<uint16_t> halves(values.size());
  for (size_t i = 0; i < values.size(); ++i) halves[i] = oprig::float_to_half(values[i]);
  return HostTensor::of(OPRIG_DTYPE_FLOAT_16, std::move(shape), halves);
}

// Uniform values in [low, high), the same sequence for every `seed`.
HostTensor random_tensor(std::vector<int64_t> shape, float low, float high, bool half, uint32_t seed) {
  std::vector<float> values(static_cast<size_t>(shape[0] * shape[1] * shape[2] * shape[3]));
  for (float& e : values) {
    seed = seed * 1664525u + 1013904223u;
    e = low + (high - low) * static_cast<float>(seed >> 8) / 16777216.0f;
  }
  return device_tensor(std::move(shape), values, half);
}

std::vector<HostTensor> device_inputs(bool half) {
  const BenchShape& s = kDeviceShape;
  const std::vector<int64_t> shape = {1, s.heads, s.query_len, s.depth};
  return {random_tensor(shape, -1, 1, half, 7), random_tensor(shape, -1, 1, half, 8),
          random_tensor(shape, -1, 1, half, 9)};
}

void device_attention(benchmark::State& state, const char* backend) {
  const bool half = state.range(0) != 0, causal = state.range(1) != 0;
  const std::string key = std::string("sdpa/") + (half ? "f16" : "f32") + (causal ? "/causal" : "");
  auto& kernel = oprig::bench::device_kernel(
      key, backend, "ScaledDotProductAttention", ParamList().add_bool("is_causal", causal),
      [half] { return device_inputs(half); },
      {oprig::bench::output_of(half ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32)});
  oprig::bench::time_device_kernel(state, kernel, kDeviceShape.heads * kDeviceShape.query_len);
  count(state, kDeviceShape);
}

void BM_ScaledDotProductAttentionOpenCL(benchmark::State& state) { device_attention(state, "opencl"); }
void BM_ScaledDotProductAttentionVulkan(benchmark::State& state) { device_attention(state, "vulkan"); }

// One step of the unfused path: its kernel, made on first use (per dtype).
oprig::bench::DeviceKernel& unfused_step(const std::string& step, const char* backend, bool half) {
  const BenchShape& s = kDeviceShape;
  const oprig_dtype dtype = half ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32;
  auto tensor = [half](std::vector<int64_t> shape, float low, float high) {
    return random_tensor(std::move(shape), low, high, half, 11);
  };
  const std::vector<int64_t> qkv = {1, s.heads, s.query_len, s.depth}, logits = {1, s.heads, s.query_len, s.key_len};
  const std::string key = "sdpa_unfused/" + step + (half ? "/f16" : "/f32");
  const std::vector<oprig_tensor> out = {oprig::bench::output_of(dtype)};
  if (step == "qk")
    return oprig::bench::device_kernel(
        key, backend, "MatMul", ParamList().add_bool("transpose_b", true),
        [&] { return std::vector<HostTensor>{tensor(qkv, -1, 1), tensor(qkv, -1, 1)}; }, out);
  if (step == "mask")
    return oprig::bench::device_kernel(
        key, backend, "ElementwiseBinary", ParamList().add_int("operation", 0, OPRIG_DTYPE_UINT_32),  // ADD
        [&] {
          std::vector<float> mask(static_cast<size_t>(s.query_len * s.key_len), 0.0f);
          for (int64_t i = 0; i < s.query_len; ++i)
            for (int64_t j = i + 1; j < s.key_len; ++j)
              mask[static_cast<size_t>(i * s.key_len + j)] = -std::numeric_limits<float>::infinity();
          return std::vector<HostTensor>{tensor(logits, -8, 8), device_tensor({s.query_len, s.key_len}, mask, half)};
        },
        out);
  if (step == "softmax")
    return oprig::bench::device_kernel(
        key, backend, "Softmax",
        ParamList().add_int("axis", -1).add_float("beta", 1.0f / std::sqrt(static_cast<float>(s.depth))),
        [&] { return std::vector<HostTensor>{tensor(logits, -8, 8)}; }, out);
  // "pv": values in [0, 1/S) stand in for the weights P (the timing does not depend on them).
  return oprig::bench::device_kernel(
      key, backend, "MatMul", ParamList(),
      [&] { return std::vector<HostTensor>{tensor(logits, 0, 1.0f / static_cast<float>(s.key_len)), tensor(qkv, -1, 1)}; },
      out);
}

void unfused_attention(benchmark::State& state, const char* backend) {
  const bool half = state.range(0) != 0, causal = state.range(1) != 0;
  std::vector<std::pair<std::string, oprig::bench::DeviceKernel*>> steps;
  for (const char* step : {"qk", "mask", "softmax", "pv"})
    if (causal || std::string(step) != "mask") steps.emplace_back(step, &unfused_step(step, backend, half));
  for (const auto& [name, kernel] : steps)
    if (kernel->session == nullptr) {
      state.SkipWithError(("unavailable: " + name + ": " + kernel->error).c_str());
      return;
    }
  for (auto _ : state) {
    double ns = 0;
    for (const auto& [name, kernel] : steps) {
      oprig::ExecTiming timing;
      if (kernel->session->run(&timing) != OPRIG_STATUS_OK) {
        state.SkipWithError((name + ": execute failed").c_str());
        return;
      }
      ns += timing.compute_ns;
    }
    state.SetIterationTime(ns * 1e-9);
  }
  count(state, kDeviceShape);
  state.SetLabel(steps.front().second->backend->info().device_name);
}

void BM_SdpaUnfusedOpenCL(benchmark::State& state) { unfused_attention(state, "opencl"); }
void BM_SdpaUnfusedVulkan(benchmark::State& state) { unfused_attention(state, "vulkan"); }

void device_arguments(benchmark::internal::Benchmark* b) {
  b->ArgNames({"fp16", "causal"});
  for (int64_t half : {0, 1})
    for (int64_t causal : {0, 1}) b->Args({half, causal});
  b->UseManualTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_SdpaCpu)->Apply(arguments);
BENCHMARK(BM_SdpaEigen)->Apply(arguments);
BENCHMARK(BM_ScaledDotProductAttentionOpenCL)->Apply(device_arguments);
BENCHMARK(BM_ScaledDotProductAttentionVulkan)->Apply(device_arguments);
BENCHMARK(BM_SdpaUnfusedOpenCL)->Apply(device_arguments);
BENCHMARK(BM_SdpaUnfusedVulkan)->Apply(device_arguments);
