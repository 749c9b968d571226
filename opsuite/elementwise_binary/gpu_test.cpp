// POW on floats on the opencl and vulkan ElementwiseBinary kernels (vulkan:
// pow_fp64.glsl, its own log2 and exp2 in double), on whichever backend this
// machine has (SKIPPED otherwise; also on a device without fp64, where the
// kernel refuses floats): every pair of C's special values bit for bit as
// std::pow gives them, and random pairs over all exponents, negative bases
// with integral exponents and results down in the denormal range within 1
// ulp (the plan allows 2), FLOAT_16 within one fp16 ulp. The oracle is the C
// library's double pow, rounded to the type once.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"
#include "core/half.hpp"

namespace oprig::harness {
namespace {


constexpr float kInf = std::numeric_limits<float>::infinity();

class GpuPow : public op_test::DeviceTest {
 protected:
  void SetUp() override {
    op_test::DeviceTest::SetUp();
    if (IsSkipped()) return;
    // A device without fp64 refuses floats (prepare: UNSUPPORTED); nothing to test there.
    try {
      run({2.0f}, {3.0f});
    } catch (const std::exception& e) {
      GTEST_SKIP() << "POW on floats refused: " << e.what();
    }
  }
  // Element-wise pow(a[i], b[i]) on the device.
  std::vector<float> run(const std::vector<float>& a, const std::vector<float>& b) {
    const auto n = static_cast<int64_t>(a.size());
    return op_test::run_op(backend(), "ElementwiseBinary", ParamList().add_string("operation", "POW"),
                           {HostTensor::of(OPRIG_DTYPE_FLOAT_32, {n}, a), HostTensor::of(OPRIG_DTYPE_FLOAT_32, {n}, b)})
        .as<float>();
  }
};

float oracle(float x, float y) { return static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(y))); }

// Distance in fp32 steps (ordered bit patterns), both finite or equal.
int64_t steps(float got, float want) {
  auto ordered = [](float f) {
    const auto bits = static_cast<int64_t>(std::bit_cast<uint32_t>(f));
    return bits >= 0x80000000 ? 0x80000000 - bits : bits;
  };
  return std::llabs(ordered(got) - ordered(want));
}

TEST_P(GpuPow, SpecialValuePairsAsCsPow) {
  const float d = std::numeric_limits<float>::denorm_min();
  const float values[] = {0.0f, -0.0f, kInf, -kInf, std::numeric_limits<float>::quiet_NaN(), 1.0f, -1.0f, 0.5f, -0.5f,
                          2.0f, -2.0f, 3.0f, -3.0f, 2.5f, -2.5f, d, -d, std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(), std::nextafter(1.0f, 2.0f), std::nextafter(1.0f, 0.0f),
                          8388609.0f /* odd, 2^23 + 1 */, -8388609.0f, 16777218.0f /* even */, 0.75f, -7.0f};
  std::vector<float> a, b;
  for (float x : values)
    for (float y : values) {
      a.push_back(x);
      b.push_back(y);
    }
  const std::vector<float> got = run(a, b);
  for (size_t i = 0; i < a.size(); ++i) {
    const float want = oracle(a[i], b[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[i])) << "pow(" << a[i] << ", " << b[i] << ") = " << got[i];
    } else if (std::isinf(want) || want == 0) {
      EXPECT_EQ(std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(want))
          << "pow(" << a[i] << ", " << b[i] << ") = " << got[i] << ", want " << want;
    } else {
      EXPECT_LE(steps(got[i], want), 1) << "pow(" << a[i] << ", " << b[i] << ") = " << got[i] << ", want " << want;
    }
  }
}

TEST_P(GpuPow, RandomPairsWithinOneUlp) {
  std::mt19937 rng(7);
  std::vector<float> a, b;
  // Any positive base (denormals included) to exponents of either sign.
  for (int i = 0; i < 200000; ++i) {
    a.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng()) % 0x7f800000u + 1u));
    b.push_back(std::uniform_real_distribution<float>(-3.0f, 3.0f)(rng));
  }
  // Bases near 1 to large exponents, negative bases to integers, results near and below 2^-126.
  for (int i = 0; i < 100000; ++i) {
    a.push_back(std::uniform_real_distribution<float>(0.9f, 1.1f)(rng));
    b.push_back(std::uniform_real_distribution<float>(-900.0f, 900.0f)(rng));
    a.push_back(-std::uniform_real_distribution<float>(0.1f, 30.0f)(rng));
    b.push_back(static_cast<float>(std::uniform_int_distribution<int>(-30, 30)(rng)));
    a.push_back(std::uniform_real_distribution<float>(0.25f, 0.5f)(rng));
    b.push_back(std::uniform_real_distribution<float>(100.0f, 160.0f)(rng));
  }
  const std::vector<float> got = run(a, b);
  int64_t worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const float want = oracle(a[i], b[i]);
    const int64_t s = std::isnan(want) ? (std::isnan(got[i]) ? 0 : INT64_MAX) : steps(got[i], want);
    if (s > worst) {
      worst = s;
      at = i;
    }
  }
  EXPECT_LE(worst, 1) << "pow(" << a[at] << ", " << b[at] << ") = " << got[at] << ", want " << oracle(a[at], b[at]);
  std::printf("[ info ] %s POW: max %lld fp32 steps over %zu pairs\n", GetParam(),
              static_cast<long long>(worst), a.size());
}

TEST_P(GpuPow, Float16WithinOneUlp) {
  std::mt19937 rng(11);
  std::vector<uint16_t> a, b;
  for (int i = 0; i < 65536; ++i) {
    a.push_back(static_cast<uint16_t>(rng() % 0x7c00u));  // positive, finite
    b.push_back(float_to_half(std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng)));
  }
  const auto n = static_cast<int64_t>(a.size());
  const std::vector<uint16_t> got =
      op_test::run_op(backend(), "ElementwiseBinary", ParamList().add_string("operation", "POW"),
                      {HostTensor::of(OPRIG_DTYPE_FLOAT_16, {n}, a), HostTensor::of(OPRIG_DTYPE_FLOAT_16, {n}, b)})
          .as<uint16_t>();
  for (size_t i = 0; i < a.size(); ++i) {
    const uint16_t want = float_to_half(oracle(half_to_float(a[i]), half_to_float(b[i])));
    // fp16 bit patterns of one sign are ordered like their values.
    EXPECT_LE(std::abs(static_cast<int>(got[i]) - static_cast<int>(want)), 1)
        << "pow(" << half_to_float(a[i]) << ", " << half_to_float(b[i]) << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, GpuPow, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
