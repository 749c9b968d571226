// The opencl and vulkan RMSNorm kernels where the plan's shapes do not
// reach, against the fp64 reference under the plan's tolerances (1 ulp,
// fp32 and fp16): a row longer than a team's registers on any device
// (140000 elements: every pass reads the row again), and more rows than one
// launch has work-groups for (2.2 million rows of 2: 68750 groups of 32 rows on
// PoCL, past the 65536 one launch holds: the kernels' grid-stride loop).
// Skipped where the backend is absent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/slice_device_test.hpp"

namespace oprig::opsuite {
namespace {

using harness::ParamList;

class RmsNormDevice : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!device().present()) GTEST_SKIP() << GetParam() << " is not available: " << device().why;
  }
  harness::TestDevice& device() { return harness::test_device(GetParam()); }

  // RMSNorm of [rows, n] in `dtype` within 1 ulp of the reference.
  void check(int64_t rows, int64_t n, float epsilon, oprig_dtype dtype) {
    std::vector<float> x = slice_test::values(static_cast<size_t>(rows * n), 1, -4, 4);
    std::vector<float> weight = slice_test::values(static_cast<size_t>(n), 2, -2, 2);
    const std::vector<harness::HostTensor> inputs = {slice_test::tensor(dtype, {rows, n}, x),
                                                     slice_test::tensor(dtype, {n}, weight)};
    const std::vector<float> got =
        slice_test::run(device(), "RMSNorm", ParamList().add_float("epsilon", epsilon), inputs, dtype);
    const std::vector<double> expected =
        slice_test::reference("RMSNorm", {{"epsilon", epsilon}}, {{rows, n}, {n}}, {x, weight});
    ASSERT_EQ(got.size(), expected.size());
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const double u = slice_test::ulps(got[i], expected[i], dtype);
      if (!(u <= worst)) worst = u, at = i;
    }
    EXPECT_LE(worst, 1.0) << "element " << at << ": got " << got[at] << ", expected " << expected[at];
  }
};

TEST_P(RmsNormDevice, RowLongerThanTheRegisters) {
  check(2, 140000, 1e-6f, OPRIG_DTYPE_FLOAT_32);
  check(1, 140001, 1e-3f, OPRIG_DTYPE_FLOAT_16);
}

TEST_P(RmsNormDevice, MoreRowsThanOneLaunch) { check(2200000, 2, 1e-6f, OPRIG_DTYPE_FLOAT_32); }

INSTANTIATE_TEST_SUITE_P(Backends, RmsNormDevice, ::testing::Values("opencl", "vulkan"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace oprig::opsuite
