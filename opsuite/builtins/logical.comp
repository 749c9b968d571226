#version 450
// org.oprig.builtins Logical (AND, OR) and LogicalNot, vulkan: BOOL_8 in,
// any non-zero byte true, 0/1 out; NumPy broadcasting. LogicalNot is bound
// with its input twice and ignores the second. Each invocation writes one
// output word (four bytes).

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kOp = 0u;  // 0 AND, 1 OR, 2 NOT

layout(std430, set = 0, binding = 0) readonly buffer A { uint a_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 2) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint op;  // unused: the operation is kOp (the layout is compare.comp's)
  uint count;
  uint merged;
  uint dims[8];
  uint a_strides[8];
  uint b_strides[8];
} p;

void offsets(uint i, out uint ao, out uint bo) {
  ao = 0u;
  bo = 0u;
  for (int k = int(p.merged) - 1; k >= 0; --k) {
    uint c = i % p.dims[k];
    i /= p.dims[k];
    ao += c * p.a_strides[k];
    bo += c * p.b_strides[k];
  }
}

bool truth(bool first, uint i) {
  return (((first ? a_words[i >> 2] : b_words[i >> 2]) >> (8u * (i & 3u))) & 0xffu) != 0u;
}

void main() {
  uint words = (p.count + 3u) / 4u;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += stride) {
    uint word = 0u, kept = 0xffffffffu;
    for (uint j = 0u; j < 4u; ++j) {
      uint i = 4u * w + j;
      if (i >= p.count) break;
      uint ao, bo;
      offsets(i, ao, bo);
      bool x = truth(true, ao);
      bool r = kOp == 2u ? !x : kOp == 0u ? (x && truth(false, bo)) : (x || truth(false, bo));
      word |= (r ? 1u : 0u) << (8u * j);
      kept &= ~(0xffu << (8u * j));
    }
    y_words[w] = word | (y_words[w] & kept);
  }
}
