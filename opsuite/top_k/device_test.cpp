// The opencl and vulkan TopK kernels through the package ABI, where the
// plan's cases do not reach: every path of top_k_plan.hpp — one tile
// holding several short lines, long lines through many tiles, few long
// lines split into parts (rows and a strided axis) and merged by a second
// pass, and the sort path for k beyond the local memory (k up to the whole
// axis) — with k from 1 to n, largest and smallest, sorted and in index
// order, in all three input types, every line full of ties with NaN, -0,
// infinities or the integer extremes among them. Indices must be the
// definition's (a stable sort, common/select_test_support.hpp's order) and
// values the input's elements bit for bit (-0 stays -0, NaN keeps its
// sign); a second execute must give the same bits. Skipped where the
// backend is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"
#include "common/select_test_support.hpp"

namespace oprig::harness {
namespace {

using select_test::above;
using select_test::Lines;

// Indices of the k winners of each line, in the output's order.
std::vector<int32_t> expected_indices(const std::vector<double>& v, const Lines& l, size_t k, bool largest,
                                      bool sorted) {
  std::vector<int32_t> out(l.outer * k * l.inner);
  std::vector<size_t> order(l.n);
  for (size_t o = 0; o < l.outer; ++o)
    for (size_t i = 0; i < l.inner; ++i) {
      std::iota(order.begin(), order.end(), size_t{0});
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const double x = v[l.at(o, a, i)], y = v[l.at(o, b, i)];
        return largest ? above(x, y) : above(y, x);
      });
      if (!sorted) std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));
      for (size_t t = 0; t < k; ++t) out[(o * k + t) * l.inner + i] = static_cast<int32_t>(order[t]);
    }
  return out;
}

// The input's elements at `indices` along the axis, as raw bytes.
std::vector<std::byte> gathered(const HostTensor& x, const Lines& l, size_t k, const std::vector<int32_t>& indices) {
  const size_t width = x.dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  std::vector<std::byte> out(indices.size() * width);
  for (size_t o = 0; o < l.outer; ++o)
    for (size_t t = 0; t < k; ++t)
      for (size_t i = 0; i < l.inner; ++i) {
        const size_t e = (o * k + t) * l.inner + i;
        std::memcpy(out.data() + e * width,
                    x.bytes.data() + l.at(o, static_cast<size_t>(indices[e]), i) * width, width);
      }
  return out;
}

struct Case {
  std::vector<int64_t> shape;
  int axis;
  std::vector<int64_t> ks;
};

class TopKDevice : public op_test::DeviceTest {
 protected:
  void check(const Case& c, oprig_dtype dtype, uint32_t seed, int levels) {
    const select_test::Input in = select_test::make_input(dtype, c.shape, seed, levels, true);
    const Lines lines(c.shape, c.axis);
    for (int64_t k : c.ks)
      for (bool largest : {true, false})
        for (bool sorted : {true, false}) {
          const ParamList params = ParamList().add_int("k", k).add_int("axis", c.axis).add_bool("largest", largest).add_bool(
              "sorted", sorted);
          oprig_tensor values{}, indices{};
          values.dtype = dtype;
          indices.dtype = OPRIG_DTYPE_INT_32;
          KernelSession s(backend(), op_test::implementation(backend().kind()), "TopK", params, {in.tensor},
                          {values, indices});
          ASSERT_TRUE(s.ok()) << s.error();
          ASSERT_EQ(s.run(), OPRIG_STATUS_OK);
          const HostTensor got_values = s.output(0), got_indices = s.output(1);
          ASSERT_EQ(s.run(), OPRIG_STATUS_OK);
          std::string where = select_test::dtype_text(dtype) + " k " + std::to_string(k) + " axis " +
                              std::to_string(c.axis) + (largest ? " largest" : " smallest") +
                              (sorted ? " sorted" : " in index order") + " shape";
          for (int64_t d : c.shape) where += " " + std::to_string(d);
          const std::vector<int32_t> expected =
              expected_indices(in.values, lines, static_cast<size_t>(k), largest, sorted);
          EXPECT_EQ(got_indices.as<int32_t>(), expected) << where;
          EXPECT_TRUE(got_values.bytes == gathered(in.tensor, lines, static_cast<size_t>(k), expected)) << where;
          EXPECT_TRUE(s.output(0).bytes == got_values.bytes && s.output(1).bytes == got_indices.bytes)
              << where << ": a second execute differs";
        }
  }
};

const oprig_dtype kTypes[] = {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_INT_32};

TEST_P(TopKDevice, TilePathGivesTheDefinitionsWinners) {
  const std::vector<Case> cases = {
      {{3, 9}, 1, {1, 2, 5, 8, 9}},        // several lines per tile, k up to n
      {{5, 1000}, 1, {1, 7, 64, 300}},     // one tile per line
      {{2, 20000}, 1, {10, 65}},           // parts merged by a second pass
      {{9000, 3}, 0, {1, 17}},             // a strided axis in parts, three lines side by side
      {{20000, 2}, 0, {5}},                // the same, two lines
      {{2, 4100, 5}, 1, {100, 1000}},      // strided: parts (k 100), one work-group through many tiles (k 1000)
      {{4, 1, 6}, 1, {1}}};                // a one-element axis
  uint32_t seed = 7;
  for (oprig_dtype dtype : kTypes)
    for (const Case& c : cases) check(c, dtype, ++seed, 4);
}

TEST_P(TopKDevice, SortPathGivesTheDefinitionsWinners) {
  // k beyond half of any device's local memory (2048 ranks of 32 KiB), up to the whole axis.
  const std::vector<Case> cases = {{{2, 5000}, 1, {2049, 4999, 5000}}, {{4500, 3}, 0, {2501}}};
  uint32_t seed = 101;
  for (oprig_dtype dtype : kTypes)
    for (const Case& c : cases) check(c, dtype, ++seed, 6);
}

INSTANTIATE_TEST_SUITE_P(Backends, TopKDevice, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
