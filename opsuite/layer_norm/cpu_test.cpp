// The cpu LayerNorm kernel through the package ABI: the three ISA paths and
// both thread counts agree bit for bit (the sums form in the same order on
// every path), a constant slice gives exactly beta, a left-out beta is zero,
// hand-derived values come out within 2 ulp, huge inputs do not overflow,
// and shapes or parameters outside the spec are rejected. Expected values are
// derived by hand (noted beside them); the conformance cases judge against
// the fp64 reference.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
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

KernelSession session(CpuBackend& backend, const ParamList& params, std::vector<HostTensor> inputs) {
  oprig_tensor out{};
  out.dtype = inputs[0].dtype;
  return KernelSession(backend, cpu_impl(), "LayerNorm", params, std::move(inputs), {out});
}

HostTensor run_once(CpuBackend& backend, const ParamList& params, std::vector<HostTensor> inputs) {
  KernelSession s = session(backend, params, std::move(inputs));
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0);
}

HostTensor f32(std::vector<int64_t> shape, const std::vector<float>& v) {
  return HostTensor::of(OPRIG_DTYPE_FLOAT_32, std::move(shape), v);
}

std::vector<float> values(size_t n, uint32_t seed, float low, float high) {
  std::vector<float> v(n);
  for (float& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = low + (high - low) * static_cast<float>(seed >> 8) * 0x1p-24f;
  }
  return v;
}

double ulps(float got, double expected) {
  const double a = std::fabs(expected);
  const int exponent = a < 0x1p-126 ? -126 : std::ilogb(a);
  return std::fabs(static_cast<double>(got) - expected) / std::ldexp(1.0, exponent - 23);
}

TEST(LayerNormCpu, IsaPathsAndThreadCountsAgreeBitForBit) {
  struct Layout {
    std::vector<int64_t> in, slice;
    int64_t axis;
  };
  const Layout layouts[] = {{{300, 257}, {257}, -1},       // a partial vector per slice; two threads' worth
                            {{6, 5, 1030}, {5, 1030}, 1},  // slices over two axes
                            {{3, 7}, {7}, -1}};            // shorter than one vector
  for (const Layout& l : layouts) {
    size_t n = 1, s = 1;
    for (int64_t d : l.in) n *= static_cast<size_t>(d);
    for (int64_t d : l.slice) s *= static_cast<size_t>(d);
    const std::vector<float> x = values(n, 1, 900.0f, 1100.0f), g = values(s, 2, -2.0f, 2.0f), b = values(s, 3, -1.0f, 1.0f);
    for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16}) {
      auto tensor = [&](std::vector<int64_t> shape, const std::vector<float>& v) {
        if (dtype == OPRIG_DTYPE_FLOAT_32) return f32(std::move(shape), v);
        std::vector<uint16_t> h(v.size());
        for (size_t i = 0; i < v.size(); ++i) h[i] = float_to_half(v[i]);
        return HostTensor::of(OPRIG_DTYPE_FLOAT_16, std::move(shape), h);
      };
      for (bool with_beta : {true, false}) {
        std::vector<HostTensor> inputs = {tensor(l.in, x), tensor(l.slice, g)};
        if (with_beta) inputs.push_back(tensor(l.slice, b));
        const ParamList params = ParamList().add_int("axis", l.axis).add_float("epsilon", 1e-3f);
        CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
        const std::vector<std::byte> expected = run_once(baseline, params, inputs).bytes;
        for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
          if (isa > host_cpu_isa()) continue;  // the host lacks it: nothing to compare
          for (unsigned threads : {1u, 2u}) {
            CpuBackend backend(threads, isa);
            EXPECT_EQ(run_once(backend, params, inputs).bytes, expected)
                << "dtype " << dtype << " beta " << with_beta << " isa " << isa << " threads " << threads;
          }
        }
      }
    }
  }
}

TEST(LayerNormCpu, HandExampleWithinTwoUlp) {
  // mean 2.5, variance 1.25; (x - 2.5) / sqrt(1.25 + 1e-5) times [1, 1, 2, 2] plus [0, 0, 0, 1].
  const double root = std::sqrt(1.25 + static_cast<double>(1e-5f));
  const double expected[] = {-1.5 / root, -0.5 / root, 2 * 0.5 / root, 2 * 1.5 / root + 1};
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    const std::vector<float> y =
        run_once(backend, {}, {f32({1, 4}, {1, 2, 3, 4}), f32({4}, {1, 1, 2, 2}), f32({4}, {0, 0, 0, 1})}).as<float>();
    for (int i = 0; i < 4; ++i) EXPECT_LE(ulps(y[i], expected[i]), 2.0) << "isa " << isa << " element " << i;
  }
}

TEST(LayerNormCpu, ConstantSliceGivesBetaExactly) {
  const std::vector<float> beta = values(37, 9, -3.0f, 3.0f);
  std::vector<float> x(4 * 37, 2.75f);
  for (size_t i = 37; i < 74; ++i) x[i] = -1e20f;  // huge constants too
  CpuBackend backend(1);
  const std::vector<float> y = run_once(backend, {}, {f32({4, 37}, x), f32({37}, values(37, 8, -2.0f, 2.0f)), f32({37}, beta)})
                                   .as<float>();
  for (size_t r = 0; r < 4; ++r)
    for (size_t i = 0; i < 37; ++i) EXPECT_EQ(y[r * 37 + i], beta[i]) << "slice " << r << " element " << i;
}

TEST(LayerNormCpu, LeftOutBetaIsZeroAndHugeInputsStayFinite) {
  const std::vector<float> x = values(3 * 50, 4, -1e30f, 1e30f), g = values(50, 5, -2.0f, 2.0f);
  CpuBackend backend(1);
  const HostTensor without = run_once(backend, {}, {f32({3, 50}, x), f32({50}, g)});
  const HostTensor zeros = run_once(backend, {}, {f32({3, 50}, x), f32({50}, g), f32({50}, std::vector<float>(50, 0.0f))});
  const std::vector<float> a = without.as<float>(), b = zeros.as<float>();
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i], b[i]) << i;
    EXPECT_TRUE(std::isfinite(a[i]) && std::fabs(a[i]) < 2 * std::sqrt(50.0f)) << i;  // |z| <= sqrt(n - 1)
  }
}

TEST(LayerNormCpu, RejectsShapesAndParametersOutsideTheSpec) {
  CpuBackend backend(1);
  const HostTensor x = f32({2, 3, 4}, values(24, 1, -1.0f, 1.0f));
  // gamma must have the shape in.shape[axis:]: [4] for axis -1, [3, 4] for axis 1.
  EXPECT_EQ(session(backend, {}, {x, f32({3, 4}, values(12, 2, 0, 1))}).prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(session(backend, ParamList().add_int("axis", 1), {x, f32({4}, values(4, 2, 0, 1))}).prepare_status(),
            OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(session(backend, {}, {x, f32({4}, values(4, 2, 0, 1)), f32({5}, values(5, 3, 0, 1))}).prepare_status(),
            OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(session(backend, ParamList().add_int("axis", 3), {x, f32({4}, values(4, 2, 0, 1))}).prepare_status(),
            OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(session(backend, ParamList().add_float("epsilon", 0.0f), {x, f32({4}, values(4, 2, 0, 1))}).create_status(),
            OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_TRUE(session(backend, ParamList().add_int("axis", 1), {x, f32({3, 4}, values(12, 2, 0, 1))}).ok());
}

}  // namespace
}  // namespace oprig::harness
