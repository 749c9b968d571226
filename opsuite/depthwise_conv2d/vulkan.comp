#version 450
#extension GL_EXT_control_flow_attributes : require
// DepthwiseConv2D, vulkan: NHWC activations, weights [kernel_height,
// kernel_width, 1, channels * multiplier], optional bias; FLOAT_32, or
// FLOAT_16 (spec constant kHalf) packed two to a 32-bit word (no 16-bit
// storage feature), widened exactly, summed in fp32 and rounded once at the
// end as the host rounds (fp16_bits.glsl). Output channel o reads input
// channel o / multiplier. A driver that flushes fp32 denormals (lavapipe)
// moves a sum by under 2^-126 per term, far inside the plan's absolute
// bound, so plain fp32 arithmetic serves.
//
// opencl.cl's one pass over memory: a workgroup owns a tile of output pixels
// of one image and a block of input channels, stages the input patch the
// tile reads (channels innermost, zeros for padding) in shared memory once
// and computes the tile's outputs from there; invocation (lane, row) of the
// 32 x 4 workgroup takes output channels of the block by lane and pixels of
// the tile by row (at most 16), reading each weight once for all its pixels.
// device_tile.hpp sizes tile and block so that the patch fits; where one
// pixel of one channel does not, `staged` is 0 and taps come from global
// memory.
//
// FLOAT_16: a lane takes two neighbouring output channels, so that it writes
// whole 32-bit words where the pair is aligned (output channels even in
// number, as they mostly are); an unaligned element goes in with
// atomicAnd/atomicOr on its own half, so no word is torn.

layout(local_size_x = 32, local_size_y = 4) in;
layout(constant_id = 1) const bool kHalf = false;
const uint kLanes = 32, kRows = 4, kMaxPixels = 16, kPatchFloats = 4096;
const uint kPerLane = kHalf ? 2 : 1;  // output channels a lane takes at a time

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { uint w_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 3) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint has_bias, height, width, channels, multiplier, out_h, out_w, kernel_h, kernel_w;
  uint stride_h, stride_w, dilation_h, dilation_w;
  int pad_top, pad_left;
  uint tile_h, tile_w, tiles_x, block, patch_h, patch_w, staged;
} p;

#include "fp16_bits.glsl"

shared float tile_x[kPatchFloats];

float load_x(uint i) { return kHalf ? OPRIG_LOAD_F16(x_words, i) : uintBitsToFloat(x_words[i]); }
float load_w(uint i) { return kHalf ? OPRIG_LOAD_F16(w_words, i) : uintBitsToFloat(w_words[i]); }
float load_b(uint i) { return kHalf ? OPRIG_LOAD_F16(b_words, i) : uintBitsToFloat(b_words[i]); }

void store_half_shared(uint e, float v) {
  uint shift = 16u * (e & 1u);
  atomicAnd(y_words[e >> 1], ~(0xffffu << shift));
  atomicOr(y_words[e >> 1], float_to_half(v) << shift);
}

