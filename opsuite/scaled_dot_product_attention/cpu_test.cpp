// The cpu ScaledDotProductAttention kernel through the package ABI: small
// cases worked out by hand (equal and 1:3 weights, causal rows, logits of
// 10^6 and offsets of 20000 that overflow exp unless the maximum is taken
// out first, rows with no key to attend to), the AVX-512 and AVX2 paths
// agreeing bit for bit and the baseline within the tolerance, thread counts
// agreeing bit for bit, a broadcast mask equal to its expansion, and shapes
// the op does not define rejected in prepare.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <stdexcept>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

HostTensor f32(std::vector<int64_t> shape, std::vector<float> values) {
  return HostTensor::of(OPRIG_DTYPE_FLOAT_32, std::move(shape), values);
}

std::unique_ptr<KernelSession> session(CpuBackend& backend, std::vector<HostTensor> inputs, const ParamList& params,
                                       oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32) {
  oprig_tensor out{};
  out.dtype = dtype;
  return std::make_unique<KernelSession>(backend, cpu_impl(), "ScaledDotProductAttention", params, std::move(inputs),
                                         std::vector<oprig_tensor>{out});
}

HostTensor run(CpuBackend& backend, std::vector<HostTensor> inputs, const ParamList& params = ParamList(),
               oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32) {
  auto s = session(backend, std::move(inputs), params, dtype);
  if (!s->ok()) throw std::runtime_error(s->error());
  if (s->run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s->output(0);
}

std::vector<oprig_cpu_isa> host_isas() {
  std::vector<oprig_cpu_isa> isas;
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512})
    if (isa <= host_cpu_isa()) isas.push_back(isa);
  return isas;
}

TEST(ScaledDotProductAttentionCpu, WeightsWorkedOutByHand) {
  // D = 1, scale 1: query 0 scores both keys 0 (equal weights, (1 + 5) / 2 = 3);
  // query 1 scores them 0 and ln 3 (weights 1/4 and 3/4: 1/4 + 15/4 = 4).
  // Causal, query 0 sees key 0 only: 1.
  const HostTensor q = f32({1, 1, 2, 1}, {0.0f, std::log(3.0f)});
  const HostTensor k = f32({1, 1, 2, 1}, {0.0f, 1.0f});
  const HostTensor v = f32({1, 1, 2, 1}, {1.0f, 5.0f});
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    const std::vector<float> plain = run(backend, {q, k, v}, ParamList().add_float("scale", 1.0f)).as<float>();
    EXPECT_NEAR(plain[0], 3.0f, 1e-6f) << isa;
    EXPECT_NEAR(plain[1], 4.0f, 4e-6f) << isa;
    const std::vector<float> causal =
        run(backend, {q, k, v}, ParamList().add_float("scale", 1.0f).add_bool("is_causal", true)).as<float>();
    EXPECT_EQ(causal[0], 1.0f) << isa;
    EXPECT_NEAR(causal[1], 4.0f, 4e-6f) << isa;
  }
}

TEST(ScaledDotProductAttentionCpu, DefaultScaleIsOneOverSqrtDepth) {
  // D = 4, q = k0 = (1, 1, 1, 1), k1 = 0: dot products 4 and 0, scaled by 1/2:
  // logits 2 and 0, weights e^2 / (e^2 + 1) and 1 / (e^2 + 1).
  const HostTensor q = f32({1, 1, 1, 4}, {1, 1, 1, 1});
  const HostTensor k = f32({1, 1, 2, 4}, {1, 1, 1, 1, 0, 0, 0, 0});
  const HostTensor v = f32({1, 1, 2, 1}, {1.0f, 0.0f});
  const double expected = std::exp(2.0) / (std::exp(2.0) + 1.0);
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    EXPECT_NEAR(run(backend, {q, k, v}).as<float>()[0], expected, 1e-6) << isa;
  }
}

TEST(ScaledDotProductAttentionCpu, HugeLogitsDoNotOverflow) {
  // Logits 10^6 and 10^6 - 1000: the second weight is e^-1000 = 0, the output is v0.
  const HostTensor q = f32({1, 1, 1, 1}, {1000.0f});
  const HostTensor k = f32({1, 1, 2, 1}, {1000.0f, 999.0f});
  const HostTensor v = f32({1, 1, 2, 2}, {0.25f, -3.0f, 7.0f, 9.0f});
  // Logits 20000 + 0 for both keys (a constant mask): equal weights, the mean of v.
  const HostTensor zero_q = f32({1, 1, 1, 1}, {0.0f});
  const HostTensor offset = f32({1}, {20000.0f});
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    EXPECT_EQ(run(backend, {q, k, v}, ParamList().add_float("scale", 1.0f)).as<float>(),
              (std::vector<float>{0.25f, -3.0f}))
        << isa;
    EXPECT_EQ(run(backend, {zero_q, k, v, offset}).as<float>(), (std::vector<float>{3.625f, 3.0f})) << isa;
  }
}

