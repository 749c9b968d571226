#version 450
#extension GL_EXT_control_flow_attributes : require
// DepthwiseConv2D, vulkan: opencl.cl's one pass over memory (device_grid.hpp
// says why this shape) in GLSL. NHWC activations, weights [kernel_height,
// kernel_width, 1, channels * multiplier], optional bias; FLOAT_32, or
// FLOAT_16 (spec constant kHalf) packed two to a 32-bit word (no 16-bit
// storage feature), widened exactly, summed in fp32 and rounded once at the
// end as the host rounds (fp16_bits.glsl). A driver that flushes fp32
// denormals (lavapipe) moves a sum by under 2^-126 per term, far inside the
// plan's absolute bound.
//
// Invocation (v, column) computes output channels kVec v .. kVec v + kVec - 1
// of output rows 4 s .. 4 s + 3 at output column ox (column = s out_w + ox)
// of each image its workgroup walks, summing bias then taps in kernel order,
// each tap's input straight from the buffer: the invocations of a subgroup
// read neighbouring channels and columns of one input row, the rows and
// columns neighbours share come from the caches. kVec (spec constant 2,
// the host's channels_per_item): 4 where the channels line up, read and written as
// one uvec4 of fp32 or one uvec2 of fp16; 2 (FLOAT_16 otherwise) a word's
// pair of output channels, written whole where aligned and half by half with
// atomicAnd / atomicOr otherwise, so no word is torn; 1 (FLOAT_32 otherwise).
// The workgroup: spec constants 3 and 4 (channel vectors x columns). Columns
// and images past the dispatch's counts are walked in grid-stride loops.