void main() {
  const uint lane = gl_LocalInvocationID.x, row = gl_LocalInvocationID.y;
  const uint c0 = gl_WorkGroupID.x * p.block;  // first input channel of the block
  const uint block_channels = min(p.block, p.channels - c0);
  const uint oy0 = (gl_WorkGroupID.y / p.tiles_x) * p.tile_h, ox0 = (gl_WorkGroupID.y % p.tiles_x) * p.tile_w;
  const uint n = gl_WorkGroupID.z;
  const int iy0 = int(oy0 * p.stride_h) - p.pad_top, ix0 = int(ox0 * p.stride_w) - p.pad_left;
  const uint c_out = p.channels * p.multiplier;

  if (p.staged != 0u) {
    for (uint at = row; at < p.patch_h * p.patch_w; at += kRows) {
      uint py = at / p.patch_w, px = at % p.patch_w;
      int iy = iy0 + int(py), ix = ix0 + int(px);
      bool inside = iy >= 0 && iy < int(p.height) && ix >= 0 && ix < int(p.width);
      uint src = inside ? ((n * p.height + uint(iy)) * p.width + uint(ix)) * p.channels + c0 : 0u;
      for (uint c = lane; c < p.block; c += kLanes)
        tile_x[at * p.block + c] = inside && c < block_channels ? load_x(src + c) : 0.0;
    }
  }
  barrier();  // uniform: every invocation reaches it, staged or not

  // This invocation's pixels of the tile (row, row + kRows, ...), as offsets
  // into the patch. Every loop over them unrolls, so the sums stay in
  // registers (an array indexed at run time lives in memory on lavapipe).
  const uint tile_pixels = p.tile_h * p.tile_w;
  const uint count = row < tile_pixels ? min(kMaxPixels, (tile_pixels - row + kRows - 1u) / kRows) : 0u;
  uint origin[kMaxPixels];
  [[unroll]] for (uint i = 0u; i < kMaxPixels; ++i) {
    uint q = row + i * kRows;
    origin[i] = (q / p.tile_w) * p.stride_h * p.patch_w + (q % p.tile_w) * p.stride_w;
  }

  const uint block_outputs = block_channels * p.multiplier;
  for (uint pass = 0u; pass * kLanes * kPerLane < block_outputs; ++pass) {
    const uint first = (pass * kLanes + lane) * kPerLane;
    float acc[kMaxPixels * kPerLane];
    [[unroll]] for (uint s = 0u; s < kPerLane; ++s) {
      uint o = min(first + s, block_outputs - 1u);  // lanes past the end compute a copy, store nothing
      uint c = o / p.multiplier, channel_out = c0 * p.multiplier + o;
      float b = p.has_bias != 0u ? load_b(channel_out) : 0.0;
      [[unroll]] for (uint i = 0u; i < kMaxPixels; ++i) acc[s * kMaxPixels + i] = b;
      for (uint ky = 0u; ky < p.kernel_h; ++ky)
        for (uint kx = 0u; kx < p.kernel_w; ++kx) {
          float wv = load_w((ky * p.kernel_w + kx) * c_out + channel_out);
          uint tap = ky * p.dilation_h * p.patch_w + kx * p.dilation_w;
          [[unroll]] for (uint i = 0u; i < kMaxPixels; ++i) {
            if (i >= count) continue;
            if (p.staged != 0u) {
              acc[s * kMaxPixels + i] += tile_x[(origin[i] + tap) * p.block + c] * wv;
              continue;
            }
            uint py = (origin[i] + tap) / p.patch_w, px = (origin[i] + tap) % p.patch_w;
            int iy = iy0 + int(py), ix = ix0 + int(px);
            if (iy >= 0 && iy < int(p.height) && ix >= 0 && ix < int(p.width)) {
              uint at = ((n * p.height + uint(iy)) * p.width + uint(ix)) * p.channels + c0 + c;
              acc[s * kMaxPixels + i] += load_x(at) * wv;
            }
          }
        }
    }
    if (first >= block_outputs) continue;
    [[unroll]] for (uint i = 0u; i < kMaxPixels; ++i) {
      uint q = row + i * kRows;
      uint oy = oy0 + q / p.tile_w, ox = ox0 + q % p.tile_w;
      if (i >= count || oy >= p.out_h || ox >= p.out_w) continue;
      uint e = ((n * p.out_h + oy) * p.out_w + ox) * c_out + c0 * p.multiplier + first;
      if (!kHalf) {
        y_words[e] = floatBitsToUint(acc[i]);
        continue;
      }
      bool pair = first + 1u < block_outputs;
      if (pair && (e & 1u) == 0u) {
        y_words[e >> 1] = float_to_half(acc[i]) | (float_to_half(acc[kMaxPixels + i]) << 16);
      } else {
        store_half_shared(e, acc[i]);
        if (pair) store_half_shared(e + 1u, acc[kMaxPixels + i]);
      }
    }
  }
}