TEST(ScaledDotProductAttentionCpu, QueriesWithNoKeyToAttendToAreNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  const HostTensor q = f32({1, 1, 3, 2}, {1, 0, 0, 1, 1, 1});
  const HostTensor k = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  const HostTensor v = f32({1, 1, 2, 1}, {1, 2});
  // Per-query mask [3, 1]: query 1 has every key masked.
  const HostTensor mask = f32({3, 1}, {0.0f, -inf, 0.0f});
  // No keys at all: softmax over nothing.
  const HostTensor k0 = f32({1, 1, 0, 2}, {});
  const HostTensor v0 = f32({1, 1, 0, 1}, {});
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    const std::vector<float> y = run(backend, {q, k, v, mask}).as<float>();
    EXPECT_FALSE(std::isnan(y[0])) << isa;
    EXPECT_TRUE(std::isnan(y[1])) << isa;
    EXPECT_FALSE(std::isnan(y[2])) << isa;
    for (float e : run(backend, {q, k0, v0}).as<float>()) EXPECT_TRUE(std::isnan(e)) << isa;
  }
}

// Deterministic values in [-1, 1).
std::vector<float> values(size_t n, uint32_t seed) {
  std::vector<float> out(n);
  uint32_t state = seed * 2654435761u + 1;
  for (float& v : out) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
  }
  return out;
}

struct Shapes {
  int64_t b, h, sq, sk, d, dv;
};

std::vector<HostTensor> random_inputs(const Shapes& s, bool with_mask, oprig_dtype dtype) {
  std::vector<std::vector<int64_t>> shapes = {{s.b, s.h, s.sq, s.d}, {s.b, s.h, s.sk, s.d}, {s.b, s.h, s.sk, s.dv}};
  if (with_mask) shapes.push_back({1, s.h, s.sq, s.sk});
  std::vector<HostTensor> out;
  uint32_t seed = 1;
  for (const auto& shape : shapes) {
    size_t n = 1;
    for (int64_t d : shape) n *= static_cast<size_t>(d);
    std::vector<float> v = values(n, seed++);
    if (out.size() == 3)  // the mask: a few keys masked out
      for (size_t i = 0; i < n; i += 7) v[i] = -std::numeric_limits<float>::infinity();
    if (dtype == OPRIG_DTYPE_FLOAT_32) {
      out.push_back(HostTensor::of(dtype, shape, v));
    } else {
      std::vector<uint16_t> h(n);
      for (size_t i = 0; i < n; ++i) h[i] = float_to_half(v[i]);
      out.push_back(HostTensor::of(dtype, shape, h));
    }
  }
  return out;
}

std::vector<float> widened(const HostTensor& t) {
  if (t.dtype == OPRIG_DTYPE_FLOAT_32) return t.as<float>();
  std::vector<float> f;
  for (uint16_t h : t.as<uint16_t>()) f.push_back(half_to_float(h));
  return f;
}

// Within the plan's tolerance (1.5e-4; for fp16 plus one rounding of each side).
void expect_close(const HostTensor& a, const HostTensor& b, const std::string& what) {
  const std::vector<float> x = widened(a), y = widened(b);
  ASSERT_EQ(x.size(), y.size()) << what;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) {
      EXPECT_EQ(std::isnan(x[i]), std::isnan(y[i])) << what << " element " << i;
      continue;
    }
    const float bound = 1.5e-4f + (a.dtype == OPRIG_DTYPE_FLOAT_16 ? 9.8e-4f * std::fabs(y[i]) : 0.0f);
    EXPECT_NEAR(x[i], y[i], bound) << what << " element " << i;
  }
}

