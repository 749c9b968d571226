// The cpu Activation kernel through the package ABI: the three ISA paths and
// both thread counts agree bit for bit on every mode and type (the paths do the
// same IEEE operations), the limits and NaN rules of the spec hold, RELU and
// RELU6 are exact, and values known in closed form come out within the plan's
// 4 ulp. Expected values are spelled out here (computed once in fp64 from the
// definitions with Python's math module, noted beside each); the conformance
// cases judge against the fp64 reference.
#include <gtest/gtest.h>

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

const char* const kModes[] = {"RELU", "RELU6", "SIGMOID", "TANH", "GELU_ERF", "GELU_TANH", "SILU", "HARD_SWISH"};
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

HostTensor run_once(CpuBackend& backend, const std::string& mode, const HostTensor& x) {
  oprig_tensor out{};
  out.dtype = x.dtype;
  KernelSession s(backend, cpu_impl(), "Activation", ParamList().add_string("mode", mode), {x}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0);
}

std::vector<float> run_f32(const std::string& mode, const std::vector<float>& x,
                           std::optional<oprig_cpu_isa> isa = std::nullopt) {
  CpuBackend backend(1, isa);
  return run_once(backend, mode, HostTensor::of(OPRIG_DTYPE_FLOAT_32, {static_cast<int64_t>(x.size())}, x))
      .as<float>();
}

// ulp of the expected value in fp32 (2^-149 for subnormals and zero).
double ulps(float got, double expected) {
  const double a = std::fabs(expected);
  const int exponent = a < 0x1p-126 ? -126 : std::ilogb(a);
  return std::fabs(static_cast<double>(got) - expected) / std::ldexp(1.0, exponent - 23);
}

// Every branch: the uniform core, the tails handed to double, special values,
// and a length that is not a multiple of any vector width.
std::vector<float> mixed_inputs(size_t n) {
  std::vector<float> v(n);
  uint32_t state = 12345;
  for (size_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    const float u = static_cast<float>(state >> 8) * 0x1p-24f;  // [0, 1)
    v[i] = i % 5 == 4 ? (u - 0.5f) * 240.0f : (u - 0.5f) * 20.0f;
  }
  const float specials[] = {kNaN, kInf, -kInf, 0.0f, -0.0f, 1e-40f, -1e-40f, 3.0f, -3.0f, 0.5625f, -0.5625f, 13.0f,
                            -13.0f, 10.0f, -10.0f, -87.0f, std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max()};
  for (size_t i = 0; i < std::size(specials); ++i) v[i * 7919 % n] = specials[i];
  return v;
}

TEST(ActivationCpu, IsaPathsAndThreadCountsAgreeBitForBit) {
  const std::vector<float> x = mixed_inputs(200003);  // above two 64 Ki chunks: both threads work
  std::vector<uint16_t> x16(x.size());
  for (size_t i = 0; i < x.size(); ++i) x16[i] = float_to_half(x[i]);
  const HostTensor inputs[] = {HostTensor::of(OPRIG_DTYPE_FLOAT_32, {static_cast<int64_t>(x.size())}, x),
                               HostTensor::of(OPRIG_DTYPE_FLOAT_16, {static_cast<int64_t>(x.size())}, x16)};
  for (const HostTensor& in : inputs) {
    for (const char* mode : kModes) {
      CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
      const std::vector<std::byte> expected = run_once(baseline, mode, in).bytes;
      for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
        if (isa > host_cpu_isa()) continue;  // the host lacks it: nothing to compare
        for (unsigned threads : {1u, 2u}) {
          CpuBackend backend(threads, isa);
          EXPECT_EQ(run_once(backend, mode, in).bytes, expected)
              << mode << " dtype " << in.dtype << " isa " << isa << " threads " << threads;
        }
      }
    }
  }
}

TEST(ActivationCpu, ReluAndRelu6AreExact) {
  const std::vector<float> x = {-2.5f, -0.0f, 0.0f, 1e-40f, 0.75f, 5.999999f, 6.0f, 6.5f, kInf, -kInf};
  const std::vector<float> relu = {0, 0, 0, 1e-40f, 0.75f, 5.999999f, 6.0f, 6.5f, kInf, 0};
  const std::vector<float> relu6 = {0, 0, 0, 1e-40f, 0.75f, 5.999999f, 6.0f, 6.0f, 6.0f, 0};
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    EXPECT_EQ(run_f32("RELU", x, isa), relu) << "isa " << isa;
    EXPECT_EQ(run_f32("RELU6", x, isa), relu6) << "isa " << isa;
  }
}

