#version 450
// org.oprig.builtins Slice, vulkan: the box of the input that
// resolve_shapes() found (begin and the output dims on the host), copied as
// bytes so every element type comes through bit for bit. Each invocation
// writes one 32-bit output word (its bytes may come from several elements);
// the last word keeps the bytes past the tensor. Integer arithmetic only.

layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint total;  // output bytes
  uint rank;
  uint bytes;  // per element
  uint out_dims[8];
  uint in_strides[8];  // elements
  uint begin[8];
} p;

uint byte_at(uint b) {
  uint element = b / p.bytes, rest = element, from = 0u;
  for (int d = int(p.rank) - 1; d >= 0; --d) {
    uint c = rest % p.out_dims[d];
    rest /= p.out_dims[d];
    from += (c + p.begin[d]) * p.in_strides[d];
  }
  uint i = from * p.bytes + (b - element * p.bytes);
  return (x_words[i >> 2] >> (8u * (i & 3u))) & 0xffu;
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
