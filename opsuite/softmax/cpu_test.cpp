// The cpu Softmax kernel through the package ABI: the three ISA paths and
// both thread counts agree bit for bit (sums are formed in the same order on
// every path), the symbolic default axis is the last one, the spec's rules for
// huge, masked (-inf), NaN and +inf logits hold, and values known in closed
// form come out within the plan's 3 ulp. Expected values are spelled out here
// (derived by hand, or computed once in fp64 with Python's math module as
// noted); the conformance cases judge against the fp64 reference.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kMax = std::numeric_limits<float>::max();

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

HostTensor run_once(CpuBackend& backend, const ParamList& params, const HostTensor& x) {
  oprig_tensor out{};
  out.dtype = x.dtype;
  KernelSession s(backend, cpu_impl(), "Softmax", params, {x}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0);
}

std::vector<float> softmax(std::vector<int64_t> shape, const std::vector<float>& x, const ParamList& params = {},
                           std::optional<oprig_cpu_isa> isa = std::nullopt) {
  CpuBackend backend(1, isa);
  return run_once(backend, params, HostTensor::of(OPRIG_DTYPE_FLOAT_32, std::move(shape), x)).as<float>();
}

double ulps(float got, double expected) {
  const double a = std::fabs(expected);
  const int exponent = a < 0x1p-126 ? -126 : std::ilogb(a);
  return std::fabs(static_cast<double>(got) - expected) / std::ldexp(1.0, exponent - 23);
}

std::vector<float> logits(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (float& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = (static_cast<float>(seed >> 8) * 0x1p-24f - 0.5f) * 24.0f;
  }
  return v;
}

// Bitwise, except that any NaN equals any NaN (the paths may carry different payloads).
void expect_same_bits(const HostTensor& got, const HostTensor& expected, const std::string& what) {
  ASSERT_EQ(got.bytes.size(), expected.bytes.size()) << what;
  if (got.dtype == OPRIG_DTYPE_FLOAT_32) {
    const std::vector<float> g = got.as<float>(), e = expected.as<float>();
    for (size_t i = 0; i < g.size(); ++i) {
      if (std::isnan(g[i]) && std::isnan(e[i])) continue;
      ASSERT_EQ(std::bit_cast<uint32_t>(g[i]), std::bit_cast<uint32_t>(e[i])) << what << " element " << i;
    }
  } else {
    const std::vector<uint16_t> g = got.as<uint16_t>(), e = expected.as<uint16_t>();
    for (size_t i = 0; i < g.size(); ++i) {
      if (std::isnan(half_to_float(g[i])) && std::isnan(half_to_float(e[i]))) continue;
      ASSERT_EQ(g[i], e[i]) << what << " element " << i;
    }
  }
}

TEST(SoftmaxCpu, IsaPathsAndThreadCountsAgreeBitForBit) {
  struct Layout {
    std::vector<int64_t> shape;
    std::optional<int64_t> axis;
  };
  const Layout layouts[] = {{{300, 257}, std::nullopt},  // rows with a partial vector; two threads' worth
                            {{7, 1000, 3}, 1},             // narrow inner blocks
                            {{3, 40, 37}, -2},             // inner = 37: two full blocks and a partial one
                            {{1, 5}, std::nullopt}};
  for (const Layout& l : layouts) {
    size_t n = 1;
    for (int64_t d : l.shape) n *= static_cast<size_t>(d);
    std::vector<float> x = logits(n, 3);
    x[std::min<size_t>(5, n - 1)] = -kInf;
    if (n > 100) x[77] = kNaN;  // one slice NaN throughout
    std::vector<uint16_t> x16(n);
    for (size_t i = 0; i < n; ++i) x16[i] = float_to_half(x[i]);
    for (const HostTensor& in : {HostTensor::of(OPRIG_DTYPE_FLOAT_32, l.shape, x), HostTensor::of(OPRIG_DTYPE_FLOAT_16, l.shape, x16)}) {
      for (float beta : {1.0f, 0.37f}) {
        ParamList params;
        params.add_float("beta", beta);
        if (l.axis) params.add_int("axis", *l.axis);
        CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
        const HostTensor expected = run_once(baseline, params, in);
        for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
          if (isa > host_cpu_isa()) continue;  // the host lacks it: nothing to compare
          for (unsigned threads : {1u, 2u}) {
            CpuBackend backend(threads, isa);
            expect_same_bits(run_once(backend, params, in), expected,
                             "dtype " + std::to_string(in.dtype) + " isa " + std::to_string(isa) + " threads " +
                                 std::to_string(threads) + " beta " + std::to_string(beta));
          }
        }
      }
    }
  }
}

