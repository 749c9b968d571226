// The edge inputs every backend must get right: signed zeros, infinities,
// NaN, denormals (never flushed), ±1 and ±FLT_MAX. Expectations come from
// IEEE 754 arithmetic and fp64 std::atan, never from the kernel.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "atan_cpu_runner.hpp"

namespace oprig::testing {
namespace {

class AtanCpuEdges : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    backend_ = create_backend("cpu", &why);
    ASSERT_NE(backend_, nullptr) << why;
    ASSERT_NE(cpu_atan_implementation(&why), nullptr) << why;
  }

  std::vector<float> atan_of(const std::vector<float>& x, float offset) {
    std::vector<float> y;
    const AtanRun run = run_atan_f32(*backend_, x, offset, y);
    EXPECT_TRUE(run.ok()) << run.step << " status " << run.status;
    return y;
  }

  std::unique_ptr<Backend> backend_;
};

TEST_F(AtanCpuEdges, SignedZeroKeepsTheSignOfTheFp32Sum) {
  // atan is odd and atan(±0) = ±0, so the result is the IEEE sum x + offset
  // itself: +0 + -0 = +0, -0 + +0 = +0 (round to nearest), -0 + -0 = -0.
  for (const float offset : {0.0f, -0.0f}) {
    const std::vector<float> x = {0.0f, -0.0f};
    const std::vector<float> y = atan_of(x, offset);
    ASSERT_EQ(y.size(), 2u);
    for (size_t i = 0; i < x.size(); ++i) {
      volatile float sum = x[i];  // volatile: the sum is IEEE at run time, not folded
      sum = sum + offset;
      EXPECT_EQ(std::bit_cast<uint32_t>(y[i]), std::bit_cast<uint32_t>(static_cast<float>(sum)))
          << "x = " << (std::signbit(x[i]) ? "-0" : "+0") << ", offset " << (std::signbit(offset) ? "-0" : "+0");
    }
  }
}

TEST_F(AtanCpuEdges, InfinitiesGivePiOver2RoundedToFp32) {
  const float half_pi = static_cast<float>(std::numbers::pi / 2);  // 0x1.921fb6p+0
  for (const float offset : {0.0f, 0.75f, -1.0f, 3.0f, 1e30f}) {
    const std::vector<float> y = atan_of({INFINITY, -INFINITY}, offset);
    ASSERT_EQ(y.size(), 2u);
    EXPECT_EQ(y[0], half_pi) << "offset " << offset;
    EXPECT_EQ(y[1], -half_pi) << "offset " << offset;
  }
}

TEST_F(AtanCpuEdges, NaNGivesNaN) {
  const std::vector<float> x = {NAN, -NAN, std::bit_cast<float>(0x7f800001u) /* signalling */,
                                std::bit_cast<float>(0xffffffffu)};
  for (const float offset : {0.0f, 3.0f, 1e30f}) {
    const std::vector<float> y = atan_of(x, offset);
    ASSERT_EQ(y.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i)
      EXPECT_TRUE(std::isnan(y[i])) << "x bits " << std::hex << std::bit_cast<uint32_t>(x[i]) << " gave " << y[i];
  }
  // A NaN offset poisons every element.
  const std::vector<float> y = atan_of({0.0f, 1.0f, INFINITY}, NAN);
  for (const float v : y) EXPECT_TRUE(std::isnan(v));
}

TEST_F(AtanCpuEdges, EveryDenormalIsReturnedUnchangedWithOffset0) {
  // atan(d) = d - d^3/3 + ...: for a denormal the cubic term is far below
  // half an ulp, so the correctly rounded result is d itself, and a kernel
  // that flushes denormals (FTZ/DAZ) fails here. All 2 x (2^23 - 1) of them.
  std::vector<float> x;
  x.reserve(size_t{2} << 23);
  for (uint32_t mantissa = 1; mantissa < (1u << 23); ++mantissa) {
    x.push_back(std::bit_cast<float>(mantissa));
    x.push_back(std::bit_cast<float>(mantissa | 0x80000000u));
  }
  const std::vector<float> y = atan_of(x, 0.0f);
  ASSERT_EQ(y.size(), x.size());
  size_t changed = 0;
  size_t first = x.size();
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::bit_cast<uint32_t>(y[i]) != std::bit_cast<uint32_t>(x[i])) {
      if (changed++ == 0) first = i;
    }
  }
  EXPECT_EQ(changed, 0u) << "first: x = " << (first < x.size() ? x[first] : 0.0f) << " gave "
                         << (first < x.size() ? y[first] : 0.0f);
}

TEST_F(AtanCpuEdges, OnesMaxAndMinNormalsAreWithin3Ulp) {
  const std::vector<float> x = {1.0f, -1.0f, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN,
                                std::nextafter(1.0f, 2.0f), std::nextafter(1.0f, 0.0f)};
  for (const float offset : {0.0f, 0.75f, -1.0f, 3.0f, 1e30f}) {
    const std::vector<float> y = atan_of(x, offset);
    ASSERT_EQ(y.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const double expected = std::atan(static_cast<double>(x[i]) + offset);
      EXPECT_LE(ulp_error_f32(y[i], expected), 3.0)
          << "x = " << x[i] << ", offset " << offset << ": got " << y[i] << ", expected " << expected;
    }
  }
}

TEST_F(AtanCpuEdges, OutputShapeFollowsTheInputForEveryRank) {
  std::string why;
  const oprig_implementation_v1* impl = cpu_atan_implementation(&why);
  ASSERT_NE(impl, nullptr) << why;
  oprig_kernel* kernel = nullptr;
  ASSERT_EQ(impl->create(&backend_->context(), "Atan", nullptr, 0, &kernel), OPRIG_STATUS_OK);
  oprig_tensor in{}, out{};
  in.dtype = out.dtype = OPRIG_DTYPE_FLOAT_32;
  in.rank = 4;
  in.dims[0] = 1;
  in.dims[1] = 3;
  in.dims[2] = 5;
  in.dims[3] = 7;
  ASSERT_EQ(impl->prepare(kernel, &in, 1, &out, 1), OPRIG_STATUS_OK);
  EXPECT_EQ(out.rank, 4u);
  for (int d = 0; d < 4; ++d) EXPECT_EQ(out.dims[d], in.dims[d]);
  // Integer tensors are not this backend's business.
  in.dtype = out.dtype = OPRIG_DTYPE_UINT_8;
  EXPECT_EQ(impl->prepare(kernel, &in, 1, &out, 1), OPRIG_STATUS_UNSUPPORTED);
  impl->destroy(kernel);
}

}  // namespace
}  // namespace oprig::testing
