#version 450
// org.oprig.builtins QuantizedArithmetic, vulkan: ADD, SUB, MUL of
// quantised UINT_8 or INT_8 (spec constant kSigned) with NNAPI's integer
// requantisation (quant.hpp), the parameters computed by the host at
// prepare. 32-bit integer arithmetic only (the 64-bit product of srdhm comes
// from imulExtended), so no optional device feature is needed. NumPy
// broadcasting up to rank 4 (common/broadcast.hpp's merged space); bytes
// live four to a 32-bit word and each invocation writes one output word,
// keeping the bytes past the tensor in its last word.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kSigned = false;

layout(std430, set = 0, binding = 0) readonly buffer A { uint a_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 2) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint op;  // ADD, SUB, MUL
  uint count;
  uint merged;
  uint dims[4];
  uint a_strides[4];
  uint b_strides[4];
  int in1_offset, in2_offset, out_offset;
  int m1, left1, right1, m2, left2, right2, m_out, left_out, right_out;
  int lo, hi;  // the activation's range in codes
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

int code(bool first, uint i) {
  uint byte = ((first ? a_words[i >> 2] : b_words[i >> 2]) >> (8u * (i & 3u))) & 0xffu;
  return kSigned ? int(byte << 24) >> 24 : int(byte);
}

// srdhm(a, b) = trunc((a * b + nudge) / 2^31), nudge = 2^30 for a * b >= 0,
// else 1 - 2^30; INT32_MIN * INT32_MIN saturates. The 64-bit sum as (hi, lo)
// words, without selects between constants (the nudge comes from the sign
// mask: 1 - 2^30 is 2^30 + 0x80000001 in the low word, -1 in the high one).
int srdhm(int a, int b) {
  if (a == b && a == int(0x80000000u)) return 0x7fffffff;
  int hi, lo;
  imulExtended(a, b, hi, lo);
  int negative = hi >> 31;  // 0 or -1
  uint carry;
  uint sum_lo = uaddCarry(uint(lo), 0x40000000u + (uint(negative) & 0x80000001u), carry);
  int sum_hi = hi + negative + int(carry);
  int q = int((uint(sum_hi) << 1) | (sum_lo >> 31));  // floor(sum / 2^31)
  return q + ((sum_hi < 0 && (sum_lo & 0x7fffffffu) != 0u) ? 1 : 0);  // truncation for a negative sum
}

// x / 2^e to nearest, ties away from zero.
int rdbpot(int x, int e) {
  uint mask = e == 0 ? 0u : 0xffffffffu >> uint(32 - e);
  uint remainder = uint(x) & mask;
  uint threshold = (mask >> 1) + uint(x < 0);
  return (x >> e) + int(remainder > threshold);
}

int scale_by(int x, int m, int left, int right) { return rdbpot(srdhm(int(uint(x) << uint(left)), m), right); }

uint element(uint i) {
  uint ao, bo;
  offsets(i, ao, bo);
  int x = code(true, ao) + p.in1_offset, z = code(false, bo) + p.in2_offset;
  int raw;
  if (p.op == 2u) {
    raw = scale_by(x * z, p.m_out, p.left_out, p.right_out);
  } else {
    int sx = scale_by(x * (1 << 20), p.m1, p.left1, p.right1);
    int sz = scale_by(z * (1 << 20), p.m2, p.left2, p.right2);
    raw = scale_by(sx + sz, p.m_out, p.left_out, p.right_out);
  }
  return uint(clamp(raw + p.out_offset, p.lo, p.hi)) & 0xffu;
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
