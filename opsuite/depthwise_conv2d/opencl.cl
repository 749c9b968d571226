// DepthwiseConv2D for the opencl backend: NHWC activations, weights
// [kernel_height, kernel_width, 1, channels * multiplier], optional bias;
// FLOAT_32, or FLOAT_16 stored as half and computed in fp32
// (OPRIG_STORAGE_F16, common/opencl/float_storage.cl). Output channel o reads
// input channel o / multiplier.
//
// Bound by memory, so one pass over it: a work-group owns a tile_h x tile_w
// tile of output pixels of one image and a block of `block` input channels
// (block * multiplier output channels), stages the input patch the tile reads
// ((tile_h - 1) * stride + (kernel_h - 1) * dilation + 1 rows, likewise the
// columns, every channel of the block, zeros for padding) in local memory
// once, channels innermost as NHWC keeps them, so the loads are runs of
// contiguous channels, and computes every output of the tile from there.
// Work-item (lane, row) of the LANES x ROWS work-group takes output channels
// lane, lane + LANES, ... of the block and pixels row, row + ROWS, ... of the
// tile (at most MAX_PIXELS each): for each of its channels it reads each
// weight once and applies it to all its pixels, summing in registers.
// Neighbouring lanes read neighbouring local words and write neighbouring
// output channels.
//
// The host (opencl.cpp) sizes the tile and the block so that the patch fits
// PATCH_FLOATS; when even one pixel of one channel does not (a huge dilated
// window), `staged` is 0 and the taps are read from global memory instead.

#define LANES 32
#define ROWS 4
#define MAX_PIXELS 16  // per work-item: tile_h * tile_w <= ROWS * MAX_PIXELS
#ifndef PATCH_FLOATS
#define PATCH_FLOATS 4096
#endif

kernel __attribute__((reqd_work_group_size(LANES, ROWS, 1))) void depthwise_nhwc(
    global const OPRIG_STORAGE_T* x, global const OPRIG_STORAGE_T* w, global const OPRIG_STORAGE_T* bias,
    global OPRIG_STORAGE_T* y,
    const int has_bias, const int height, const int width, const int channels, const int multiplier,
    const int out_h, const int out_w, const int kernel_h, const int kernel_w, const int stride_h, const int stride_w,
    const int dilation_h, const int dilation_w, const int pad_top, const int pad_left, const int tile_h,
    const int tile_w, const int tiles_x, const int block, const int patch_h, const int patch_w, const int staged) {
  local float patch[PATCH_FLOATS];
  const int lane = get_local_id(0), row = get_local_id(1);
  const int c0 = get_group_id(0) * block;  // first input channel of the block
  const int block_channels = min(block, channels - c0);
  const int oy0 = (get_group_id(1) / tiles_x) * tile_h, ox0 = (get_group_id(1) % tiles_x) * tile_w;
  const int n = get_group_id(2);
  const int iy0 = oy0 * stride_h - pad_top, ix0 = ox0 * stride_w - pad_left;
  const int c_out = channels * multiplier;

  if (staged) {
    for (int at = row; at < patch_h * patch_w; at += ROWS) {
      const int py = at / patch_w, px = at - py * patch_w;
      const int iy = iy0 + py, ix = ix0 + px;
      const bool inside = iy >= 0 && iy < height && ix >= 0 && ix < width;
      const int src = ((n * height + iy) * width + ix) * channels + c0;
      for (int first = 0; first < block; first += LANES) {
        const int c = first + lane;
        if (c < block) patch[at * block + c] = inside && c < block_channels ? OPRIG_STORAGE_LOAD(x, src + c) : 0.0f;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // This work-item's pixels of the tile (row, row + ROWS, ...), as offsets
  // into the patch. Loops over them unroll, so the sums stay in registers.
  const int count = clamp((tile_h * tile_w - row + ROWS - 1) / ROWS, 0, MAX_PIXELS);
  int origin[MAX_PIXELS];
#pragma unroll
  for (int i = 0; i < MAX_PIXELS; ++i) {
    const int q = row + i * ROWS, ty = q / tile_w;
    origin[i] = ty * stride_h * patch_w + (q - ty * tile_w) * stride_w;
  }
  // Every lane runs the same number of passes (a uniform loop vectorises on
  // CPU drivers); lanes past the block's outputs compute and store nothing.
  const int block_outputs = block_channels * multiplier;
  for (int first = 0; first < block_outputs; first += LANES) {
    const bool active = first + lane < block_outputs;
    const int o = active ? first + lane : 0;
    const int c = o / multiplier;
    const int channel_out = c0 * multiplier + o;
    const float b = has_bias ? OPRIG_STORAGE_LOAD(bias, channel_out) : 0.0f;
    float acc[MAX_PIXELS];
#pragma unroll
    for (int i = 0; i < MAX_PIXELS; ++i) acc[i] = b;
    for (int ky = 0; ky < kernel_h; ++ky)
      for (int kx = 0; kx < kernel_w; ++kx) {
        const float wv = OPRIG_STORAGE_LOAD(w, (ky * kernel_w + kx) * c_out + channel_out);
        const int tap = ky * dilation_h * patch_w + kx * dilation_w;
#pragma unroll
        for (int i = 0; i < MAX_PIXELS; ++i) {
          if (i >= count) break;
          if (staged) {
            acc[i] = fma(patch[(origin[i] + tap) * block + c], wv, acc[i]);
            continue;
          }
          const int py = (origin[i] + tap) / patch_w, px = (origin[i] + tap) - py * patch_w;
          const int iy = iy0 + py, ix = ix0 + px;
          if (iy >= 0 && iy < height && ix >= 0 && ix < width)
            acc[i] = fma(OPRIG_STORAGE_LOAD(x, ((n * height + iy) * width + ix) * channels + c0 + c), wv, acc[i]);
        }
      }
    if (!active) continue;
#pragma unroll
    for (int i = 0; i < MAX_PIXELS; ++i) {
      if (i >= count) break;
      const int q = row + i * ROWS;
      const int oy = oy0 + q / tile_w, ox = ox0 + q % tile_w;
      if (oy < out_h && ox < out_w)
        OPRIG_STORAGE_STORE(y, ((n * out_h + oy) * out_w + ox) * c_out + channel_out, acc[i]);
    }
  }
}
