// The opencl and vulkan Softmax kernels where the plan's shapes do not
// reach, against the fp64 reference under the plan's tolerances (3 ulp
// fp32, 1 ulp fp16): a row longer than a team's registers on any device
// (140000 elements: every pass reads the row again), more rows than one
// launch has work-groups for (2.2 million rows of 2: 68750 groups of 32 rows on
// PoCL, past the 65536 one launch holds: the kernels' grid-stride loop),
// and long strided slices (axis 0 of [3000, 40]). Skipped where the backend
// is absent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/slice_device_test.hpp"

namespace oprig::opsuite {
namespace {

using harness::ParamList;

class SoftmaxDevice : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!device().present()) GTEST_SKIP() << GetParam() << " is not available: " << device().why;
  }
  harness::TestDevice& device() { return harness::test_device(GetParam()); }

  // Softmax of x (shape, axis, beta) in `dtype` within `bound` ulp of the reference.
  void check(std::vector<int64_t> shape, std::vector<float> x, int64_t axis, float beta, oprig_dtype dtype,
             double bound) {
    const harness::HostTensor in = slice_test::tensor(dtype, shape, x);
    const std::vector<float> got =
        slice_test::run(device(), "Softmax", ParamList().add_int("axis", axis).add_float("beta", beta), {in}, dtype);
    const std::vector<double> expected =
        slice_test::reference("Softmax", {{"axis", axis}, {"beta", beta}}, {shape}, {x});
    ASSERT_EQ(got.size(), expected.size());
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const double u = slice_test::ulps(got[i], expected[i], dtype);
      if (!(u <= worst)) worst = u, at = i;
    }
    EXPECT_LE(worst, bound) << "element " << at << ": got " << got[at] << ", expected " << expected[at];
  }
};

TEST_P(SoftmaxDevice, RowLongerThanTheRegisters) {
  check({2, 140000}, slice_test::values(280000, 1, -10, 10), -1, 1.0f, OPRIG_DTYPE_FLOAT_32, 3);
  check({1, 140001}, slice_test::values(140001, 2, -10, 10), -1, 0.75f, OPRIG_DTYPE_FLOAT_16, 1);
}

TEST_P(SoftmaxDevice, MoreRowsThanOneLaunch) {
  check({2200000, 2}, slice_test::values(4400000, 3, -10, 10), -1, 2.0f, OPRIG_DTYPE_FLOAT_32, 3);
}

TEST_P(SoftmaxDevice, LongStridedSlices) {
  check({3000, 40}, slice_test::values(120000, 4, -10, 10), 0, 1.0f, OPRIG_DTYPE_FLOAT_32, 3);
  check({3000, 41}, slice_test::values(123000, 5, -10, 10), 0, 1.0f, OPRIG_DTYPE_FLOAT_16, 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, SoftmaxDevice, ::testing::Values("opencl", "vulkan"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace oprig::opsuite
