// fp32 accuracy of the cpu Atan kernel against std::atan in double: at most
// 3 ulp over a sample of the whole fp32 bit-pattern space (every 97th
// pattern, ~44M inputs, so every binade and both signs are hit many times)
// for several offsets, and next to the range-reduction thresholds where the
// kernel switches formula.
// This runs the host's widest path; isa_paths_test.cpp holds the others to
// the same bounds.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "atan_cpu_runner.hpp"

namespace oprig::testing {
namespace {

constexpr double kMaxUlp = 3.0;

struct Worst {
  double ulp = 0;
  float x = 0;
  float got = 0;
  double expected = 0;
  uint64_t checked = 0;

  void take(std::span<const float> xs, std::span<const float> ys, double offset) {
    for (size_t i = 0; i < xs.size(); ++i) {
      const double expected_i = std::atan(static_cast<double>(xs[i]) + offset);
      const double error = ulp_error_f32(ys[i], expected_i);
      if (error > ulp || std::isnan(error)) {
        ulp = std::isnan(error) ? std::numeric_limits<double>::infinity() : error;
        x = xs[i];
        got = ys[i];
        expected = expected_i;
      }
    }
    checked += xs.size();
  }

  std::string describe(float offset) const {
    char text[256];
    std::snprintf(text, sizeof text, "max %.3f ulp over %llu inputs at x = %a (offset %a): got %a, expected %a",
                  ulp, static_cast<unsigned long long>(checked), static_cast<double>(x),
                  static_cast<double>(offset), static_cast<double>(got), expected);
    return text;
  }
};

class AtanCpuAccuracy : public ::testing::TestWithParam<float> {
 protected:
  void SetUp() override {
    std::string why;
    backend_ = create_backend("cpu", &why);
    ASSERT_NE(backend_, nullptr) << why;
    ASSERT_NE(cpu_atan_implementation(&why), nullptr) << why;
  }
  std::unique_ptr<Backend> backend_;
};

TEST_P(AtanCpuAccuracy, SampleOfEveryFp32BinadeIsWithin3Ulp) {
  const float offset = GetParam();
  constexpr uint64_t kStride = 97;
  constexpr size_t kChunk = size_t{1} << 22;
  Worst worst;
  std::vector<float> x, y;
  x.reserve(kChunk);
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32);) {
    x.clear();
    for (; bits < (uint64_t{1} << 32) && x.size() < kChunk; bits += kStride)
      x.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    const AtanRun run = run_atan_f32(*backend_, x, offset, y);
    ASSERT_TRUE(run.ok()) << run.step << " status " << run.status << " guards " << run.guards_intact;
    worst.take(x, y, offset);
  }
  EXPECT_LE(worst.ulp, kMaxUlp) << worst.describe(offset);
  RecordProperty("max_ulp", std::to_string(worst.ulp));
}

TEST_P(AtanCpuAccuracy, NeighboursOfReductionThresholdsAreWithin3Ulp) {
  const float offset = GetParam();
  // The kernel switches formula at |x + offset| = tan(pi/8) and tan(3pi/8);
  // ±1 (atan = ±pi/4) sits in the middle branch. 256 neighbours each side of
  // the input that lands on each point, both signs.
  const double points[] = {std::tan(std::numbers::pi / 8), std::tan(3 * std::numbers::pi / 8), 1.0};
  std::vector<float> x;
  for (const double point : points) {
    for (const double sign : {1.0, -1.0}) {
      const float centre = static_cast<float>(sign * point - static_cast<double>(offset));
      float below = centre, above = centre;
      x.push_back(centre);
      for (int i = 0; i < 256; ++i) {
        below = std::nextafter(below, -INFINITY);
        above = std::nextafter(above, INFINITY);
        x.push_back(below);
        x.push_back(above);
      }
    }
  }
  std::vector<float> y;
  const AtanRun run = run_atan_f32(*backend_, x, offset, y);
  ASSERT_TRUE(run.ok()) << run.step;
  Worst worst;
  worst.take(x, y, offset);
  EXPECT_LE(worst.ulp, kMaxUlp) << worst.describe(offset);
}

std::string offset_name(const ::testing::TestParamInfo<float>& info) {
  const float v = info.param;
  if (v == 0.0f) return "offset_0";
  if (v == 0.75f) return "offset_0_75";
  if (v == -1.0f) return "offset_minus_1";
  if (v == 3.0f) return "offset_3";
  return "offset_1e30";
}

INSTANTIATE_TEST_SUITE_P(Offsets, AtanCpuAccuracy, ::testing::Values(0.0f, 0.75f, -1.0f, 3.0f, 1e30f),
                         offset_name);

}  // namespace
}  // namespace oprig::testing