TEST(ActivationCpu, NaNStaysNaNInEveryMode) {
  for (const char* mode : kModes) {
    const std::vector<float> y = run_f32(mode, std::vector<float>(19, kNaN));  // a full vector and a tail
    for (float v : y) EXPECT_TRUE(std::isnan(v)) << mode;
  }
}

TEST(ActivationCpu, InfinitiesGiveTheLimitsTheSpecStates) {
  struct Limits {
    const char* mode;
    float at_minus_inf, at_plus_inf;
  };
  const Limits limits[] = {{"RELU", 0, kInf},     {"RELU6", 0, 6},     {"SIGMOID", 0, 1},   {"TANH", -1, 1},
                           {"GELU_ERF", 0, kInf}, {"GELU_TANH", 0, kInf}, {"SILU", 0, kInf}, {"HARD_SWISH", 0, kInf}};
  for (const Limits& l : limits) {
    const std::vector<float> y = run_f32(l.mode, {-kInf, kInf});
    EXPECT_EQ(y[0], l.at_minus_inf) << l.mode;
    EXPECT_EQ(y[1], l.at_plus_inf) << l.mode;
  }
}

TEST(ActivationCpu, ClosedFormValuesWithinFourUlp) {
  struct Known {
    const char* mode;
    float x;
    double y;  // fp64, from the definition (Python math module)
  };
  const Known known[] = {
      {"SIGMOID", 0.0f, 0.5},
      {"SIGMOID", 2.0f, 0.8807970779778823},       // 1 / (1 + e^-2)
      {"SIGMOID", -100.0f, 3.720075976020836e-44},  // subnormal: the double path
      {"TANH", 0.5f, 0.46211715726000974},
      {"TANH", -3.0f, -0.9950547536867305},
      {"GELU_ERF", 1.0f, 0.8413447460685429},     // Phi(1)
      {"GELU_ERF", -1.0f, -0.15865525393145707},  // -Phi(-1)
      {"GELU_ERF", -14.0f, -1.0910951546869918e-43},
      {"GELU_TANH", 1.0f, 0.8411919906082768},    // 0.5 (1 + tanh(sqrt(2/pi) 1.044715))
      {"SILU", 1.0f, 0.7310585786300049},
      {"SILU", -100.0f, -3.7200759760208363e-42},
      {"HARD_SWISH", 1.0f, 2.0 / 3.0},
      {"HARD_SWISH", -1.5f, -0.375},
      {"HARD_SWISH", 3.0f, 3.0},
  };
  for (const Known& k : known) {
    for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
      if (isa > host_cpu_isa()) continue;
      const float got = run_f32(k.mode, {k.x}, isa)[0];
      EXPECT_LE(ulps(got, k.y), 4.0) << k.mode << "(" << k.x << ") = " << got << ", expected " << k.y;
    }
  }
}

TEST(ActivationCpu, TanhIsOddBitForBit) {
  std::vector<float> x = mixed_inputs(4099);
  std::vector<float> minus_x(x.size());
  for (size_t i = 0; i < x.size(); ++i) minus_x[i] = -x[i];
  const std::vector<float> y = run_f32("TANH", x), y_minus = run_f32("TANH", minus_x);
  for (size_t i = 0; i < x.size(); ++i) {
    if (!std::isnan(x[i])) {
      EXPECT_EQ(y_minus[i], -y[i]) << "x = " << x[i];
    }
  }
}

TEST(ActivationCpu, RejectsUnknownModesAndAcceptsTheIndexForm) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const HostTensor x = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {3}, std::vector<float>{-1.0f, 2.0f, 7.0f});
  KernelSession bad(backend, cpu_impl(), "Activation", ParamList().add_string("mode", "MISH"), {x}, {out});
  EXPECT_EQ(bad.create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  // The spec declares UINT_32: index 1 is RELU6.
  KernelSession by_index(backend, cpu_impl(), "Activation", ParamList().add_int("mode", 1, OPRIG_DTYPE_UINT_32), {x},
                         {out});
  ASSERT_TRUE(by_index.ok()) << by_index.error();
  ASSERT_EQ(by_index.run(), OPRIG_STATUS_OK);
  EXPECT_EQ(by_index.output(0).as<float>(), (std::vector<float>{0.0f, 2.0f, 6.0f}));
}

}  // namespace
}  // namespace oprig::harness
