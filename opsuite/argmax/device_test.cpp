// The opencl and vulkan ArgMax kernels through the package ABI, where the
// plan's cases do not reach: every team size from 1 to a whole work-group
// (rows of 1 to 70001 elements), lines split into parts merged by a second
// launch (few long rows, and few long columns of a strided axis), strided
// axes with 1 to 40 lines side by side, all three input types, with ties in
// every line and NaN, -0 and the extremes among them. Each index must be the
// definition's (common/select_test_support.hpp), and a second execute must
// give the same bits. Skipped where the backend is absent.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"
#include "common/select_test_support.hpp"

namespace oprig::harness {
namespace {

using select_test::above;
using select_test::Lines;

// The index of the greatest element of each line (the first or the last
// of equal greatest), in the output's order.
std::vector<int32_t> expected_indices(const std::vector<double>& v, const Lines& l, bool last) {
  std::vector<int32_t> out;
  for (size_t o = 0; o < l.outer; ++o)
    for (size_t i = 0; i < l.inner; ++i) {
      size_t best = 0;
      for (size_t j = 1; j < l.n; ++j) {
        const double a = v[l.at(o, j, i)], b = v[l.at(o, best, i)];
        if (above(a, b) || (last && !above(b, a))) best = j;
      }
      out.push_back(static_cast<int32_t>(best));
    }
  return out;
}

struct Case {
  std::vector<int64_t> shape;
  int axis;
};

class ArgMaxDevice : public op_test::DeviceTest {};

TEST_P(ArgMaxDevice, IndicesAreTheDefinitionsForEveryTeamPartAndLayout) {
  const std::vector<Case> cases = {
      {{5, 1}, 1},         {{3, 7}, 1},          {{37, 1031}, 1},  {{9, 4096}, -1},     {{2, 70001}, 1},
      {{70001}, 0},        {{20000, 5}, 0},      {{3, 500, 40}, 1}, {{2, 9, 2, 70}, 2}, {{4, 3000, 2}, 1},
      {{600, 3, 33}, 0}};
  uint32_t seed = 3;
  for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_INT_32})
    for (const Case& c : cases)
      for (bool last : {false, true}) {
        // Three levels make long runs of ties; specials put NaN (or the extremes) in most lines.
        const select_test::Input in = select_test::make_input(dtype, c.shape, ++seed, 3, true);
        const ParamList params = ParamList().add_int("axis", c.axis).add_bool("keepdims", false).add_bool(
            "select_last_index", last);
        oprig_tensor out{};
        out.dtype = OPRIG_DTYPE_INT_32;
        const std::vector<int32_t> got =
            run_once(backend(), op_test::implementation(backend().kind()), "ArgMax", params, in.tensor, out)
                .as<int32_t>();
        const std::vector<int32_t> again =
            run_once(backend(), op_test::implementation(backend().kind()), "ArgMax", params, in.tensor, out)
                .as<int32_t>();
        std::string where = select_test::dtype_text(dtype) + " axis " + std::to_string(c.axis) +
                            (last ? " last" : " first") + " shape";
        for (int64_t d : c.shape) where += " " + std::to_string(d);
        EXPECT_EQ(got, expected_indices(in.values, Lines(c.shape, c.axis), last)) << where;
        EXPECT_EQ(again, got) << where << ": a second execute differs";
      }
}

INSTANTIATE_TEST_SUITE_P(Backends, ArgMaxDevice, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
