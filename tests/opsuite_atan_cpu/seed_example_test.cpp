// The worked example of the Atan issue: x = [-8, 0.5, 2, 2.2, 201] with
// offset 1 gives [-1.4288993, 0.98279375, 1.2490457, 1.2679114, 1.5658458].
// The issue's numbers are first checked against std::atan in double, then
// the kernel against them.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "atan_cpu_runner.hpp"

namespace oprig::testing {
namespace {

TEST(AtanCpuSeedExample, MatchesTheIssueWithin3Ulp) {
  const std::vector<float> x = {-8.0f, 0.5f, 2.0f, 2.2f, 201.0f};
  const std::vector<float> from_issue = {-1.4288993f, 0.98279375f, 1.2490457f, 1.2679114f, 1.5658458f};
  const float offset = 1.0f;

  // The issue's values are fp32 roundings of the true results: within one ulp.
  for (size_t i = 0; i < x.size(); ++i) {
    const double exact = std::atan(static_cast<double>(x[i]) + offset);
    EXPECT_LE(ulp_error_f32(from_issue[i], exact), 1.0) << "issue value " << i << " vs std::atan " << exact;
  }

  std::string why;
  std::unique_ptr<Backend> backend = create_backend("cpu", &why);
  ASSERT_NE(backend, nullptr) << why;
  std::vector<float> y;
  const AtanRun run = run_atan_f32(*backend, x, offset, y);
  ASSERT_TRUE(run.ok()) << run.step << " status " << run.status;
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_LE(ulp_error_f32(y[i], from_issue[i]), 3.0) << "x = " << x[i] << ": got " << y[i];
    EXPECT_LE(ulp_error_f32(y[i], std::atan(static_cast<double>(x[i]) + offset)), 3.0) << "x = " << x[i];
  }
}

}  // namespace
}  // namespace oprig::testing
