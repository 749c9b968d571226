#version 450
#extension GL_EXT_control_flow_attributes : require
// Conv2D, vulkan: NCHW activations (the spec's GPU layout), weights
// [kernel_height, kernel_width, channel_in / group, channel_out], optional
// bias; FLOAT_32, or FLOAT_16 (spec constant kHalf) packed two to a 32-bit
// word (no 16-bit storage feature), widened exactly, summed in fp32 and
// rounded once at the end as the host rounds (fp16_bits.glsl). A driver that
// flushes fp32 denormals (lavapipe) moves a sum by under 2^-126 per term,
// far inside the plan's absolute bound, so plain fp32 arithmetic serves.
//
// The implicit GEMM of opencl.cl: for group g, out[co, p] = sum over k of
// w[k, co] * patch[k, p], p over the output pixels of every image, k over
// the window in the weights' order (ky, kx, ci). A workgroup owns a kTileC x
// kTileP output tile and walks k in steps of kTileK, staging the weights and
// the gathered patch (zeros for padding) of each step in shared memory,
// double-buffered: the next step is staged while this one is summed, one
// barrier per step. Each invocation keeps kWorkC x 4 sums in registers:
// pixels lx * 4 ... lx * 4 + 3, channels ly * kWorkC ... + kWorkC - 1, read
// as one vec4 of pixels and vec4s of channels per k. The patch rows an
// invocation gathers advance by a fixed stride, so it walks (ci, kx, ky)
// with a cursor instead of dividing per element. Tile sizes are
// specialisation constants chosen by vulkan.cpp (local size kTileP / 4 x
// kTileC / kWorkC, constants 5 and 6, a multiple of kTileP). Every loop over
// the sums unrolls: an array indexed at run time would live in memory on
// some drivers.
//
// FLOAT_16 output: an invocation owns neighbouring pixel pairs; where a pair
// fills one 32-bit word of the output (its first element even, both in the
// same image) it writes the word, otherwise each element goes in with
// atomicAnd/atomicOr on its own half, so words two invocations share are
// never torn (the other half is left as it is).

layout(local_size_x_id = 5, local_size_y_id = 6) in;
layout(constant_id = 1) const bool kHalf = false;
layout(constant_id = 2) const uint kTileP = 64;
layout(constant_id = 3) const uint kTileC = 64;
layout(constant_id = 4) const uint kWorkC = 8;  // a multiple of 4
const uint kTileK = 16;

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { uint w_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 3) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint has_bias, pixels, out_hw, out_w, height, width, c_in, group_in, c_out, group_out, kernel_w, depth;
  uint stride_h, stride_w, dilation_h, dilation_w;
  int pad_top, pad_left;
} p;

#include "fp16_bits.glsl"

// Two buffers of both tiles, in vec4s (lavapipe makes every shared load a
// loop over its lanes; GPUs make a vec4 one 128-bit load).
shared vec4 tile_x[2 * kTileK * kTileP / 4];
shared vec4 tile_w[2 * kTileK * kTileC / 4];

float load_x(uint i) { return kHalf ? OPRIG_LOAD_F16(x_words, i) : uintBitsToFloat(x_words[i]); }
float load_w(uint i) { return kHalf ? OPRIG_LOAD_F16(w_words, i) : uintBitsToFloat(w_words[i]); }
float load_b(uint i) { return kHalf ? OPRIG_LOAD_F16(b_words, i) : uintBitsToFloat(b_words[i]); }

// One fp16 element into its half of a word that another invocation may be writing too.
void store_half_shared(uint e, float v) {
  uint shift = 16u * (e & 1u);
  atomicAnd(y_words[e >> 1], ~(0xffffu << shift));
  atomicOr(y_words[e >> 1], float_to_half(v) << shift);
}

// Output pixels q and q + 1 of one channel: one word where they fill one,
// else element by element.
void store_pair(uint q, uint channel, float v0, float v1) {
  if (q >= p.pixels) return;
  uint image = q / p.out_hw, at = q % p.out_hw;
  uint e = (image * p.c_out + channel) * p.out_hw + at;
  bool second = q + 1u < p.pixels;
  // The second pixel may start the next image: its own element index.
  uint e1 = at + 1u < p.out_hw ? e + 1u : ((image + 1u) * p.c_out + channel) * p.out_hw;
  if (!kHalf) {
    y_words[e] = floatBitsToUint(v0);
    if (second) y_words[e1] = floatBitsToUint(v1);
  } else if (second && e1 == e + 1u && (e & 1u) == 0u) {
    y_words[e >> 1] = float_to_half(v0) | (float_to_half(v1) << 16);
  } else {
    store_half_shared(e, v0);
    if (second) store_half_shared(e1, v1);
  }
}

