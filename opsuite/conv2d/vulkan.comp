#version 450
// Conv2D, vulkan: NCHW activations (the spec's GPU layout), weights
// [kernel_height, kernel_width, channel_in / group, channel_out], optional
// bias; FLOAT_32, or FLOAT_16 (spec constant kHalf) packed two to a 32-bit
// word (no 16-bit storage feature), widened exactly, summed in fp32 and
// rounded once at the end as the host rounds (fp16_bits.glsl).
//
// The implicit GEMM of opencl.cl: for group g, out[co, p] = sum over k of
// w[k, co] * tile_x[k, p], p over the output pixels of every image, k over
// the window in the weights' order (ky, kx, ci). A workgroup owns a kTileC x
// kTileP output tile, walks k in steps of kTileK, stages the weights and the
// gathered patch of each step in shared memory (zeros for padding), and each
// invocation keeps kWorkC x kWorkP sums in registers: pixels lx * kWorkP ...
// + kWorkP - 1, channels ly, ly + local y, ... The step's (ci, ky, kx) table
// is made once per step in shared memory. Tile sizes are specialisation
// constants chosen by vulkan.cpp (the local size is kTileP / kWorkP x
// kTileC / kWorkC, given as constants 6 and 7).
//
// FLOAT_16 output: an invocation owns neighbouring pixel pairs; where a pair
// fills one 32-bit word of the output (its first element even, both in the
// same image) it writes the word, otherwise each element goes in with
// atomicAnd/atomicOr on its own half, so words two invocations share are
// never torn (the other half is left as it is).

layout(local_size_x_id = 6, local_size_y_id = 7) in;
layout(constant_id = 1) const bool kHalf = false;
layout(constant_id = 2) const uint kTileP = 64;
layout(constant_id = 3) const uint kTileC = 64;
layout(constant_id = 4) const uint kWorkP = 4;
layout(constant_id = 5) const uint kWorkC = 8;
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

shared float tile_x[kTileK * kTileP];
shared float tile_w[kTileK * kTileC];
shared int k_offset[kTileK], k_dy[kTileK], k_dx[kTileK];  // per row of a step: ci * in_hw + dy * width + dx, dy, dx

float load_x(uint i) { return kHalf ? OPRIG_LOAD_F16(x_words, i) : uintBitsToFloat(x_words[i]); }
float load_w(uint i) { return kHalf ? OPRIG_LOAD_F16(w_words, i) : uintBitsToFloat(w_words[i]); }
float load_b(uint i) { return kHalf ? OPRIG_LOAD_F16(b_words, i) : uintBitsToFloat(b_words[i]); }

// One fp16 element into its half of a word that another invocation may be writing too.
void store_half_shared(uint e, float v) {
  uint shift = 16u * (e & 1u);
  atomicAnd(y_words[e >> 1], ~(0xffffu << shift));
  atomicOr(y_words[e >> 1], float_to_half(v) << shift);
}

void main() {
  const uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  const uint lx_count = gl_WorkGroupSize.x, ly_count = gl_WorkGroupSize.y;
  const uint threads = lx_count * ly_count;
  const uint lid = ly * lx_count + lx;
  const uint p0 = gl_WorkGroupID.x * kTileP;
  const uint c0 = gl_WorkGroupID.y * kTileC;  // output channel within the group
  const uint g = gl_WorkGroupID.z;
  const uint in_hw = p.height * p.width;
  const uint w_base = g * p.group_out + c0;
  // The patch column this invocation stages (the host keeps threads a
  // multiple of kTileP), and where its window starts in the image.
  const uint col = lid % kTileP, first_row = lid / kTileP, rows_per_pass = threads / kTileP;
  const uint px = p0 + col;
  const bool col_valid = px < p.pixels;
  const uint n = col_valid ? px / p.out_hw : 0u, r = col_valid ? px % p.out_hw : 0u;
  const int iy0 = int((r / p.out_w) * p.stride_h) - p.pad_top;
  const int ix0 = int((r % p.out_w) * p.stride_w) - p.pad_left;
  const int x_base = int((n * p.c_in + g * p.group_in) * in_hw) + iy0 * int(p.width) + ix0;

  float acc[kWorkC * kWorkP];
  for (uint e = 0u; e < kWorkC * kWorkP; ++e) acc[e] = 0.0;

  for (uint k0 = 0u; k0 < p.depth; k0 += kTileK) {
    for (uint row = lid; row < kTileK; row += threads) {
      uint k = k0 + row;
      uint ci = k % p.group_in, tap = k / p.group_in;
      int dy = int((tap / p.kernel_w) * p.dilation_h), dx = int((tap % p.kernel_w) * p.dilation_w);
      k_dy[row] = dy;
      k_dx[row] = dx;
      k_offset[row] = int(ci * in_hw) + dy * int(p.width) + dx;
    }
    barrier();
    for (uint row = first_row; row < kTileK; row += rows_per_pass) {
      int iy = iy0 + k_dy[row], ix = ix0 + k_dx[row];
      bool inside = col_valid && k0 + row < p.depth && iy >= 0 && iy < int(p.height) && ix >= 0 && ix < int(p.width);
      tile_x[row * kTileP + col] = inside ? load_x(uint(x_base + k_offset[row])) : 0.0;
    }
    for (uint e = lid; e < kTileK * kTileC; e += threads) {
      uint w_row = e / kTileC, w_col = e % kTileC;
      bool inside = c0 + w_col < p.group_out && k0 + w_row < p.depth;
      tile_w[e] = inside ? load_w((k0 + w_row) * p.c_out + w_base + w_col) : 0.0;
    }
    barrier();
    for (uint kk = 0u; kk < kTileK; ++kk) {
      float b[kWorkP];
      for (uint i = 0u; i < kWorkP; ++i) b[i] = tile_x[kk * kTileP + lx * kWorkP + i];
      for (uint j = 0u; j < kWorkC; ++j) {
        float a = tile_w[kk * kTileC + ly + j * ly_count];
        for (uint i = 0u; i < kWorkP; ++i) acc[j * kWorkP + i] += a * b[i];
      }
    }
    barrier();  // the tiles and the table are rewritten by the next step
  }

  for (uint j = 0u; j < kWorkC; ++j) {
    uint co = c0 + ly + j * ly_count;
    if (co >= p.group_out) continue;
    uint channel = g * p.group_out + co;
    float bias = p.has_bias != 0u ? load_b(channel) : 0.0;
    for (uint i = 0u; i < kWorkP; ++i) {
      uint q = p0 + lx * kWorkP + i;
      if (q >= p.pixels) break;
      uint image = q / p.out_hw, at = q % p.out_hw;
      uint e = (image * p.c_out + channel) * p.out_hw + at;
      float v = acc[j * kWorkP + i] + bias;
      if (!kHalf) {
        y_words[e] = floatBitsToUint(v);
        continue;
      }
      // Pairs (i, i + 1) with i even: one word when aligned and in one image.
      bool pair = (i & 1u) == 0u && i + 1u < kWorkP && q + 1u < p.pixels && at + 1u < p.out_hw;
      if (pair && (e & 1u) == 0u) {
        float next = acc[j * kWorkP + i + 1u] + bias;
        y_words[e >> 1] = float_to_half(v) | (float_to_half(next) << 16);
        ++i;
      } else {
        store_half_shared(e, v);
      }
    }
  }
}
