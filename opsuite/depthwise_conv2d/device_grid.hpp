// How the device kernels (opencl.cl, vulkan.comp) split the work, the same
// way for both backends: one pass over memory in which each work-item takes
// a vector of `vec` neighbouring output channels (4: one 128-bit load of
// fp32 per input pixel) of kRows output rows of one output column, reads
// each tap's input straight from global memory and each tap's weights once
// for its rows. Neighbouring work-items take neighbouring channel vectors of
// a pixel (up to a warp's 32), then neighbouring columns, so a warp's loads
// are contiguous runs of an input row, and the rows and columns the taps of
// neighbours share come from L1/L2. No local memory and no barrier: nothing
// stands between a load and the next, so a GPU keeps many in flight, which
// a bandwidth-bound op needs.
//
// It replaced work-groups that staged a tile's input patch in 16 KiB of
// local memory, which reached 0.46 TB/s on an H100 and also ran 6 to 17
// times slower on PoCL and lavapipe (the bench shapes, same run).
#pragma once

#include <algorithm>
#include <cstdint>

#include "depthwise_conv2d/depthwise_geometry.hpp"

namespace oprig::opsuite::depthwise {

constexpr int64_t kRows = 4;       // output rows per work-item (the kernels' literal)
constexpr int64_t kThreads = 256;  // work-items per work-group, at most

struct DeviceGrid {
  int64_t vec = 1;                   // output channels per work-item
  int64_t vectors = 1;               // work-items along the channels: ceil(c_out / vec)
  int64_t columns = 1;               // work-items along the pixels: out_w x strips of kRows rows
  int64_t local_x = 1, local_y = 1;  // the work-group: channel vectors x columns
};

// Output channels per work-item: 4 as one vector where the channels line up
// (multiplier 1 and a multiple of 4 channels: every pixel's channels start
// on a 4-element boundary), else 2 where `pairs` (vulkan's FLOAT_16: two
// channels to a 32-bit word), else 1.
inline int64_t channels_per_item(const Geometry& g, bool pairs) {
  if (g.multiplier() == 1 && g.channels % 4 == 0) return 4;
  return pairs ? 2 : 1;
}

// max_threads: the work-group limit of the device (and kernel).
inline DeviceGrid plan_device_grid(const Geometry& g, bool pairs, int64_t max_threads) {
  DeviceGrid d;
  d.vec = channels_per_item(g, pairs);
  d.vectors = (g.c_out + d.vec - 1) / d.vec;
  d.columns = g.out_w * ((g.out_h + kRows - 1) / kRows);
  const int64_t threads = std::clamp<int64_t>(max_threads, 1, kThreads);
  while (d.local_x < 32 && d.local_x < d.vectors && 2 * d.local_x <= threads) d.local_x *= 2;
  d.local_y = std::max<int64_t>(1, threads / d.local_x);
  return d;
}

}  // namespace oprig::opsuite::depthwise
