// The opencl and vulkan Activation kernels through the package ABI, on
// whichever of the two backends this machine has (SKIPPED otherwise):
// every mode within the plan's 4 ulp over a sweep of all fp32 exponents
// (every 4099th bit pattern) and over [-16, 16], denormal and tiny inputs
// exact or within the bound (lavapipe flushes fp32 denormals), NaN and the
// limits at +-Inf, every fp16 input within one fp16 ulp, every UINT_8 code
// within 1 LSB, lengths that leave a tail and one that makes the grid-stride
// loop go round. The oracle is each function's definition in long double
// (std::expl, erfcl, tanhl), not the harness's reference.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"
#include "core/half.hpp"

namespace oprig::harness {
namespace {

using op_test::output_of;
using op_test::run_one;

const char* const kModes[] = {"RELU", "RELU6", "SIGMOID", "TANH", "GELU_ERF", "GELU_TANH", "SILU", "HARD_SWISH"};
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kMaxUlp = 4.0;  // plan.json, FLOAT_32

// The function's definition in long double (limits at -Inf as the spec states them).
long double oracle(const std::string& mode, long double x) {
  if (std::isnan(x)) return x;
  const bool minus_inf = x == -std::numeric_limits<long double>::infinity();
  if (mode == "RELU") return x > 0 ? x : 0.0L;
  if (mode == "RELU6") return x > 0 ? std::min(x, 6.0L) : 0.0L;
  if (mode == "SIGMOID") return 1.0L / (1.0L + std::exp(-x));
  if (mode == "TANH") return std::tanh(x);
  if (minus_inf) return 0.0L;
  if (mode == "GELU_ERF") return 0.5L * x * std::erfc(-x / std::sqrt(2.0L));
  if (mode == "GELU_TANH") {
    const long double u = std::sqrt(2.0L / 3.14159265358979323846264338327950288L) * (x + 0.044715L * x * x * x);
    return x / (1.0L + std::exp(-2.0L * u));
  }
  if (mode == "SILU") return x / (1.0L + std::exp(-x));
  return x <= -3 ? 0.0L : x * std::min(x + 3.0L, 6.0L) / 6.0L;  // HARD_SWISH
}

// |got - expected| in ulps of the expected value in fp32 (2^-149 below the normal range).
double ulps(float got, long double expected) {
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(expected)) return static_cast<long double>(got) == expected ? 0 : INFINITY;
  const long double a = std::fabs(expected);
  const int exponent = a < 0x1p-126L ? -126 : std::ilogb(a);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - expected) / std::ldexp(1.0L, exponent - 23));
}

std::vector<float> run_f32(Backend& backend, const std::string& mode, const std::vector<float>& x) {
  return run_one(backend, "Activation", ParamList().add_string("mode", mode),
                 HostTensor::of(OPRIG_DTYPE_FLOAT_32, {static_cast<int64_t>(x.size())}, x),
                 output_of(OPRIG_DTYPE_FLOAT_32))
      .as<float>();
}

class GpuActivation : public op_test::DeviceTest {};

// Every 4099th fp32 bit pattern of both signs (all exponents, denormals, NaNs),
// then [-16, 16] densely, where the formulas change branch.
std::vector<float> sweep() {
  std::vector<float> x;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 4099) x.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  for (int i = -(1 << 19); i < (1 << 19); ++i) x.push_back(static_cast<float>(i) * 0x1p-15f);
  return x;
}

TEST_P(GpuActivation, F32WithinFourUlpOverASweep) {
  const std::vector<float> x = sweep();
  for (const char* mode : kModes) {
    const std::vector<float> y = run_f32(backend(), mode, x);
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double e = ulps(y[i], oracle(mode, x[i]));
      if (!(e <= worst)) {
        worst = e;
        at = i;
      }
    }
    EXPECT_LE(worst, kMaxUlp) << mode << "(" << x[at] << ") = " << y[at] << ", expected "
                              << static_cast<double>(oracle(mode, x[at]));
    std::printf("[ info ] %s %s: max %.2f ulp over %zu inputs (at %g)\n", GetParam(), mode, worst, x.size(),
                x[at]);
  }
}

TEST_P(GpuActivation, DenormalAndTinyInputs) {
  std::vector<float> x;
  for (uint32_t m : {1u, 2u, 3u, 5u, 0x1234u, 0x3fffffu, 0x400000u, 0x400001u, 0x7ffffeu, 0x7fffffu, 0x800000u,
                     0x800001u, 0x1000000u, 0x21800000u, 0x217fffffu}) {
    x.push_back(std::bit_cast<float>(m));
    x.push_back(std::bit_cast<float>(0x80000000u | m));
  }
  x.push_back(0.0f);
  x.push_back(-0.0f);
  for (const char* mode : kModes) {
    const std::vector<float> y = run_f32(backend(), mode, x);
    for (size_t i = 0; i < x.size(); ++i) {
      const long double expected = oracle(mode, x[i]);
      EXPECT_LE(ulps(y[i], expected), 0.5) << mode << "(0x" << std::hex << std::bit_cast<uint32_t>(x[i]) << ") = 0x"
                                           << std::bit_cast<uint32_t>(y[i]) << std::dec << ", expected "
                                           << static_cast<double>(expected);
    }
  }
  // RELU keeps a positive denormal's bits and sends -0 and negative denormals to +0.
  const std::vector<float> relu = run_f32(backend(), "RELU", {std::bit_cast<float>(5u), -0.0f, -std::bit_cast<float>(5u)});
  EXPECT_EQ(std::bit_cast<uint32_t>(relu[0]), 5u);
  EXPECT_EQ(std::bit_cast<uint32_t>(relu[1]), 0u);
  EXPECT_EQ(std::bit_cast<uint32_t>(relu[2]), 0u);
}

