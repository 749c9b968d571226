// Tensor sizes around the vector width and the thread split, and thread-count
// determinism: the same input on a 1-thread and a 2-thread cpu backend gives
// bitwise the same output (the kernel promises identical arithmetic for
// vector bodies and tails, wherever a chunk boundary falls), with no write
// outside the output (guard bands intact).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "atan_cpu_runner.hpp"
#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"

namespace oprig::testing {
namespace {

// Values spread over every reduction branch, both signs, plus a few specials,
// so a lane mix-up in a tail shows.
std::vector<float> mixed_inputs(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> wide(-40.0f, 40.0f);
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, 1.0f, -1.0f};
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = (i % 13 == 5) ? specials[(i / 13) % 8] : wide(rng);
  return x;
}

class AtanCpuSizes : public ::testing::TestWithParam<size_t> {};

TEST_P(AtanCpuSizes, OneAndTwoThreadsAgreeBitwiseAndWithin3Ulp) {
  const size_t n = GetParam();
  CpuBackend one_thread(1);
  CpuBackend two_threads(2);
  ASSERT_EQ(one_thread.context().cpu_threads, 1u);
  ASSERT_EQ(two_threads.context().cpu_threads, 2u);
  const float offset = 0.75f;
  const std::vector<float> x = mixed_inputs(n, static_cast<uint32_t>(n) + 1);
  std::vector<float> y1, y2;
  const AtanRun run1 = run_atan_f32(one_thread, x, offset, y1);
  const AtanRun run2 = run_atan_f32(two_threads, x, offset, y2);
  ASSERT_TRUE(run1.ok()) << "1 thread: " << run1.step << " status " << run1.status << " guards " << run1.guards_intact;
  ASSERT_TRUE(run2.ok()) << "2 threads: " << run2.step << " status " << run2.status << " guards " << run2.guards_intact;
  ASSERT_EQ(y1.size(), n);
  ASSERT_EQ(y2.size(), n);
  if (n > 0) {
    EXPECT_EQ(std::memcmp(y1.data(), y2.data(), n * sizeof(float)), 0);  // memcmp: NaN bits too
  }
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    if (ulp_error_f32(y1[i], std::atan(static_cast<double>(x[i]) + offset)) > 3.0 && bad++ < 5)
      ADD_FAILURE() << "element " << i << ": x = " << x[i] << " gave " << y1[i];
  }
  EXPECT_EQ(bad, 0u);
}

TEST_P(AtanCpuSizes, HalfOneAndTwoThreadsAgreeBitwise) {
  const size_t n = GetParam();
  CpuBackend one_thread(1);
  CpuBackend two_threads(2);
  std::vector<uint16_t> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
  std::vector<uint16_t> y1, y2;
  ASSERT_TRUE(run_atan_f16(one_thread, x, -1.0f, y1).ok());
  ASSERT_TRUE(run_atan_f16(two_threads, x, -1.0f, y2).ok());
  ASSERT_EQ(y1.size(), n);
  if (n > 0) {
    EXPECT_EQ(std::memcmp(y1.data(), y2.data(), n * sizeof(uint16_t)), 0);
  }
}

// 65537 and 131075 split over two threads at an element that is not a
// multiple of the 8-lane vector width, so both chunks end in a tail.
// 2^24 + 3 (128 MiB in and out) is larger than any last-level cache.
INSTANTIATE_TEST_SUITE_P(Sizes, AtanCpuSizes,
                         ::testing::Values(size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{65537},
                                           size_t{131075}, size_t{1} << 20,
                                           (size_t{1} << 24) + 3),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return "n_" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace oprig::testing
