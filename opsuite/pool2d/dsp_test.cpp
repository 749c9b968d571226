// The dsp Pool2D kernel (UINT_8) through the package ABI, where the plan's
// cases do not reach: windows of more than 256 cells (the kernel folds its
// halfword sums into words every 256 cells), channel counts with partial
// vectors, and outputs quantised unlike the input (MAX through a table
// built in fp64, AVG through the per-divisor multiplier). MAX must equal
// the exact codes; AVG must equal, code for code, the rule plan.json states
// evaluated in scalar integers with quant.hpp (sum - cells * z_in scaled by
// the Q31 multiplier of s_in / (s_out * divisor), plus z_out, clamped), and
// lie within one code of the exact fraction rounded half away from zero
// (test_oracle.hpp). Skipped where the dsp backend is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/quant.hpp"
#include "common/test_device.hpp"
#include "pool2d/test_oracle.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using pool2d_test::codes;
using pool2d_test::for_each_window;
using pool2d_test::output_of;
using pool2d_test::pool_codes;
using pool2d_test::Pooling;

struct Case {
  std::vector<int64_t> shape;
  Pooling pooling;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {{1, 20, 20, 3}, {"AVG", {20, 20}, {}, {}}},                         // 400 cells: one fold mid-window
      {{1, 23, 23, 130}, {"AVG", {23, 23}, {}, {}}},                       // 529 cells, odd, two vectors
      {{2, 17, 19, 64}, {"AVG", {17, 16}, {1, 3}, {3, 2, 1, 0}, true}},    // 272 cells with padding counted
      {{1, 9, 31, 200}, {"AVG", {3, 3}, {2, 2}, {1, 1, 1, 1}}},
      {{1, 20, 20, 3}, {"MAX", {20, 20}, {}, {}}},
      {{2, 9, 31, 200}, {"MAX", {3, 2}, {2, 1}, {1, 1, 0, 1}}}};
  return all;
}

// The dsp kernel's rule for AVG in scalar integers.
std::vector<uint8_t> avg_by_rule(const std::vector<uint8_t>& x, const Case& c, double in_scale, int32_t in_zero,
                                 double out_scale, int32_t out_zero) {
  std::vector<uint8_t> out;
  for_each_window(c.shape, c.pooling, [&](size_t i) { return static_cast<int64_t>(x[i]) - in_zero; },
                  [&](const std::vector<int64_t>& cells, int64_t divisor) {
                    int64_t sum = 0;
                    for (int64_t v : cells) sum += v;
                    opsuite::quant::Multiplier m;
                    EXPECT_TRUE(opsuite::quant::multiplier(in_scale / (out_scale * static_cast<double>(divisor)), &m));
                    const int64_t code = out_zero + opsuite::quant::scale_by(static_cast<int32_t>(sum), m);
                    out.push_back(static_cast<uint8_t>(std::clamp<int64_t>(code, 0, 255)));
                  });
  return out;
}

TEST(Pool2DDsp, CodesFollowTheFixedPointRuleWithinOneCodeOfTheExactMean) {
  TestDevice& d = test_device("dsp");
  if (!d.present()) GTEST_SKIP() << "dsp is absent: " << d.why;
  struct Quantisation {
    float out_scale;
    int32_t out_zero;
    int64_t ratio_p, ratio_q;  // in_scale / out_scale
  };
  const float in_scale = 0.5f;
  const int32_t in_zero = 100;
  const Quantisation quantisations[] = {{0.5f, 100, 1, 1}, {0.125f, 10, 4, 1}, {2.0f, 200, 1, 4}};
  uint32_t seed = 3;
  for (const Case& c : cases()) {
    size_t count = 1;
    for (int64_t e : c.shape) count *= static_cast<size_t>(e);
    std::vector<uint8_t> x(count);
    for (size_t i = 0; i < count; ++i) x[i] = static_cast<uint8_t>((i * 2654435761u + seed * 40503u) >> 13);
    ++seed;
    const HostTensor in = codes(c.shape, x, in_scale, in_zero);
    for (const Quantisation& q : quantisations) {
      const std::string where = c.pooling.type + " window " + std::to_string(c.pooling.kernel[0]) + "x" +
                                std::to_string(c.pooling.kernel[1]) + " channels " + std::to_string(c.shape[3]) +
                                " output scale " + std::to_string(q.out_scale);
      KernelSession s(*d.backend, *d.impl, "Pool2D", pool2d_test::params_of(c.pooling), {in},
                      {output_of(OPRIG_DTYPE_UINT_8, q.out_scale, q.out_zero)});
      ASSERT_TRUE(s.ok()) << s.error();
      ASSERT_EQ(s.run(), OPRIG_STATUS_OK) << where;
      const std::vector<uint8_t> got = s.output(0).as<uint8_t>();
      const std::vector<uint8_t> exact = pool_codes(x, c.shape, c.pooling, in_zero, q.out_zero, q.ratio_p, q.ratio_q);
      ASSERT_EQ(got.size(), exact.size()) << where;
      if (c.pooling.type == "MAX") {
        EXPECT_EQ(got, exact) << where;
        continue;
      }
      EXPECT_EQ(got, avg_by_rule(x, c, in_scale, in_zero, q.out_scale, q.out_zero)) << where;
      size_t off = 0;
      for (size_t i = 0; i < got.size(); ++i) off += std::abs(int{got[i]} - int{exact[i]}) > 1 ? 1 : 0;
      EXPECT_EQ(off, 0u) << where << ": codes more than 1 from the exact mean";
    }
  }
}

}  // namespace
}  // namespace oprig::harness