TEST_P(GpuActivation, NanAndTheLimitsAtInfinity) {
  struct Limits {
    const char* mode;
    float at_minus_inf, at_plus_inf;
  };
  const Limits limits[] = {{"RELU", 0, kInf},     {"RELU6", 0, 6},        {"SIGMOID", 0, 1}, {"TANH", -1, 1},
                           {"GELU_ERF", 0, kInf}, {"GELU_TANH", 0, kInf}, {"SILU", 0, kInf}, {"HARD_SWISH", 0, kInf}};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Limits& l : limits) {
    const std::vector<float> y = run_f32(backend(), l.mode, {-kInf, kInf, nan, -nan, nan, nan});
    EXPECT_EQ(y[0], l.at_minus_inf) << l.mode;
    EXPECT_EQ(y[1], l.at_plus_inf) << l.mode;
    for (size_t i = 2; i < y.size(); ++i) EXPECT_TRUE(std::isnan(y[i])) << l.mode << " lane " << i;
  }
}

TEST_P(GpuActivation, EveryF16InputWithinOneF16Ulp) {
  std::vector<uint16_t> x(65536);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>(i);
  for (const char* mode : kModes) {
    const std::vector<uint16_t> y =
        run_one(backend(), "Activation", ParamList().add_string("mode", mode),
                HostTensor::of(OPRIG_DTYPE_FLOAT_16, {static_cast<int64_t>(x.size())}, x),
                output_of(OPRIG_DTYPE_FLOAT_16))
            .as<uint16_t>();
    for (size_t i = 0; i < x.size(); ++i) {
      const long double expected = oracle(mode, half_to_float(x[i]));
      const float got = half_to_float(y[i]);
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(got)) << mode << " fp16 0x" << std::hex << i;
        continue;
      }
      // One fp16 ulp of the expected value (2^-24 below the fp16 normal range).
      const long double a = std::fabs(expected);
      const long double ulp = std::ldexp(1.0L, (a < 0x1p-14L ? -14 : std::ilogb(a)) - 10);
      const long double err = std::isinf(expected) ? (got == expected ? 0 : INFINITY) : std::fabs(got - expected);
      // A finite result beyond fp16's range rounds to Inf: allowed within the ulp of 65504.
      const bool overflow = std::isinf(got) && a >= 65504;
      EXPECT_TRUE(err <= ulp || overflow) << mode << "(" << half_to_float(x[i]) << ") = " << got << ", expected "
                                          << static_cast<double>(expected);
    }
  }
}

TEST_P(GpuActivation, EveryUint8CodeWithinOneLsb) {
  std::vector<uint8_t> codes(256 * 3 + 3);  // every code three times, and a tail of three
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<uint8_t>(i * 7 + 1);
  struct Quantisation {
    float in_scale;
    int32_t in_zero_point;
    float out_scale;
    int32_t out_zero_point;
  };
  for (const Quantisation& q : {Quantisation{0.0784313725f, 128, 0.0784313725f, 128},
                                Quantisation{0.05f, 200, 0.004f, 0}, Quantisation{0.25f, 0, 0.125f, 10}}) {
    HostTensor in = HostTensor::of(OPRIG_DTYPE_UINT_8, {static_cast<int64_t>(codes.size())}, codes);
    in.scale = q.in_scale;
    in.zero_point = q.in_zero_point;
    for (const char* mode : kModes) {
      const std::vector<uint8_t> y = run_one(backend(), "Activation", ParamList().add_string("mode", mode), in,
                                             output_of(OPRIG_DTYPE_UINT_8, q.out_scale, q.out_zero_point))
                                         .as<uint8_t>();
      ASSERT_EQ(y.size(), codes.size());
      for (size_t i = 0; i < codes.size(); ++i) {
        const long double real = static_cast<long double>(codes[i] - q.in_zero_point) * q.in_scale;
        const long double code = std::clamp(std::round(oracle(mode, real) / q.out_scale) + q.out_zero_point, 0.0L, 255.0L);
        EXPECT_LE(std::fabs(y[i] - code), 1.0L) << mode << " code " << int{codes[i]};
      }
    }
  }
}

// Lengths 0..9 (every tail), and one long enough that each work-item loops:
// element i's result does not depend on where it sits.
TEST_P(GpuActivation, TailsAndTheGridStrideLoop) {
  std::vector<float> x(4 * (1u << 18) * 2 + 5);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 2001) - 1000) * 0.01f;
  for (const char* mode : {"RELU6", "GELU_TANH"}) {
    const std::vector<float> y = run_f32(backend(), mode, x);
    const std::vector<float> head = run_f32(backend(), mode, std::vector<float>(x.begin(), x.begin() + 2001));
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(std::bit_cast<uint32_t>(y[i]), std::bit_cast<uint32_t>(head[i % 2001])) << mode << " at " << i;
    for (size_t n = 1; n <= 9; ++n) {
      const std::vector<float> part = run_f32(backend(), mode, std::vector<float>(x.begin() + 3, x.begin() + 3 + n));
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(std::bit_cast<uint32_t>(part[i]), std::bit_cast<uint32_t>(head[3 + i])) << mode << " n " << n;
    }
  }
  for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16}) {
    const HostTensor empty = HostTensor::of(dtype, {0}, std::vector<float>{});
    EXPECT_EQ(run_one(backend(), "Activation", ParamList().add_string("mode", "SILU"), empty, output_of(dtype))
                  .bytes.size(),
              0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, GpuActivation, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
