// The work-items of NHWC device kernels that give each one run of one output
// pixel's channels (Pool2D and Resize on opencl and vulkan): a grid of (the
// work-items of an output row, out_height, batch), so that a kernel finds its
// row and image without a division (CPU drivers cannot vectorise one) and its
// column and channel run from one division, a shift where the runs per pixel
// are a power of two. opencl_pixel_grid.hpp and vulkan_pixel_grid.hpp launch
// it; common/opencl/pixel_grid.cl and common/glsl/pixel_grid.glsl decode it.
#pragma once

#include <bit>
#include <cstdint>

namespace oprig::opsuite {

struct PixelGrid {
  uint32_t groups = 0;        // work-items per output pixel: runs of its channels
  uint32_t group_shift = 32;  // log2(groups) where that is a power of two, else 32
  uint32_t row_items = 0;     // work-items per output row: out_width * groups
  uint32_t rows = 0;          // out_height
  uint32_t images = 0;        // batch
  bool empty() const { return row_items == 0 || rows == 0 || images == 0; }
};

// The widest run of at most 16 bytes (a vector load) that divides a pixel's
// `pixel_bytes` of channels, at least one element.
inline uint64_t widest_run(uint64_t pixel_bytes, uint64_t element_bytes) {
  uint64_t bytes = 16;
  while (bytes > element_bytes && pixel_bytes % bytes != 0) bytes /= 2;
  return bytes;
}

// `pixel_bytes` of channels per output pixel in runs of `run_bytes` (which
// divides it). The caller checks that every count fits 32 bits.
inline PixelGrid pixel_grid(uint64_t pixel_bytes, uint64_t run_bytes, int64_t out_height, int64_t out_width,
                            int64_t batch) {
  PixelGrid g;
  const uint64_t groups = pixel_bytes / run_bytes;
  g.groups = static_cast<uint32_t>(groups);
  g.group_shift = std::has_single_bit(groups) ? static_cast<uint32_t>(std::countr_zero(groups)) : 32;
  g.row_items = static_cast<uint32_t>(groups * static_cast<uint64_t>(out_width));
  g.rows = static_cast<uint32_t>(out_height);
  g.images = static_cast<uint32_t>(batch);
  return g;
}

}  // namespace oprig::opsuite
