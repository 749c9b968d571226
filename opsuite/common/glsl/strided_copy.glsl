// main() of the block copy of the ops that only move bytes (Concat, Split,
// Crop; host side: common/strided_copy_kernel.hpp, geometry:
// common/device_copy.hpp): binding 0 the destination, 1 the source, one
// block a dispatch, the geometry in push constants, kWidth (spec constant 1)
// the bytes of a unit. kWidth 16, 8, 4: invocation u copies unit u, one
// uvec4, uvec2 or uint (the buffers are declared once per width at the same
// binding: aliases), at offsets found from its row and the row's outer and
// inner index by fast divisions. kWidth 1, blocks narrower than a word:
// invocation u is word slot u, the destination word of its row it owns the
// row's bytes of, gathered from the source byte by byte; a word the row
// fills is stored, one it shares (with the next row, or another block's
// dispatch) is changed by atomicAnd and atomicOr of its own bytes only, so
// that whoever else writes the other bytes keeps them.
#ifndef OPRIG_STRIDED_COPY_GLSL
#define OPRIG_STRIDED_COPY_GLSL

#include "fast_divide.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kWidth = 16u;

layout(std430, set = 0, binding = 0) buffer Dst16 { uvec4 dst16[]; };
layout(std430, set = 0, binding = 0) buffer Dst8 { uvec2 dst8[]; };
layout(std430, set = 0, binding = 0) buffer Dst4 { uint dst4[]; };
layout(std430, set = 0, binding = 1) readonly buffer Src16 { uvec4 src16[]; };
layout(std430, set = 0, binding = 1) readonly buffer Src8 { uvec2 src8[]; };
layout(std430, set = 0, binding = 1) readonly buffer Src4 { uint src4[]; };

layout(push_constant) uniform Geometry {
  uint units;
  OprigDivisor per_row;
  OprigDivisor inner;
  uint row_bytes;
  uint src_offset, src_inner, src_outer;
  uint dst_offset, dst_inner, dst_outer;
} g;

// Where the row of unit (or slot) u starts, in units: (source, destination);
// its column in .z.
uvec3 row_of(uint u) {
  uint row = oprig_divide(u, g.per_row), column = u - row * g.per_row.divisor;
  uint outer = oprig_divide(row, g.inner), inner = row - outer * g.inner.divisor;
  return uvec3(g.src_offset + outer * g.src_outer + inner * g.src_inner,
               g.dst_offset + outer * g.dst_outer + inner * g.dst_inner, column);
}

void copy_unit(uint u) {
  uvec3 r = row_of(u);
  uint s = r.x + r.z, d = r.y + r.z;
  if (kWidth == 16u) dst16[d] = src16[s];
  else if (kWidth == 8u) dst8[d] = src8[s];
  else dst4[d] = src4[s];
}

void copy_word_slot(uint u) {
  uvec3 r = row_of(u);  // in bytes
  uint word = (r.y >> 2) + r.z;
  uint first = max(4u * word, r.y), end = min(4u * word + 4u, r.y + g.row_bytes);
  if (first >= end) return;  // past the row
  uint value = 0u, mask = 0u;
  for (uint b = first; b < end; ++b) {
    uint s = r.x + (b - r.y), shift = 8u * (b & 3u);
    value |= ((src4[s >> 2] >> (8u * (s & 3u))) & 0xffu) << shift;
    mask |= 0xffu << shift;
  }
  if (mask == 0xffffffffu) {
    dst4[word] = value;
  } else {
    atomicAnd(dst4[word], ~mask);
    atomicOr(dst4[word], value);
  }
}

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint u = gl_GlobalInvocationID.x; u < g.units; u += stride) {
    if (kWidth == 1u) copy_word_slot(u);
    else copy_unit(u);
  }
}

#endif
