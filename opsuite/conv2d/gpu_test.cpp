// The device Conv2D kernels (opencl.cl, vulkan.comp; NCHW) through the
// package ABI, where the plan's small cases cannot reach: shapes that cross
// many tiles in pixels, channels and k with tails in each, every tile the
// hosts choose (on opencl both tile sets: OPRIG_CONV2D_TILES runs the GPU
// tiles on PoCL too), pixel tiles spanning images, a cursor over k that
// wraps every row (one input channel per group), and FLOAT_16 words shared
// by two work-items (vulkan's pairs across odd planes and image ends).
// Expected values come from the int64 oracle on small integers
// (conv_test_support.hpp), exact in fp32 and fp16 in any order of summation.
// Each test skips where its backend is absent.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"
#include "conv2d/conv_test_support.hpp"

namespace oprig::harness {
namespace {

using conv2d_test::Case;
using conv2d_test::Conv;
using conv2d_test::count;
using conv2d_test::f32;
using conv2d_test::oracle;
using conv2d_test::run_once;
using conv2d_test::values;
using op_test::f16;
using op_test::floats_of_f16;

// OPRIG_CONV2D_TILES while one kernel is made (nullptr: the host's choice).
struct ForcedTiles {
  explicit ForcedTiles(const char* tiles) {
    if (tiles != nullptr) setenv("OPRIG_CONV2D_TILES", tiles, 1);
  }
  ~ForcedTiles() { unsetenv("OPRIG_CONV2D_TILES"); }
  ForcedTiles(const ForcedTiles&) = delete;
  ForcedTiles& operator=(const ForcedTiles&) = delete;
};

class Conv2DGpu : public op_test::DeviceTest {
 protected:
  // The tile sets to run: opencl's chosen one and, forced, each of its two.
  std::vector<const char*> tile_sets() {
    if (backend().kind() == OPRIG_BACKEND_OPENCL) return {nullptr, "gpu", "cpu"};
    return {nullptr};
  }
  HostTensor run(const char* tiles, const Conv& conv, std::vector<HostTensor> inputs,
                 std::vector<int64_t>* shape = nullptr) {
    const ForcedTiles forced(tiles);
    return run_once(backend(), conv, std::move(inputs), shape);
  }
};

Case nchw(std::vector<int64_t> in, std::vector<int64_t> w, bool bias) {
  Case c{std::move(in), std::move(w), {}, bias};
  c.nchw = true;
  return c;
}

TEST_P(Conv2DGpu, ExactOnSmallIntegersAcrossTilesAndTails) {
  std::vector<Case> cases;
  // 286 pixels over two images, 70 channels, k = 360: tails in all three.
  Case tiles = nchw({2, 40, 11, 13}, {3, 3, 40, 70}, true);
  tiles.conv.top = tiles.conv.bottom = tiles.conv.left = tiles.conv.right = 1;
  cases.push_back(tiles);
  // Groups of 6 output channels (the narrow tile), strides, dilations, asymmetric pads.
  Case grouped = nchw({1, 12, 9, 7}, {3, 2, 4, 18}, false);
  grouped.conv.group = 3;
  grouped.conv.stride_h = 2;
  grouped.conv.dilation_w = 2;
  grouped.conv.top = 2;
  grouped.conv.right = 3;
  cases.push_back(grouped);
  // One input channel per group: the cursor wraps at every row.
  Case depthwise = nchw({2, 6, 5, 5}, {3, 3, 1, 12}, true);
  depthwise.conv.group = 6;
  depthwise.conv.top = depthwise.conv.bottom = depthwise.conv.left = depthwise.conv.right = 1;
  cases.push_back(depthwise);
  // A 1x1 convolution with more channels than one tile.
  cases.push_back(nchw({1, 64, 8, 8}, {1, 1, 64, 96}, true));
  // 9216 pixels: enough tiles for vulkan's wide tile (128 workgroups and more).
  Case wide = nchw({1, 8, 96, 96}, {3, 3, 8, 24}, true);
  wide.conv.top = wide.conv.bottom = wide.conv.left = wide.conv.right = 1;
  cases.push_back(wide);
  for (const Case& c : cases) {
    const std::vector<float> x = values(count(c.in), 1, true), w = values(count(c.w), 2, true);
    const std::vector<float> b = values(static_cast<size_t>(c.w[3]), 3, true);
    const std::vector<float> expected = oracle(c, x, w, b);
    std::vector<HostTensor> inputs = {f32(c.in, x), f32(c.w, w)};
    if (c.bias) inputs.push_back(f32({c.w[3]}, b));
    for (const char* tiles : tile_sets())
      EXPECT_EQ(run(tiles, c.conv, inputs).as<float>(), expected)
          << GetParam() << " tiles " << (tiles ? tiles : "chosen") << " input " << c.in[0] << "x" << c.in[1] << "x"
          << c.in[2] << "x" << c.in[3];
  }
}

TEST_P(Conv2DGpu, HalfPrecisionWordsSharedAcrossPlanesAndImages) {
  // 35 pixels a plane (odd) over 3 images: on vulkan half of the fp16 pairs
  // straddle two words or two images; 36 a plane: every pair is one word.
  for (const std::vector<int64_t>& in : {std::vector<int64_t>{3, 5, 7, 5}, std::vector<int64_t>{2, 5, 6, 6}}) {
    Case c = nchw(in, {3, 3, 5, 6}, true);
    c.conv.top = c.conv.bottom = c.conv.left = c.conv.right = 1;
    const std::vector<float> x = values(count(c.in), 4, true), w = values(count(c.w), 5, true);
    const std::vector<float> b = values(6, 6, true);
    const std::vector<float> expected = oracle(c, x, w, b);  // |sums| <= 408: exact in fp16
    const std::vector<HostTensor> inputs = {f16(c.in, x), f16(c.w, w), f16({6}, b)};
    for (const char* tiles : tile_sets())
      EXPECT_EQ(floats_of_f16(run(tiles, c.conv, inputs)), expected)
          << GetParam() << " tiles " << (tiles ? tiles : "chosen") << " images " << in[0];
  }
}

TEST_P(Conv2DGpu, EmptyBatchGivesAnEmptyOutput) {
  Conv conv;
  conv.top = conv.bottom = conv.left = conv.right = 1;
  std::vector<int64_t> shape;
  EXPECT_TRUE(run(nullptr, conv, {f32({0, 3, 5, 5}, {}), f32({3, 3, 3, 4}, values(108, 7, true))}, &shape)
                  .as<float>()
                  .empty());
  EXPECT_EQ(shape, (std::vector<int64_t>{0, 4, 5, 5}));
}

INSTANTIATE_TEST_SUITE_P(Backends, Conv2DGpu, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
