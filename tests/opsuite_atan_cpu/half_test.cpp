// fp16 Atan on cpu: every one of the 65536 bit patterns, within one fp16
// step of the correctly rounded atan(x + offset) computed in double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "atan_cpu_runner.hpp"
#include "core/half.hpp"

namespace oprig::testing {
namespace {

class AtanCpuHalf : public ::testing::TestWithParam<float> {};

TEST_P(AtanCpuHalf, EveryPatternWithinOneStepOfCorrectlyRounded) {
  const float offset = GetParam();
  std::string why;
  std::unique_ptr<Backend> backend = create_backend("cpu", &why);
  ASSERT_NE(backend, nullptr) << why;
  std::vector<uint16_t> x(65536);
  for (uint32_t bits = 0; bits < 65536; ++bits) x[bits] = static_cast<uint16_t>(bits);
  std::vector<uint16_t> y;
  const AtanRun run = run_atan_f16(*backend, x, offset, y);
  ASSERT_TRUE(run.ok()) << run.step << " status " << run.status;

  int worst_steps = 0;
  uint16_t worst_x = 0;
  size_t nan_mismatches = 0;
  for (uint32_t i = 0; i < 65536; ++i) {
    // half_to_float is exact, so the sum below is the exact real x + offset.
    const double expected = std::atan(static_cast<double>(half_to_float(x[i])) + offset);
    const bool got_nan = (y[i] & 0x7c00u) == 0x7c00u && (y[i] & 0x3ffu) != 0;
    if (std::isnan(expected) || got_nan) {
      nan_mismatches += std::isnan(expected) != got_nan;
      continue;
    }
    const int steps = half_steps_apart(y[i], round_to_half(expected));
    if (steps > worst_steps) {
      worst_steps = steps;
      worst_x = x[i];
    }
  }
  EXPECT_EQ(nan_mismatches, 0u);
  EXPECT_LE(worst_steps, 1) << "x = " << half_to_float(worst_x) << " (bits 0x" << std::hex << worst_x
                            << "), offset " << offset;
}

INSTANTIATE_TEST_SUITE_P(Offsets, AtanCpuHalf, ::testing::Values(0.0f, 0.75f, -1.0f, 3.0f),
                         [](const ::testing::TestParamInfo<float>& info) {
                           return "offset_index_" + std::to_string(info.index);
                         });

}  // namespace
}  // namespace oprig::testing