layout(local_size_x_id = 3, local_size_y_id = 4) in;
layout(constant_id = 1) const bool kHalf = false;
layout(constant_id = 2) const uint kVec = 1u;
const uint kRows = 4u;  // device_grid.hpp's kRows

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 0) readonly buffer XQuads { uvec4 x_quads[]; };
layout(std430, set = 0, binding = 0) readonly buffer XPairs { uvec2 x_pairs[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { uint w_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer WQuads { uvec4 w_quads[]; };
layout(std430, set = 0, binding = 1) readonly buffer WPairs { uvec2 w_pairs[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer BQuads { uvec4 b_quads[]; };
layout(std430, set = 0, binding = 2) readonly buffer BPairs { uvec2 b_pairs[]; };
layout(std430, set = 0, binding = 3) buffer Y { uint y_words[]; };
layout(std430, set = 0, binding = 3) writeonly buffer YQuads { uvec4 y_quads[]; };
layout(std430, set = 0, binding = 3) writeonly buffer YPairs { uvec2 y_pairs[]; };

layout(push_constant) uniform Params {
  uint has_bias, height, width, channels, multiplier, out_h, out_w, kernel_h, kernel_w;
  uint stride_h, stride_w, dilation_h, dilation_w;
  int pad_top, pad_left;
  uint columns, batch;
} p;

#include "fp16_bits.glsl"

vec2 widen_pair(uint word) { return vec2(half_to_float(word & 0xffffu), half_to_float(word >> 16)); }

// Element i of a tensor bound as words, as fp32.
#define LOAD_ONE(words, i) (kHalf ? OPRIG_LOAD_F16(words, i) : uintBitsToFloat(words[i]))
// Elements i .. i + 3 (i a multiple of 4) through the vector view.
#define LOAD_FOUR(quads, pairs, i)                                                       \
  (kHalf ? vec4(widen_pair(pairs[(i) >> 2].x), widen_pair(pairs[(i) >> 2].y)) \
         : uintBitsToFloat(quads[(i) >> 2]))

// Input channels c .. c + kVec - 1 of element index i (multiplier 1 when
// kVec is 4); the output channels o .. of a multiplier > 1 read input
// channels o / multiplier, (o + 1) / multiplier, passed as i and i2.
vec4 load_x(uint i, uint i2) {
  if (kVec == 4u) return LOAD_FOUR(x_quads, x_pairs, i);
  return vec4(LOAD_ONE(x_words, i), kVec == 2u ? LOAD_ONE(x_words, i2) : 0.0, 0.0, 0.0);
}

// Weights or bias of output channels o .. o + kVec - 1 (o + 1 < c_out when second).
vec4 load_w(uint i, bool second) {
  if (kVec == 4u) return LOAD_FOUR(w_quads, w_pairs, i);
  return vec4(LOAD_ONE(w_words, i), kVec == 2u && second ? LOAD_ONE(w_words, i + 1u) : 0.0, 0.0, 0.0);
}
vec4 load_b(uint i, bool second) {
  if (kVec == 4u) return LOAD_FOUR(b_quads, b_pairs, i);
  return vec4(LOAD_ONE(b_words, i), kVec == 2u && second ? LOAD_ONE(b_words, i + 1u) : 0.0, 0.0, 0.0);
}

void store_half_alone(uint e, float v) {
  uint shift = 16u * (e & 1u);
  atomicAnd(y_words[e >> 1], ~(0xffffu << shift));
  atomicOr(y_words[e >> 1], float_to_half(v) << shift);
}

// Output element e (a multiple of 4 when kVec is 4) and the next kVec - 1.
void store_y(uint e, vec4 v, bool second) {
  if (kVec == 4u) {
    if (kHalf)
      y_pairs[e >> 2] = uvec2(float_to_half(v.x) | (float_to_half(v.y) << 16),
                              float_to_half(v.z) | (float_to_half(v.w) << 16));
    else
      y_quads[e >> 2] = floatBitsToUint(v);
  } else if (!kHalf) {
    y_words[e] = floatBitsToUint(v.x);
  } else if (second && (e & 1u) == 0u) {
    y_words[e >> 1] = float_to_half(v.x) | (float_to_half(v.y) << 16);
  } else {
    store_half_alone(e, v.x);
    if (second) store_half_alone(e + 1u, v.y);
  }
}

void main() {
  const uint c_out = p.channels * p.multiplier;
  const uint o = gl_GlobalInvocationID.x * kVec;  // first output channel
  if (o >= c_out) return;
  const bool second = o + 1u < c_out;  // kVec 2: the pair is whole
  const uint c = o / p.multiplier, c2 = (second ? o + 1u : o) / p.multiplier;
  const vec4 b = p.has_bias != 0u ? load_b(o, second) : vec4(0.0);
  for (uint n = gl_WorkGroupID.z; n < p.batch; n += gl_NumWorkGroups.z)
    for (uint column = gl_GlobalInvocationID.y; column < p.columns; column += gl_NumWorkGroups.y * gl_WorkGroupSize.y) {
      const uint ox = column % p.out_w, oy0 = column / p.out_w * kRows;
      vec4 acc[kRows];
      [[unroll]] for (uint r = 0u; r < kRows; ++r) acc[r] = b;
      const int iy0 = int(oy0 * p.stride_h) - p.pad_top, ix0 = int(ox * p.stride_w) - p.pad_left;
      for (uint ky = 0u; ky < p.kernel_h; ++ky)
        for (uint kx = 0u; kx < p.kernel_w; ++kx) {
          const int ix = ix0 + int(kx * p.dilation_w);
          if (ix >= 0 && ix < int(p.width)) {
            const vec4 wv = load_w((ky * p.kernel_w + kx) * c_out + o, second);
            [[unroll]] for (uint r = 0u; r < kRows; ++r) {
              const int iy = iy0 + int(r * p.stride_h + ky * p.dilation_h);  // rows past out_h: summed, never stored
              if (iy >= 0 && iy < int(p.height)) {
                const uint pixel = ((n * p.height + uint(iy)) * p.width + uint(ix)) * p.channels;
                acc[r] = fma(load_x(pixel + c, pixel + c2), wv, acc[r]);
              }
            }
          }
        }
      [[unroll]] for (uint r = 0u; r < kRows; ++r)
        if (oy0 + r < p.out_h) store_y(((n * p.out_h + oy0 + r) * p.out_w + ox) * c_out + o, acc[r], second);
    }
}
