// The opencl and vulkan Quantize kernels through the package ABI, on
// whichever backend this machine has (SKIPPED otherwise): every code equal
// to the spec's formula over random bit patterns (every exponent, denormals,
// Inf, NaN) and over exact ties, under scales that take the fast path
// (powers of two, fp32(0.1), fp32(0.03)) and scales outside [2^-100, 2^100]
// that take the exact path for every element (a denormal scale, 2^110), with
// zero points at both ends of the code range and at +-2^24; lengths that
// leave a tail of 1 to 3 codes and one that makes the grid-stride loop go
// round (the conformance cases check the bytes past a tail: guard bands).
// The oracle is the formula in double: round_half_to_even(fp32(x / scale))
// + zero point, saturated.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"

namespace oprig::harness {
namespace {

using op_test::output_of;
using op_test::run_one;

// The spec: fp32 quotient (double quotient rounded to float is the correctly
// rounded one), ties to even, plus the zero point, saturated; NaN gives the
// zero point (saturated too when it lies outside the code range, as on cpu).
int oracle(float x, float scale, int zero_point, bool is_signed) {
  const double lowest = is_signed ? -128 : 0, highest = is_signed ? 127 : 255;
  if (std::isnan(x)) return static_cast<int>(std::clamp<double>(zero_point, lowest, highest));
  const double exact = static_cast<double>(x) / static_cast<double>(scale);
  if (std::fabs(exact) > 0x1p30) return static_cast<int>(exact > 0 ? highest : lowest);
  const double q = std::nearbyint(static_cast<double>(static_cast<float>(exact)));  // ties to even
  return static_cast<int>(std::clamp(q + zero_point, lowest, highest));
}

std::vector<int> quantize(Backend& backend, const std::vector<float>& x, float scale, int zero_point,
                          bool is_signed) {
  const HostTensor out = run_one(backend, "Quantize", ParamList(),
                                 HostTensor::of(OPRIG_DTYPE_FLOAT_32, {static_cast<int64_t>(x.size())}, x),
                                 output_of(is_signed ? OPRIG_DTYPE_INT_8 : OPRIG_DTYPE_UINT_8, scale, zero_point));
  std::vector<int> codes;
  for (std::byte b : out.bytes)
    codes.push_back(is_signed ? static_cast<int>(static_cast<int8_t>(b)) : static_cast<int>(static_cast<uint8_t>(b)));
  return codes;
}

class GpuQuantize : public op_test::DeviceTest {};

// Random bit patterns, then values whose quotients are exact ties or a step from one.
std::vector<float> inputs_for(float scale) {
  std::mt19937 rng(3);
  std::vector<float> x;
  for (int i = 0; i < 100000; ++i) x.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  for (int k = -300; k <= 300; ++k) {
    const float tie = static_cast<float>((static_cast<double>(k) + 0.5) * scale);
    x.push_back(tie);
    x.push_back(std::nextafter(tie, INFINITY));
    x.push_back(std::nextafter(tie, -INFINITY));
    x.push_back(static_cast<float>(k) * scale);
  }
  std::uniform_real_distribution<float> around(-300.0f, 300.0f);
  for (int i = 0; i < 100000; ++i) x.push_back(around(rng) * scale);
  return x;
}

TEST_P(GpuQuantize, EveryCodeAsTheFormula) {
  const float denormal_scale = std::bit_cast<float>(0x00012345u);
  const float scales[] = {0.0625f, 0.1f, 0.03f, 1.0f, 3.0e-5f, 0x1p-100f, 0x1p100f, 0x1p110f, denormal_scale,
                          std::bit_cast<float>(0x00800000u) /* 2^-126 */};
  for (float scale : scales) {
    const std::vector<float> x = inputs_for(scale);
    for (bool is_signed : {false, true}) {
      const int zero_points[] = {is_signed ? -128 : 0, is_signed ? 127 : 255, is_signed ? -3 : 128, 1 << 24,
                                 -(1 << 24)};
      for (int zero_point : zero_points) {
        const std::vector<int> got = quantize(backend(), x, scale, zero_point, is_signed);
        ASSERT_EQ(got.size(), x.size());
        size_t wrong = 0;
        for (size_t i = 0; i < x.size(); ++i) {
          const int want = oracle(x[i], scale, zero_point, is_signed);
          if (got[i] != want && wrong++ < 5)
            ADD_FAILURE() << "x = " << x[i] << " (0x" << std::hex << std::bit_cast<uint32_t>(x[i]) << std::dec
                          << ") scale " << scale << " zero point " << zero_point << (is_signed ? " INT_8" : " UINT_8")
                          << ": got " << got[i] << ", want " << want;
        }
        EXPECT_EQ(wrong, 0u) << "scale " << scale << " zero point " << zero_point;
      }
    }
  }
}

// Lengths 1..9 and one past the grid: the codes do not depend on where an element sits.
TEST_P(GpuQuantize, TailsAndTheGridStrideLoop) {
  std::vector<float> x(4 * (1u << 18) * 2 + 7);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 997) - 498) * 0.03125f;
  const std::vector<int> all = quantize(backend(), x, 0.0625f, 3, true);
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(all[i], oracle(x[i], 0.0625f, 3, true)) << "at " << i;
  for (size_t n = 1; n <= 9; ++n) {
    const std::vector<int> part = quantize(backend(), std::vector<float>(x.begin(), x.begin() + n), 0.0625f, 3, true);
    ASSERT_EQ(part.size(), n);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(part[i], all[i]) << "n " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, GpuQuantize, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
