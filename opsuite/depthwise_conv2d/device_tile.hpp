// The work-group tile of the device kernels (opencl.cl, vulkan.comp), chosen
// the same way for both: 32 lanes x 4 rows of work-items, a tile of output
// pixels of one image (at most 64: 16 per work-item) and a block of input
// channels whose outputs the lanes cover, and the input patch the tile reads,
// which must fit the local memory set aside for it (kPatchFloats). Rows are
// preferred wide (NHWC rows are contiguous); the tile shrinks, then the block,
// until the patch fits; when one pixel of one channel still does not fit (a
// huge dilated window) the kernels read the taps from global memory instead.
#pragma once

#include <algorithm>
#include <cstdint>

#include "depthwise_conv2d/depthwise_geometry.hpp"

namespace oprig::opsuite::depthwise {

constexpr int64_t kLanes = 32, kRows = 4, kMaxPixelsPerItem = 16;
constexpr int64_t kPatchFloats = 4096;  // 16 KiB: the least shared memory Vulkan guarantees

struct DeviceTile {
  int64_t tile_h = 1, tile_w = 1, block = 1;  // output pixels; input channels
  int64_t patch_h = 1, patch_w = 1;
  bool staged = true;
  int64_t tiles_x = 1, tiles = 1, blocks = 1;  // work-groups along the width, per image, along the channels
};

// outputs_per_lane: output channels one lane takes at a time (2 where fp16
// pairs share a 32-bit word).
inline DeviceTile plan_device_tile(const Geometry& g, const Params& p, int64_t outputs_per_lane) {
  DeviceTile t;
  t.tile_h = std::clamp<int64_t>(g.out_h, 1, 8);
  t.tile_w = std::clamp<int64_t>(g.out_w, 1, kRows * kMaxPixelsPerItem / t.tile_h);
  t.block = std::clamp<int64_t>(kLanes * outputs_per_lane / g.multiplier(), 1, g.channels);
  auto fit = [&] {
    t.patch_h = (t.tile_h - 1) * p.stride[0] + (g.kh - 1) * p.dilation[0] + 1;
    t.patch_w = (t.tile_w - 1) * p.stride[1] + (g.kw - 1) * p.dilation[1] + 1;
    return t.patch_h * t.patch_w * t.block <= kPatchFloats;
  };
  while (!fit()) {
    if (t.tile_w >= t.tile_h && t.tile_w > 1) t.tile_w = (t.tile_w + 1) / 2;
    else if (t.tile_h > 1) t.tile_h = (t.tile_h + 1) / 2;
    else if (t.block > 1) t.block = (t.block + 1) / 2;
    else {
      t.staged = false;
      break;
    }
  }
  t.tiles_x = (g.out_w + t.tile_w - 1) / t.tile_w;
  t.tiles = t.tiles_x * ((g.out_h + t.tile_h - 1) / t.tile_h);
  t.blocks = (g.channels + t.block - 1) / t.block;
  return t;
}

}  // namespace oprig::opsuite::depthwise
