// The opencl and vulkan Pool2D kernels through the package ABI, where the
// plan's small cases do not reach: outputs of many work-groups along every
// dimension of the dispatch (rows longer than a work-group, several images),
// every channel vector width and path (channel counts whose groups are and
// are not powers of two, counts that fill 16-byte vectors, whole words, or
// neither), and UINT_8 with another output quantisation (requantised, on the
// cpu, in double). With small-integer inputs every window sum is exact, so
// each result must equal the definition computed in double (test_oracle.hpp)
// rounded once to the output type; codes must equal the exact fractions
// rounded half away from zero. Skipped where the backend is absent (a build
// or machine without it).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_device.hpp"
#include "pool2d/test_oracle.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using pool2d_test::codes;
using pool2d_test::floats_of;
using pool2d_test::output_of;
using pool2d_test::pool_codes;
using pool2d_test::pool_in_double;
using pool2d_test::Pooling;
using pool2d_test::rounded_to;
using pool2d_test::run_pool;
using pool2d_test::small_ints;
using pool2d_test::tensor_of;

class Pool2DDevice : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!test_device(GetParam()).present()) GTEST_SKIP() << GetParam() << " is absent: " << test_device(GetParam()).why;
  }
  HostTensor run(const HostTensor& in, const Pooling& p, oprig_tensor out) {
    TestDevice& d = test_device(GetParam());
    return run_pool(*d.backend, *d.impl, in, p, out);
  }
};

struct Case {
  std::vector<int64_t> shape;
  Pooling pooling;
};

// Channel counts for every path: 48 (16-byte vectors in every type, 12
// groups of fp32: not a power of two), 64 (16 groups), 6 (whole words of
// fp32 and fp16; codes element by element on vulkan), 1, 130, 24; rows of
// up to 1800 work-items; windows with and without padding, strides below,
// at and above the kernel, a global window.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {{2, 37, 29, 48}, {"MAX", {3, 3}, {2, 2}, {1, 1, 1, 1}}},
      {{2, 37, 29, 48}, {"AVG", {3, 2}, {1, 2}, {2, 1, 0, 1}, true}},
      {{1, 30, 30, 64}, {"AVG", {3, 3}, {2, 2}, {1, 1, 1, 1}}},
      {{1, 23, 41, 6}, {"MAX", {2, 3}, {1, 1}, {1, 0, 0, 2}}},
      {{1, 23, 41, 6}, {"AVG", {3, 3}, {1, 1}, {1, 1, 1, 1}}},
      {{3, 17, 19, 1}, {"AVG", {4, 4}, {3, 3}, {1, 2, 3, 0}}},
      {{1, 9, 301, 24}, {"MAX", {1, 3}, {1, 1}, {0, 1, 0, 1}}},
      {{1, 12, 10, 130}, {"AVG", {2, 2}, {2, 2}, {}}},
      {{2, 7, 7, 256}, {"AVG", {7, 7}, {}, {}}}};
  return all;
}

std::string where(const std::string& backend, const Case& c, oprig_dtype dtype) {
  std::string s = backend + " " + c.pooling.type + " dtype " + std::to_string(dtype) + " shape";
  for (int64_t d : c.shape) s += " " + std::to_string(d);
  return s;
}

TEST_P(Pool2DDevice, FloatsEqualTheDefinitionOnEveryPath) {
  uint32_t seed = 11;
  for (const Case& c : cases()) {
    size_t count = 1;
    for (int64_t d : c.shape) count *= static_cast<size_t>(d);
    const std::vector<float> x = small_ints(count, seed++);
    const std::vector<double> want = pool_in_double(x, c.shape, c.pooling);
    for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16}) {
      const std::vector<float> got = floats_of(run(tensor_of(dtype, c.shape, x), c.pooling, output_of(dtype)));
      ASSERT_EQ(got.size(), want.size()) << where(GetParam(), c, dtype);
      size_t wrong = 0, first = 0;
      for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != rounded_to(dtype, want[i]) && wrong++ == 0) first = i;
      EXPECT_EQ(wrong, 0u) << where(GetParam(), c, dtype) << ": first at " << first << ", " << got[first]
                           << " for " << want[first];
    }
  }
}

TEST_P(Pool2DDevice, CodesEqualExactFractionsRoundedHalfAwayFromZero) {
  // Scales whose ratio is a fraction the oracle keeps exact: the same
  // quantisation (codes in integers on the device), and output scales a
  // quarter and four times the input's (the device requantises in double,
  // as the cpu does; without fp64 it refuses).
  struct Quantisation {
    float out_scale;
    int32_t out_zero;
    int64_t ratio_p, ratio_q;
  };
  const float in_scale = 0.5f;
  const int32_t in_zero = 100;
  const Quantisation quantisations[] = {{0.5f, 100, 1, 1}, {0.125f, 10, 4, 1}, {2.0f, 200, 1, 4}};
  uint32_t seed = 5;
  for (const Case& c : cases()) {
    size_t count = 1;
    for (int64_t d : c.shape) count *= static_cast<size_t>(d);
    std::vector<uint8_t> x(count);
    for (size_t i = 0; i < count; ++i) x[i] = static_cast<uint8_t>((i * 2654435761u + seed) >> 13);
    ++seed;
    const HostTensor in = codes(c.shape, x, in_scale, in_zero);
    for (const Quantisation& q : quantisations) {
      const oprig_tensor out = output_of(OPRIG_DTYPE_UINT_8, q.out_scale, q.out_zero);
      TestDevice& d = test_device(GetParam());
      KernelSession s(*d.backend, *d.impl, "Pool2D", pool2d_test::params_of(c.pooling), {in}, {out});
      if (s.prepare_status() == OPRIG_STATUS_UNSUPPORTED && q.ratio_p != q.ratio_q) continue;  // no fp64
      ASSERT_TRUE(s.ok()) << s.error();
      ASSERT_EQ(s.run(), OPRIG_STATUS_OK);
      EXPECT_EQ(s.output(0).as<uint8_t>(), pool_codes(x, c.shape, c.pooling, in_zero, q.out_zero, q.ratio_p, q.ratio_q))
          << where(GetParam(), c, OPRIG_DTYPE_UINT_8) << " output scale " << q.out_scale;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Pool2DDevice, ::testing::Values("opencl", "vulkan"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace oprig::harness
