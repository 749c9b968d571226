// UINT_64 quantised output: q = round(F / scale) + zero_point, ties away from
// zero, saturated to [0, 2^64 - 1]. Each expectation is worked out by hand in
// its comment.
#include <gtest/gtest.h>

#include <vector>

#include "fibonacci_library.hpp"

namespace {

using oprig::test::FibonacciLibrary;
using oprig::test::run_fibonacci;

class FibonacciQuantised : public ::testing::Test {
 protected:
  void SetUp() override {
    cpu_ = library_.cpu();
    ASSERT_NE(cpu_, nullptr) << library_.error();
  }
  std::vector<uint64_t> run(float n, float scale, int32_t zero_point) {
    const auto result = run_fibonacci(*cpu_, n, OPRIG_DTYPE_UINT_64, scale, zero_point);
    EXPECT_EQ(result.status, OPRIG_STATUS_OK) << result.failed_call;
    return result.u64;
  }
  FibonacciLibrary library_;
  const oprig_implementation_v1* cpu_ = nullptr;
};

TEST_F(FibonacciQuantised, HalfScaleDoublesAndShifts) {
  // F = 1 1 2 3 5; q = F / 0.5 + 3 = 2F + 3.
  EXPECT_EQ(run(5.0f, 0.5f, 3), (std::vector<uint64_t>{5, 5, 7, 9, 13}));
}

TEST_F(FibonacciQuantised, TiesRoundAwayFromZero) {
  // F = 1 1 2 3 5 8 13; F / 2 = 0.5 0.5 1 1.5 2.5 4 6.5 -> 1 1 1 2 3 4 7.
  EXPECT_EQ(run(7.0f, 2.0f, 0), (std::vector<uint64_t>{1, 1, 1, 2, 3, 4, 7}));
  // F = 1 1 2 3 5 8; F / 4 = 0.25 0.25 0.5 0.75 1.25 2 -> 0 0 1 1 1 2; + 10.
  EXPECT_EQ(run(6.0f, 4.0f, 10), (std::vector<uint64_t>{10, 10, 11, 11, 11, 12}));
}

TEST_F(FibonacciQuantised, RealValueComesBack) {
  // real = scale * (q - zero_point) gives F back exactly when F / scale is whole.
  const std::vector<uint64_t> q = run(10.0f, 0.25f, 7);  // q = 4F + 7
  ASSERT_EQ(q.size(), 10u);
  EXPECT_EQ(q.back(), 4u * 55u + 7u);
  EXPECT_EQ(0.25 * static_cast<double>(q.back() - 7), 55.0);
}

TEST_F(FibonacciQuantised, ScaleOneIsExactUpToF93) {
  // F(93) = 12200160415121876738 has 64 significant bits: a double would round it.
  const std::vector<uint64_t> q = run(93.0f, 1.0f, 0);
  ASSERT_EQ(q.size(), 93u);
  EXPECT_EQ(q[92], 12200160415121876738ull);
  EXPECT_EQ(q[91], 7540113804746346429ull);
}

TEST_F(FibonacciQuantised, SaturatesAtBothEnds) {
  // zero_point -2: q = F - 2 for F = 1 1 2 3 -> -1 -1 0 1 -> 0 0 0 1.
  EXPECT_EQ(run(4.0f, 1.0f, -2), (std::vector<uint64_t>{0, 0, 0, 1}));
  // scale 0.25: q = 4F. 4 * F(90) = 11520268777483264480 < 2^64 = 18446744073709551616;
  // 4 * F(91) = 18640186441502121236 > 2^64 - 1: saturates, as do F(92), F(93).
  const std::vector<uint64_t> q = run(93.0f, 0.25f, 0);
  ASSERT_EQ(q.size(), 93u);
  EXPECT_EQ(q[89], 11520268777483264480ull);
  EXPECT_EQ(q[90], UINT64_MAX);
  EXPECT_EQ(q[92], UINT64_MAX);
}

}  // namespace
