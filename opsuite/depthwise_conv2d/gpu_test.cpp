// The device DepthwiseConv2D kernels (opencl.cl, vulkan.comp) through the
// package ABI, where the plan's small cases cannot reach: many tiles and
// channel blocks with tails, multipliers that leave lanes idle or need more
// than one pass of the lanes, a window too large for the staged patch (the
// taps then come from global memory), and FLOAT_16 words shared by two
// work-items (vulkan's channel pairs with an odd number of output channels).
// Expected values come from the int64 oracle on small integers
// (depthwise_test_support.hpp), exact in fp32 and fp16 in any order of
// summation. Each test skips where its backend is absent.
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

TEST_P(DepthwiseConv2DGpu, ExactOnSmallIntegersAcrossTilesBlocksAndPaths) {
  std::vector<Case> cases;
  // 2 images of 20x23 (tiles with tails), 70 channels x 2: blocks of 16 with a tail.
  cases.push_back({{2, 20, 23, 70}, {3, 3, 1, 140}, padded(1), true});
  // Multiplier 40: one channel per block, more outputs than lanes.
  cases.push_back({{1, 9, 9, 2}, {3, 3, 1, 80}, padded(1), false});
  // Strides, dilations, asymmetric pads, multiplier 3.
  Case strided{{2, 17, 19, 6}, {3, 2, 1, 18}, {}, true};
  strided.window.stride_h = 2;
  strided.window.stride_w = 3;
  strided.window.dilation_h = 2;
  strided.window.top = 2;
  strided.window.right = 3;
  cases.push_back(strided);
  // Dilation 40: an 81x81 window, more than the staged patch holds.
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
  // pixel straddle two words; 16: every pair is one word.
  for (const Case& c : {Case{{2, 6, 7, 5}, {2, 2, 1, 15}, padded(1), true},
                        Case{{2, 6, 7, 8}, {2, 2, 1, 16}, padded(1), true}}) {
    const std::vector<float> x = values(count(c.in), 4, true), w = values(count(c.w), 5, true);
    const std::vector<float> b = values(static_cast<size_t>(c.w[3]), 6, true);
    const HostTensor y = run_once(backend(), c.window, {f16(c.in, x), f16(c.w, w), f16({c.w[3]}, b)});
    EXPECT_EQ(floats_of_f16(y), oracle(c, x, w, b)) << GetParam() << " output channels " << c.w[3];  // |sums| <= 39: exact
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
