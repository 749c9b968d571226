#version 450
// org.oprig.builtins Compare, vulkan: INT_32, FLOAT_32, BOOL_8 or FLOAT_16
// (spec constant kType) -> BOOL_8, NumPy broadcasting (common/broadcast.hpp).
// FLOAT_32 and FLOAT_16 are compared by their bits (NaN unequal to
// everything, -0 == +0, denormals as themselves), so drivers that flush
// denormals compare as IEEE. FLOAT_16 lives two to a 32-bit word.
// Bytes live four to a 32-bit word; each invocation writes one output word.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kType = 0u;  // 0 INT_32, 1 FLOAT_32, 2 BOOL_8, 3 FLOAT_16

layout(std430, set = 0, binding = 0) readonly buffer A { uint a_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 2) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint op;  // LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL
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

uint element(bool first, uint i) {
  if (kType == 2u) return ((first ? a_words[i >> 2] : b_words[i >> 2]) >> (8u * (i & 3u))) & 0xffu;
  if (kType == 3u) return ((first ? a_words[i >> 1] : b_words[i >> 1]) >> (16u * (i & 1u))) & 0xffffu;
  return first ? a_words[i] : b_words[i];
}

// Signed keys whose order is the values' order.
int key(uint bits) {
  if (kType == 0u) return int(bits);
  if (kType == 2u) return int(bits);
  if (kType == 3u) return (bits & 0x8000u) != 0u ? -int(bits & 0x7fffu) : int(bits);
  return (bits & 0x80000000u) != 0u ? -int(bits & 0x7fffffffu) : int(bits);
}

uint compare(uint x, uint z) {
  if (kType == 1u && ((x & 0x7fffffffu) > 0x7f800000u || (z & 0x7fffffffu) > 0x7f800000u))
    return p.op == 5u ? 1u : 0u;
  if (kType == 3u && ((x & 0x7fffu) > 0x7c00u || (z & 0x7fffu) > 0x7c00u)) return p.op == 5u ? 1u : 0u;
  int a = key(x), b = key(z);
  switch (p.op) {
    case 0u: return a < b ? 1u : 0u;
    case 1u: return a <= b ? 1u : 0u;
    case 2u: return a > b ? 1u : 0u;
    case 3u: return a >= b ? 1u : 0u;
    case 4u: return a == b ? 1u : 0u;
    default: return a != b ? 1u : 0u;
  }
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
      word |= compare(element(true, ao), element(false, bo)) << (8u * j);
      kept &= ~(0xffu << (8u * j));
    }
    // Bytes past the tensor in its last word are not ours: keep them.
    y_words[w] = word | (y_words[w] & kept);
  }
}