// The invocation's place in k: the patch row it gathers next and that row's
// (ci, kx, ky), advanced by the fixed stride of its rows.
struct Cursor {
  uint k, ci, kx, ky;
};

void advance(inout Cursor c, uint by) {
  c.k += by;
  c.ci += by;
  while (c.ci >= p.group_in) {
    c.ci -= p.group_in;
    if (++c.kx == p.kernel_w) {
      c.kx = 0u;
      ++c.ky;
    }
  }
}

void main() {
  const uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  const uint threads = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
  const uint lid = ly * gl_WorkGroupSize.x + lx;
  const uint p0 = gl_WorkGroupID.x * kTileP;
  const uint c0 = gl_WorkGroupID.y * kTileC;  // output channel within the group
  const uint g = gl_WorkGroupID.z;
  const uint in_hw = p.height * p.width;
  const uint w_base = g * p.group_out + c0;
  // The patch column this invocation stages, its rows first_row + j *
  // row_stride, and where its window starts in the image.
  const uint col = lid % kTileP, first_row = lid / kTileP, row_stride = threads / kTileP;
  const uint px = p0 + col;
  const bool col_valid = px < p.pixels;
  const uint n = col_valid ? px / p.out_hw : 0u, r = col_valid ? px % p.out_hw : 0u;
  const int iy0 = int((r / p.out_w) * p.stride_h) - p.pad_top;
  const int ix0 = int((r % p.out_w) * p.stride_w) - p.pad_left;
  const int x_base = int((n * p.c_in + g * p.group_in) * in_hw) + iy0 * int(p.width) + ix0;
  const uint first_tap = first_row / p.group_in;
  Cursor cursor = Cursor(first_row, first_row % p.group_in, first_tap % p.kernel_w, first_tap / p.kernel_w);

  vec4 acc[kWorkC];  // acc[j]: channel ly * kWorkC + j at the 4 pixels
  [[unroll]] for (uint j = 0u; j < kWorkC; ++j) acc[j] = vec4(0.0);

  const uint steps = (p.depth + kTileK - 1u) / kTileK;
  for (uint step = 0u; step <= steps; ++step) {
    if (step < steps) {  // stage step `step` into buffer step & 1
      const uint k0 = step * kTileK, buf = step & 1u;
      for (uint row = first_row; row < kTileK; row += row_stride) {
        int iy = iy0 + int(cursor.ky * p.dilation_h), ix = ix0 + int(cursor.kx * p.dilation_w);
        bool inside = col_valid && cursor.k < p.depth && iy >= 0 && iy < int(p.height) && ix >= 0 && ix < int(p.width);
        uint at = (buf * kTileK + row) * kTileP + col;
        uint offset = cursor.ci * in_hw + cursor.ky * p.dilation_h * p.width + cursor.kx * p.dilation_w;
        tile_x[at >> 2][at & 3u] = inside ? load_x(uint(x_base + int(offset))) : 0.0;
        advance(cursor, row_stride);
      }
      for (uint e = lid; e < kTileK * kTileC; e += threads) {
        uint w_row = e / kTileC, w_col = e % kTileC;
        bool inside = c0 + w_col < p.group_out && k0 + w_row < p.depth;
        uint at = buf * kTileK * kTileC + e;
        tile_w[at >> 2][at & 3u] = inside ? load_w((k0 + w_row) * p.c_out + w_base + w_col) : 0.0;
      }
    }
    if (step > 0u) {  // sum step - 1 from the other buffer
      const uint buf = (step - 1u) & 1u;
      [[unroll]] for (uint kk = 0u; kk < kTileK; ++kk) {
        vec4 b = tile_x[((buf * kTileK + kk) * kTileP) / 4u + lx];
        [[unroll]] for (uint j = 0u; j < kWorkC; j += 4u) {
          vec4 a = tile_w[((buf * kTileK + kk) * kTileC + ly * kWorkC + j) / 4u];
          acc[j] += a.x * b;
          acc[j + 1u] += a.y * b;
          acc[j + 2u] += a.z * b;
          acc[j + 3u] += a.w * b;
        }
      }
    }
    // Step `step` is staged for everyone, and nobody reads step - 1's buffer
    // any more, which the next iteration stages into.
    barrier();
  }

  [[unroll]] for (uint j = 0u; j < kWorkC; ++j) {
    uint co = c0 + ly * kWorkC + j;
    if (co >= p.group_out) continue;
    uint channel = g * p.group_out + co;
    float bias = p.has_bias != 0u ? load_b(channel) : 0.0;
    store_pair(p0 + lx * 4u, channel, acc[j].x + bias, acc[j].y + bias);
    store_pair(p0 + lx * 4u + 2u, channel, acc[j].z + bias, acc[j].w + bias);
  }
}
