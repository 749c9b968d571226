// The opencl and vulkan LayerNorm kernels where the plan's shapes do not
// reach, against the fp64 reference under the plan's tolerances (fp32 atol
// 1e-5 rtol 5.96e-7, fp16 atol = rtol = 2^-10 5): a row longer than a team's
// registers on any device (140000 elements, with a mean 1000 times the
// spread: every pass reads the row again), and more rows than one launch has
// work-groups for (2.2 million rows of 2: 68750 groups of 32 rows on PoCL,
// past the 65536 one launch holds: the kernels' grid-stride loop). Skipped
// where the backend is absent.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/slice_device_test.hpp"

namespace oprig::opsuite {
namespace {

using harness::ParamList;

class LayerNormDevice : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!device().present()) GTEST_SKIP() << GetParam() << " is not available: " << device().why;
  }
  harness::TestDevice& device() { return harness::test_device(GetParam()); }

  // LayerNorm over the last axis of [rows, n] with gamma and beta, in `dtype`.
  void check(int64_t rows, int64_t n, float offset, float epsilon, oprig_dtype dtype) {
    std::vector<float> x = slice_test::values(static_cast<size_t>(rows * n), 1, offset - 4, offset + 4);
    std::vector<float> gamma = slice_test::values(static_cast<size_t>(n), 2, -2, 2);
    std::vector<float> beta = slice_test::values(static_cast<size_t>(n), 3, -1, 1);
    const std::vector<harness::HostTensor> inputs = {slice_test::tensor(dtype, {rows, n}, x),
                                                     slice_test::tensor(dtype, {n}, gamma),
                                                     slice_test::tensor(dtype, {n}, beta)};
    const std::vector<float> got =
        slice_test::run(device(), "LayerNorm", ParamList().add_float("epsilon", epsilon), inputs, dtype);
    const std::vector<double> expected = slice_test::reference(
        "LayerNorm", {{"axis", -1}, {"epsilon", epsilon}}, {{rows, n}, {n}, {n}}, {x, gamma, beta});
    ASSERT_EQ(got.size(), expected.size());
    const bool half = dtype == OPRIG_DTYPE_FLOAT_16;
    const double atol = half ? 0.0048828125 : 1e-5, rtol = half ? 0.0048828125 : 5.96e-7;
    size_t outside = 0, first = 0;
    for (size_t i = 0; i < got.size(); ++i)
      if (!(std::fabs(got[i] - expected[i]) <= atol + rtol * std::fabs(expected[i])) && outside++ == 0) first = i;
    EXPECT_EQ(outside, 0u) << "first at " << first << ": got " << got[first] << ", expected " << expected[first];
  }
};

TEST_P(LayerNormDevice, RowLongerThanTheRegisters) {
  check(2, 140000, 1000, 1e-5f, OPRIG_DTYPE_FLOAT_32);
  check(1, 140001, 0, 1e-3f, OPRIG_DTYPE_FLOAT_16);
}

TEST_P(LayerNormDevice, MoreRowsThanOneLaunch) { check(2200000, 2, 0, 1e-5f, OPRIG_DTYPE_FLOAT_32); }

INSTANTIATE_TEST_SUITE_P(Backends, LayerNormDevice, ::testing::Values("opencl", "vulkan"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace oprig::opsuite
