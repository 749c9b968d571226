#version 450
// org.oprig.builtins FullyConnected, vulkan, quantised UINT_8 or INT_8 (spec
// constant kSigned) with an INT_32 bias: the int32 sum (wrapping) of the
// offset products plus the bias, scaled by s_in s_w / s_out with NNAPI's
// fixed point (quant.hpp; srdhm as in quant_arith.comp), offset and clamped
// to the activation's range. 32-bit integer arithmetic only. Each
// invocation writes one output word (four codes), keeping the bytes past
// the tensor in the last one.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kSigned = false;

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { uint w_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { int bias[]; };
layout(std430, set = 0, binding = 3) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint count;
  uint units;
  uint depth;
  int x_offset, w_offset, out_offset;
  int m, left, right;
  int lo, hi;
} p;

int code(bool x, uint i) {
  uint byte = ((x ? x_words[i >> 2] : w_words[i >> 2]) >> (8u * (i & 3u))) & 0xffu;
  return kSigned ? int(byte << 24) >> 24 : int(byte);
}

int srdhm(int a, int b) {
  if (a == b && a == int(0x80000000u)) return 0x7fffffff;
  int hi, lo;
  imulExtended(a, b, hi, lo);
  int negative = hi >> 31;
  uint carry;
  uint sum_lo = uaddCarry(uint(lo), 0x40000000u + (uint(negative) & 0x80000001u), carry);
  int sum_hi = hi + negative + int(carry);
  int q = int((uint(sum_hi) << 1) | (sum_lo >> 31));
  return q + ((sum_hi < 0 && (sum_lo & 0x7fffffffu) != 0u) ? 1 : 0);
}

int rdbpot(int x, int e) {
  uint mask = e == 0 ? 0u : 0xffffffffu >> uint(32 - e);
  uint remainder = uint(x) & mask;
  uint threshold = (mask >> 1) + uint(x < 0);
  return (x >> e) + int(remainder > threshold);
}

uint element(uint i) {
  uint n = i / p.units, u = i % p.units;
  int acc = 0;
  for (uint d = 0u; d < p.depth; ++d)
    acc += (code(true, n * p.depth + d) + p.x_offset) * (code(false, u * p.depth + d) + p.w_offset);
  acc += bias[u];
  int scaled = rdbpot(srdhm(int(uint(acc) << uint(p.left)), p.m), p.right);
  return uint(clamp(scaled + p.out_offset, p.lo, p.hi)) & 0xffu;
}

void main() {
  uint words = (p.count + 3u) / 4u;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += stride) {
    uint word = 0u, kept = 0xffffffffu;
    for (uint j = 0u; j < 4u; ++j) {
      uint i = 4u * w + j;
      if (i >= p.count) break;
      word |= element(i) << (8u * j);
      kept &= ~(0xffu << (8u * j));
    }
    y_words[w] = word | (y_words[w] & kept);
  }
}
