// The cpu RMSNorm kernel through the package ABI: the three ISA paths and both
// thread counts agree bit for bit (the sum of squares forms in the same order
// on every path), hand-derived values come out within half an ulp (the
// kernel rounds x r w once), a zero slice stays zero, huge and tiny inputs
// neither overflow nor lose the scale, and shapes or parameters outside the
// spec are rejected. Expected values are derived by hand (noted beside them);
// the conformance cases judge against the fp64 reference.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

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

HostTensor f32(std::vector<int64_t> shape, const std::vector<float>& v) {
  return HostTensor::of(OPRIG_DTYPE_FLOAT_32, std::move(shape), v);
}

KernelSession session(CpuBackend& backend, const ParamList& params, std::vector<HostTensor> inputs) {
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  return KernelSession(backend, cpu_impl(), "RMSNorm", params, std::move(inputs), {out});
}

std::vector<float> run_once(CpuBackend& backend, const ParamList& params, std::vector<HostTensor> inputs) {
  KernelSession s = session(backend, params, std::move(inputs));
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0).as<float>();
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

TEST(RmsNormCpu, IsaPathsAndThreadCountsAgreeBitForBit) {
  for (const auto& [rows, n] : {std::pair<int64_t, int64_t>{300, 257}, {7, 1000}, {5, 3}}) {
    const std::vector<HostTensor> inputs = {f32({rows, n}, values(static_cast<size_t>(rows * n), 1, -4, 4)),
                                            f32({n}, values(static_cast<size_t>(n), 2, -2, 2))};
    CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
    const std::vector<float> expected = run_once(baseline, {}, inputs);
    for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
      if (isa > host_cpu_isa()) continue;  // the host lacks it: nothing to compare
      for (unsigned threads : {1u, 2u}) {
        CpuBackend backend(threads, isa);
        EXPECT_EQ(run_once(backend, {}, inputs), expected) << rows << "x" << n << " isa " << isa << " threads " << threads;
      }
    }
  }
}

TEST(RmsNormCpu, HandExampleWithinHalfAnUlp) {
  // mean square (1 + 4 + 9 + 16) / 4 = 7.5, epsilon 0: x / sqrt(7.5) * [1, 1, 2, 2].
  const double r = 1 / std::sqrt(7.5);
  const double expected[] = {r, 2 * r, 6 * r, 8 * r};
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    const std::vector<float> y =
        run_once(backend, ParamList().add_float("epsilon", 0.0f), {f32({1, 4}, {1, 2, 3, 4}), f32({4}, {1, 1, 2, 2})});
    for (int i = 0; i < 4; ++i) EXPECT_LE(ulps(y[i], expected[i]), 0.5 + 1e-6) << "isa " << isa << " element " << i;
  }
}

TEST(RmsNormCpu, ZeroSlicesStayZeroAndExtremeMagnitudesKeepTheScale) {
  CpuBackend backend(1);
  // A zero slice: epsilon keeps 1/sqrt finite, 0 times it is 0.
  EXPECT_EQ(run_once(backend, {}, {f32({2, 5}, std::vector<float>(10, 0.0f)), f32({5}, values(5, 3, -2, 2))}),
            std::vector<float>(10, 0.0f));
  // x and 2^40 x (squares 2^80 times larger, beyond fp32) normalise alike: the
  // slices are proportional, so the outputs are equal (epsilon 0).
  const std::vector<float> x = values(64, 4, -4, 4);
  std::vector<float> huge(x.size());
  for (size_t i = 0; i < x.size(); ++i) huge[i] = std::ldexp(x[i], 40);
  const std::vector<float> w = values(64, 5, -2, 2);
  const ParamList no_epsilon = ParamList().add_float("epsilon", 0.0f);
  EXPECT_EQ(run_once(backend, no_epsilon, {f32({1, 64}, huge), f32({64}, w)}),
            run_once(backend, no_epsilon, {f32({1, 64}, x), f32({64}, w)}));
  // Tiny inputs: the mean square (about 1e-40) is far below epsilon, which sets the scale.
  std::vector<float> tiny(x.size());
  for (size_t i = 0; i < x.size(); ++i) tiny[i] = x[i] * 1e-20f;
  const std::vector<float> y = run_once(backend, ParamList().add_float("epsilon", 1e-4f), {f32({1, 64}, tiny), f32({64}, w)});
  for (size_t i = 0; i < y.size(); ++i)
    EXPECT_LE(ulps(y[i], static_cast<double>(tiny[i]) * w[i] / std::sqrt(static_cast<double>(1e-4f))), 1.0) << i;
}

TEST(RmsNormCpu, RejectsShapesAndParametersOutsideTheSpec) {
  CpuBackend backend(1);
  const HostTensor x = f32({2, 3, 4}, values(24, 1, -1, 1));
  EXPECT_EQ(session(backend, {}, {x, f32({3}, values(3, 2, 0, 1))}).prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(session(backend, {}, {x, f32({3, 4}, values(12, 2, 0, 1))}).prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(session(backend, ParamList().add_float("epsilon", -1.0f), {x, f32({4}, values(4, 2, 0, 1))}).create_status(),
            OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_TRUE(session(backend, {}, {x, f32({4}, values(4, 2, 0, 1))}).ok());
}

}  // namespace
}  // namespace oprig::harness