TEST(ScaledDotProductAttentionCpu, IsaPathsAndThreadCountsAgree) {
  // Query tiles of 32 and 16 with tails, two key blocks with a tail, depths
  // that are no multiple of the steps (the tile path from 5 queries up on
  // both vector ISAs); 3 queries (the row path on AVX-512, tiles on AVX2) and
  // 1 (the row path on both), with value depths that leave tails.
  const std::vector<Shapes> shapes = {{2, 3, 37, 70, 13, 7}, {1, 2, 5, 130, 64, 24}, {1, 2, 3, 150, 20, 40},
                                      {2, 1, 1, 300, 33, 150}};
  for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16})
    for (const Shapes& s : shapes)
      for (bool mask : {false, true})
        for (bool causal : {false, true}) {
          const std::vector<HostTensor> in = random_inputs(s, mask, dtype);
          const ParamList params = ParamList().add_bool("is_causal", causal);
          const std::string what = "sq " + std::to_string(s.sq) + " mask " + std::to_string(mask) + " causal " +
                                   std::to_string(causal) + " dtype " + std::to_string(dtype);
          CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
          const HostTensor scalar = run(baseline, in, params, dtype);
          std::optional<HostTensor> first_vector;
          for (oprig_cpu_isa isa : host_isas()) {
            if (isa == OPRIG_CPU_ISA_SCALAR) continue;
            CpuBackend one(1, isa), two(2, isa);
            const HostTensor y = run(one, in, params, dtype);
            EXPECT_EQ(run(two, in, params, dtype).bytes, y.bytes) << what << " isa " << isa << ": threads differ";
            expect_close(y, scalar, what + " isa " + std::to_string(isa) + " against the baseline");
            // The tile path does the same fused operations lane by lane on AVX2 and AVX-512.
            if (first_vector && s.sq > 4) {
              EXPECT_EQ(y.bytes, first_vector->bytes) << what << ": AVX2 and AVX-512 differ";
            }
            if (!first_vector) first_vector = y;
          }
        }
}

TEST(ScaledDotProductAttentionCpu, BroadcastMaskEqualsItsExpansion) {
  const Shapes s{2, 3, 9, 13, 8, 5};
  const std::vector<HostTensor> in = random_inputs(s, false, OPRIG_DTYPE_FLOAT_32);
  const std::vector<float> small = values(static_cast<size_t>(s.sq * s.sk), 99);  // [Sq, Sk]
  std::vector<float> full;
  for (int64_t r = 0; r < s.b * s.h; ++r) full.insert(full.end(), small.begin(), small.end());
  CpuBackend backend(2);
  const HostTensor a = run(backend, {in[0], in[1], in[2], f32({s.sq, s.sk}, small)});
  const HostTensor b = run(backend, {in[0], in[1], in[2], f32({s.b, s.h, s.sq, s.sk}, full)});
  EXPECT_EQ(a.bytes, b.bytes);
}

TEST(ScaledDotProductAttentionCpu, RejectsShapesTheOpDoesNotDefine) {
  CpuBackend backend(1);
  const HostTensor q = f32({1, 2, 3, 4}, std::vector<float>(24, 0.5f));
  const HostTensor k = f32({1, 2, 5, 4}, std::vector<float>(40, 0.5f));
  const HostTensor v = f32({1, 2, 5, 6}, std::vector<float>(60, 0.5f));
  const auto status = [&](std::vector<HostTensor> in) { return session(backend, std::move(in), ParamList())->prepare_status(); };
  EXPECT_EQ(status({q, k, v}), OPRIG_STATUS_OK);
  EXPECT_EQ(status({q, f32({1, 2, 5, 3}, std::vector<float>(30)), v}), OPRIG_STATUS_INVALID_ARGUMENT);  // D differs
  EXPECT_EQ(status({q, k, f32({1, 2, 4, 6}, std::vector<float>(48))}), OPRIG_STATUS_INVALID_ARGUMENT);  // Sk differs
  EXPECT_EQ(status({f32({2, 3, 4}, std::vector<float>(24)), k, v}), OPRIG_STATUS_INVALID_ARGUMENT);     // rank 3
  EXPECT_EQ(status({q, k, v, f32({3, 4}, std::vector<float>(12))}), OPRIG_STATUS_INVALID_ARGUMENT);     // mask [3, 4]
  EXPECT_EQ(status({q, k, v, f32({2, 1, 5}, std::vector<float>(10))}), OPRIG_STATUS_OK);                // [H, 1, Sk]
  EXPECT_EQ(status({f32({1, 2, 3, 0}, {}), f32({1, 2, 5, 0}, {}), v}), OPRIG_STATUS_INVALID_ARGUMENT);  // D = 0
}

}  // namespace
}  // namespace oprig::harness
