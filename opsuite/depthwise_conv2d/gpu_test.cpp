// The device DepthwiseConv2D kernels (opencl.cl, vulkan.comp) through the
// package ABI, where the plan's small cases cannot reach: both ways a
// work-item takes its channels (a vector of 4 where the channels line up,
// else one, or vulkan's FLOAT_16 pairs) with tails of channel vectors and of
// columns, output heights that end inside a work-item's four rows,
// multipliers, strides, dilations and a huge dilated window, and FLOAT_16
// words shared by two work-items (vulkan's channel pairs with an odd number
// of output channels). Expected values come from the int64 oracle on small
// integers (depthwise_test_support.hpp), exact in fp32 and fp16 in any order
// of summation. Each test skips where its backend is absent.
#include <gtest/gtest.h>

#include <vector>

#include "common/op_test_support.hpp"
#include "depthwise_conv2d/depthwise_test_support.hpp"

namespace oprig::harness {
namespace {

using depthwise_test::Case;
using depthwise_test::count;
using depthwise_test::f32;
using depthwise_test::oracle;
using depthwise_test::run_once;
using depthwise_test::values;
using depthwise_test::Window;
using op_test::f16;
using op_test::floats_of_f16;

class DepthwiseConv2DGpu : public op_test::DeviceTest {};

Window padded(int64_t pad) {
  Window w;
  w.top = w.bottom = w.left = w.right = pad;
  return w;
}

TEST_P(DepthwiseConv2DGpu, ExactOnSmallIntegersAcrossVectorsTailsAndWindows) {
  std::vector<Case> cases;
  // Channel vectors: 36 channels (9 vectors of 4, a tail of the work-group's
  // lanes), 13 output rows (the last work-item's rows 1 of 4).
  cases.push_back({{2, 13, 11, 36}, {3, 3, 1, 36}, padded(1), true});
  // Channel vectors with a 5x3 window, stride 2 x 1, asymmetric pads, no bias.
  Case vectors{{1, 17, 9, 8}, {5, 3, 1, 8}, {}, false};
  vectors.window.stride_h = 2;
  vectors.window.top = 2;
  vectors.window.bottom = 1;
  vectors.window.left = 1;
  cases.push_back(vectors);
  // 2 images of 20x23, 70 channels x 2: one channel per work-item.
  cases.push_back({{2, 20, 23, 70}, {3, 3, 1, 140}, padded(1), true});
  // Multiplier 40: more outputs per pixel than a work-group has lanes.
  cases.push_back({{1, 9, 9, 2}, {3, 3, 1, 80}, padded(1), false});
  // Strides, dilations, asymmetric pads, multiplier 3.
  Case strided{{2, 17, 19, 6}, {3, 2, 1, 18}, {}, true};
  strided.window.stride_h = 2;
  strided.window.stride_w = 3;
  strided.window.dilation_h = 2;
  strided.window.top = 2;
  strided.window.right = 3;
  cases.push_back(strided);
  // Dilation 40: an 81x81 window, most taps in the padding.
  Case huge{{1, 90, 92, 40}, {3, 3, 1, 40}, {}, true};
  huge.window.dilation_h = huge.window.dilation_w = 40;
  cases.push_back(huge);
  for (const Case& c : cases) {
    const std::vector<float> x = values(count(c.in), 1, true), w = values(count(c.w), 2, true);
    const std::vector<float> b = values(static_cast<size_t>(c.w[3]), 3, true);
    std::vector<HostTensor> inputs = {f32(c.in, x), f32(c.w, w)};
    if (c.bias) inputs.push_back(f32({c.w[3]}, b));
    EXPECT_EQ(run_once(backend(), c.window, inputs).as<float>(), oracle(c, x, w, b))
        << GetParam() << " input " << c.in[0] << "x" << c.in[1] << "x" << c.in[2] << "x" << c.in[3] << " -> "
        << c.w[3];
  }
}

TEST_P(DepthwiseConv2DGpu, HalfPrecisionWordsSharedByNeighbours) {
  // 15 output channels (odd): on vulkan the channel pairs of every other
  // pixel straddle two words; 16: every pair is one word; 7 channels at
  // multiplier 1: pairs again, straddling; 12: vectors of 4 halves.
  for (const Case& c : {Case{{2, 6, 7, 5}, {2, 2, 1, 15}, padded(1), true},
                        Case{{2, 6, 7, 8}, {2, 2, 1, 16}, padded(1), true},
                        Case{{1, 9, 5, 7}, {3, 3, 1, 7}, padded(1), true},
                        Case{{2, 7, 6, 12}, {3, 3, 1, 12}, padded(1), true}}) {
    const std::vector<float> x = values(count(c.in), 4, true), w = values(count(c.w), 5, true);
    const std::vector<float> b = values(static_cast<size_t>(c.w[3]), 6, true);
    const HostTensor y = run_once(backend(), c.window, {f16(c.in, x), f16(c.w, w), f16({c.w[3]}, b)});
    EXPECT_EQ(floats_of_f16(y), oracle(c, x, w, b)) << GetParam() << " output channels " << c.w[3];  // |sums| <= 84: exact
  }
}

TEST_P(DepthwiseConv2DGpu, EmptyBatchGivesAnEmptyOutput) {
  std::vector<int64_t> shape;
  EXPECT_TRUE(run_once(backend(), padded(1), {f32({0, 4, 4, 8}, {}), f32({3, 3, 1, 8}, values(72, 7, true))}, &shape)
                  .as<float>()
                  .empty());
  EXPECT_EQ(shape, (std::vector<int64_t>{0, 4, 4, 8}));
}

INSTANTIATE_TEST_SUITE_P(Backends, DepthwiseConv2DGpu, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
