// The dsp Resize kernel (UINT_8) through the package ABI, where the plan's
// cases do not reach: outputs quantised unlike the input (NEAREST through a
// table built in fp64, BILINEAR through a quant.hpp multiplier), channel
// counts with partial vectors and more than one vector, every
// transformation and nearest_mode. NEAREST must copy the code of the input
// element the exact coordinate picks (test_oracle.hpp), requantised
// exactly; BILINEAR must equal, code for code, the rule plan.json states
// evaluated in scalar integers here (weights round(w * 2^10), the Q20 sum of
// the four products, then a rounding shift, or quant.hpp's scale_by for
// another output quantisation), and with the same quantisation lie within
// 0.75 of the exact blend of the codes (the tolerance's reasoning).
// Skipped where the dsp backend is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/quant.hpp"
#include "common/test_device.hpp"
#include "resize/test_oracle.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using resize_test::Resizing;

constexpr double kInScale = 0.5;
constexpr int32_t kInZero = 100;

struct Quantisation {
  double out_scale;
  int32_t out_zero;
};
const Quantisation kQuantisations[] = {{0.5, 100}, {0.125, 10}, {2.0, 200}};

HostTensor run(const std::vector<int64_t>& shape, const std::vector<uint8_t>& x, const Resizing& r,
               const Quantisation& q) {
  TestDevice& d = test_device("dsp");
  HostTensor in = HostTensor::of(OPRIG_DTYPE_UINT_8, shape, x);
  in.scale = static_cast<float>(kInScale);
  in.zero_point = kInZero;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_UINT_8;
  out.scale = static_cast<float>(q.out_scale);
  out.zero_point = q.out_zero;
  return run_once(*d.backend, *d.impl, "Resize", resize_test::params_of(r), in, out);
}

std::vector<uint8_t> some_codes(size_t n, uint32_t seed) {
  std::vector<uint8_t> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<uint8_t>((i * 2654435761u + seed * 40503u) >> 11);
  return x;
}

// BILINEAR's fixed-point taps along one axis, from the exact coordinate.
struct Tap {
  int64_t first, second, weight;  // weight of the second, in 2^-10
};
Tap tap(const std::string& t, int64_t o, int64_t in, int64_t out) {
  const resize_test::Fraction f = resize_test::coordinate(t, o, in, out);
  const double c = std::clamp(static_cast<double>(f.p) / static_cast<double>(f.q), 0.0, static_cast<double>(in - 1));
  const auto first = static_cast<int64_t>(std::floor(c));
  return {first, std::min(first + 1, in - 1), std::lround((c - static_cast<double>(first)) * 1024)};
}

// The kernel's rule in scalar integers, and the exact blend of the codes.
void bilinear_by_rule(const std::vector<uint8_t>& x, const std::vector<int64_t>& d, const Resizing& r,
                      const Quantisation& q, std::vector<uint8_t>* rule, std::vector<double>* exact) {
  opsuite::quant::Multiplier m;
  ASSERT_TRUE(opsuite::quant::multiplier(kInScale / (q.out_scale * 1024 * 1024), &m));
  const bool same = q.out_scale == kInScale && q.out_zero == kInZero;
  const std::vector<float> codes(x.begin(), x.end());
  *exact = resize_test::bilinear_in_double(codes, d, r.out_height, r.out_width, r.transformation);
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t y = 0; y < r.out_height; ++y)
      for (int64_t xo = 0; xo < r.out_width; ++xo) {
        const Tap ty = tap(r.transformation, y, d[1], r.out_height), tx = tap(r.transformation, xo, d[2], r.out_width);
        for (int64_t c = 0; c < d[3]; ++c) {
          auto at = [&](int64_t h, int64_t w) {
            return int64_t{x[static_cast<size_t>(((n * d[1] + h) * d[2] + w) * d[3] + c)]};
          };
          const int64_t top = at(ty.first, tx.first) * (1024 - tx.weight) + at(ty.first, tx.second) * tx.weight;
          const int64_t bottom = at(ty.second, tx.first) * (1024 - tx.weight) + at(ty.second, tx.second) * tx.weight;
          const int64_t acc = top * (1024 - ty.weight) + bottom * ty.weight;
          const int64_t code =
              same ? (acc + (1 << 19)) >> 20
                   : q.out_zero + opsuite::quant::scale_by(static_cast<int32_t>(acc - int64_t{kInZero} * (1 << 20)), m);
          rule->push_back(static_cast<uint8_t>(std::clamp<int64_t>(code, 0, 255)));
        }
      }
}

struct Shape {
  std::vector<int64_t> in;
  int64_t out_height, out_width;
};
// Channel counts: partial vectors (5, 130), whole word vectors per pixel
// (32: four pixels a store; 64; 256: two byte vectors a pixel).
const Shape kShapes[] = {{{2, 5, 7, 5}, 9, 4},   {{1, 3, 4, 130}, 7, 9}, {{1, 6, 6, 256}, 3, 5},
                         {{1, 4, 5, 32}, 7, 11}, {{2, 3, 3, 64}, 5, 2}};

TEST(ResizeDsp, NearestCopiesTheExactlyChosenCodeRequantisedExactly) {
  if (!test_device("dsp").present()) GTEST_SKIP() << "dsp is absent: " << test_device("dsp").why;
  uint32_t seed = 1;
  for (const Shape& s : kShapes) {
    size_t count = 1;
    for (int64_t e : s.in) count *= static_cast<size_t>(e);
    const std::vector<uint8_t> x = some_codes(count, seed++);
    for (const char* t : resize_test::kTransformations)
      for (const char* rounding : resize_test::kRoundings) {
        const Resizing r{s.out_height, s.out_width, "NEAREST", t, rounding};
        const std::vector<size_t> from = resize_test::nearest_sources(s.in, r);
        for (const Quantisation& q : kQuantisations) {
          std::vector<uint8_t> want;
          for (size_t i : from) {
            const double code = std::round(kInScale * (x[i] - kInZero) / q.out_scale) + q.out_zero;
            want.push_back(static_cast<uint8_t>(std::clamp(code, 0.0, 255.0)));
          }
          EXPECT_EQ(run(s.in, x, r, q).as<uint8_t>(), want)
              << t << " " << rounding << " channels " << s.in[3] << " output scale " << q.out_scale;
        }
      }
  }
}

TEST(ResizeDsp, BilinearFollowsTheFixedPointRule) {
  if (!test_device("dsp").present()) GTEST_SKIP() << "dsp is absent: " << test_device("dsp").why;
  uint32_t seed = 7;
  for (const Shape& s : kShapes) {
    size_t count = 1;
    for (int64_t e : s.in) count *= static_cast<size_t>(e);
    const std::vector<uint8_t> x = some_codes(count, seed++);
    for (const char* t : resize_test::kTransformations) {
      const Resizing r{s.out_height, s.out_width, "BILINEAR", t};
      for (const Quantisation& q : kQuantisations) {
        const std::string where = std::string(t) + " channels " + std::to_string(s.in[3]) + " output scale " +
                                  std::to_string(q.out_scale);
        std::vector<uint8_t> rule;
        std::vector<double> exact;
        bilinear_by_rule(x, s.in, r, q, &rule, &exact);
        const std::vector<uint8_t> got = run(s.in, x, r, q).as<uint8_t>();
        EXPECT_EQ(got, rule) << where;
        if (q.out_scale != kInScale || q.out_zero != kInZero || got.size() != exact.size()) continue;
        double worst = 0;
        for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - exact[i]));
        EXPECT_LE(worst, 0.75) << where;
      }
    }
  }
}

}  // namespace
}  // namespace oprig::harness
