#version 450
// Concat, vulkan: a copy of bytes, so every element type (and quantised
// codes, which share one quantisation) comes through bit for bit. Each
// invocation writes one 32-bit word of the output (four bytes, each from
// wherever it comes: row r of the output holds chunk r of input 0, of input
// 1, ...; input k contributes chunk[k] bytes per row from byte start[k] of
// the row); the last word keeps the bytes past the tensor. Up to 7 inputs,
// bindings 1-7 (the host binds input 0 to the unused ones). Integer
// arithmetic only: no optional feature.

layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) buffer Y { uint y_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer I0 { uint i0[]; };
layout(std430, set = 0, binding = 2) readonly buffer I1 { uint i1[]; };
layout(std430, set = 0, binding = 3) readonly buffer I2 { uint i2[]; };
layout(std430, set = 0, binding = 4) readonly buffer I3 { uint i3[]; };
layout(std430, set = 0, binding = 5) readonly buffer I4 { uint i4[]; };
layout(std430, set = 0, binding = 6) readonly buffer I5 { uint i5[]; };
layout(std430, set = 0, binding = 7) readonly buffer I6 { uint i6[]; };

layout(push_constant) uniform Params {
  uint total;  // output bytes
  uint row_bytes;
  uint inputs;
  uint chunk[7];
  uint start[7];
} p;

uint word_of(uint k, uint w) {
  switch (k) {
    case 0u: return i0[w];
    case 1u: return i1[w];
    case 2u: return i2[w];
    case 3u: return i3[w];
    case 4u: return i4[w];
    case 5u: return i5[w];
    default: return i6[w];
  }
}

uint byte_at(uint b) {
  uint row = b / p.row_bytes, offset = b % p.row_bytes;
  uint k = 0u;
  while (k + 1u < p.inputs && offset >= p.start[k] + p.chunk[k]) ++k;
  uint i = row * p.chunk[k] + (offset - p.start[k]);
  return (word_of(k, i >> 2) >> (8u * (i & 3u))) & 0xffu;
}

void main() {
  uint words = (p.total + 3u) / 4u;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += stride) {
    uint word = 0u, kept = 0xffffffffu;
    for (uint j = 0u; j < 4u; ++j) {
      uint b = 4u * w + j;
      if (b >= p.total) break;
      word |= byte_at(b) << (8u * j);
      kept &= ~(0xffu << (8u * j));
    }
    y_words[w] = word | (y_words[w] & kept);
  }
}