TEST(SoftmaxCpu, ClosedFormValues) {
  // exp([-2, -1, 0]) / sum, fp64: 0.09003057317038046, 0.24472847105479764, 0.6652409557748218
  const double expected[] = {0.09003057317038046, 0.24472847105479764, 0.6652409557748218};
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    const std::vector<float> y = softmax({3}, {-1, 0, 1}, {}, isa);
    for (int i = 0; i < 3; ++i) EXPECT_LE(ulps(y[i], expected[i]), 3.0) << "isa " << isa << " element " << i;
    // Equal logits: every exponential is 1 and the sum 3, so each is 1/3 rounded once.
    EXPECT_EQ(softmax({3}, {4, 4, 4}, {}, isa), std::vector<float>(3, 1.0f / 3.0f)) << "isa " << isa;
    // A subnormal probability: e^-100 / (1 + e^-100) = 3.720075976020836e-44, within an ulp.
    EXPECT_LE(ulps(softmax({2}, {0, -100}, {}, isa)[1], 3.720075976020836e-44), 1.0) << "isa " << isa;
  }
}

TEST(SoftmaxCpu, HugeMaskedNaNAndInfiniteLogits) {
  // Huge equal logits share the mass; x - max overflows to -inf for the rest.
  EXPECT_EQ(softmax({3}, {3e38f, -3e38f, 3e38f}), (std::vector<float>{0.5f, 0.0f, 0.5f}));
  EXPECT_EQ(softmax({2}, {kMax, -kMax}), (std::vector<float>{1.0f, 0.0f}));
  // -inf is a masked position.
  EXPECT_EQ(softmax({3}, {0, -kInf, 0}), (std::vector<float>{0.5f, 0.0f, 0.5f}));
  // NaN, +inf and all -inf make their slice NaN; the other slice is untouched.
  for (const std::vector<float>& bad : {std::vector<float>{1, kNaN, 2}, std::vector<float>{1, kInf, 2},
                                        std::vector<float>{-kInf, -kInf, -kInf}}) {
    std::vector<float> x = bad;
    x.insert(x.end(), {4, 4, 4});
    const std::vector<float> y = softmax({2, 3}, x);
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(y[i])) << "element " << i;
    for (int i = 3; i < 6; ++i) EXPECT_EQ(y[i], 1.0f / 3.0f);
  }
}

TEST(SoftmaxCpu, DefaultAxisIsTheLastAndBetaScalesTheLogits) {
  const std::vector<float> x = logits(4 * 5 * 33, 11);
  const std::vector<float> by_default = softmax({4, 5, 33}, x);
  EXPECT_EQ(softmax({4, 5, 33}, x, ParamList().add_int("axis", -1)), by_default);
  EXPECT_EQ(softmax({4, 5, 33}, x, ParamList().add_int("axis", 2)), by_default);
  // beta 2 on integers equals beta 1 on the doubled integers: 2 (x - m) = 2x - 2m exactly.
  std::vector<float> ints(64), doubled(64);
  for (size_t i = 0; i < ints.size(); ++i) {
    ints[i] = static_cast<float>(static_cast<int>(i * 7 % 13) - 6);
    doubled[i] = 2 * ints[i];
  }
  EXPECT_EQ(softmax({4, 16}, ints, ParamList().add_float("beta", 2.0f)), softmax({4, 16}, doubled));
}

TEST(SoftmaxCpu, SlicesSumToOne) {
  const std::vector<float> y = softmax({3, 20, 17}, logits(3 * 20 * 17, 5), ParamList().add_int("axis", 1));
  for (size_t o = 0; o < 3; ++o) {
    for (size_t i = 0; i < 17; ++i) {
      double sum = 0;
      for (size_t a = 0; a < 20; ++a) sum += y[(o * 20 + a) * 17 + i];
      EXPECT_NEAR(sum, 1.0, 20 * 3 * 0x1p-24) << "slice " << o << "," << i;  // 20 terms, 3 ulp each
    }
  }
}

TEST(SoftmaxCpu, RejectsBetaOutsideTheSpecAndAxisOutOfRange) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const HostTensor x = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {2, 3}, logits(6, 1));
  for (float beta : {0.0f, -1.0f, kInf}) {
    KernelSession s(backend, cpu_impl(), "Softmax", ParamList().add_float("beta", beta), {x}, {out});
    EXPECT_EQ(s.create_status(), OPRIG_STATUS_INVALID_ARGUMENT) << "beta " << beta;
  }
  for (int64_t axis : {2, -3}) {
    KernelSession s(backend, cpu_impl(), "Softmax", ParamList().add_int("axis", axis), {x}, {out});
    EXPECT_EQ(s.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT) << "axis " << axis;
  }
}

}  // namespace
}  // namespace oprig::harness
