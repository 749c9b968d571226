#version 450
// ElementwiseBinary, vulkan, FLOAT_32 and FLOAT_16 (spec constant kHalf):
// ADD, SUB, MUL, DIV, MAX, MIN, POW with NumPy broadcasting. (INT_32 is
// vulkan_int.comp, which needs no Float64.) POW is pow_fp64.glsl: GLSL's
// pow() has no useful accuracy, so its own log2 and exp2 in double.
//
// IEEE results on any driver, denormals included: some drivers (lavapipe
// among them) flush fp32 denormals and cannot be asked not to, and GLSL's
// float division may be 2.5 ulp off. So the operands are widened to double
// (a denormal operand by integer arithmetic: its mantissa times 2^-149), the
// operation is done in double (every result of two fp32 operands is a
// normal double, and a double result rounded to fp32 is the correctly
// rounded fp32 result for + - * /, since 53 >= 2*24 + 2), and rounded back to
// fp32 by conversion where the result is normal and by integer rounding to
// nearest even where it is an fp32 denormal. MAX/MIN select by the bits'
// order (exact for denormals) and propagate NaN. FLOAT_16 elements are
// widened to fp32 (exactly, in integers), computed as above, and rounded to
// fp16 once (in integers, as the host does): fp32 then fp16 rounding equals
// one correct rounding for + - * / of fp16 operands (24 >= 2*11 + 2).
// The fused activation clamps the fp32 result by the order of its bits
// (max(r, lo) is r unless r < lo, so NaN and -0 pass), before FLOAT_16's
// rounding (the bounds are fp16 numbers, so the order does not matter).
//
// Each invocation writes one 32-bit output word (one fp32 or two fp16
// elements), so no two invocations share a word.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kHalf = false;

layout(std430, set = 0, binding = 0) readonly buffer A { uint a_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 2) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint op;       // 0 ADD, 1 SUB, 2 MUL, 3 DIV, 4 MAX, 5 MIN, 6 POW
  uint count;    // output elements
  uint merged;   // rank of the merged iteration space (common/broadcast.hpp)
  uint dims[8];
  uint a_strides[8];
  uint b_strides[8];
  uint lo, hi;  // the fused activation's bounds as fp32 bits (-inf, +inf: none)
} p;

#include "fp16_bits.glsl"
#include "fp32_exact.glsl"
#include "pow_fp64.glsl"

void offsets(uint i, out uint a, out uint b) {
  a = 0u;
  b = 0u;
  for (int k = int(p.merged) - 1; k >= 0; --k) {
    uint c = i % p.dims[k];
    i /= p.dims[k];
    a += c * p.a_strides[k];
    b += c * p.b_strides[k];
  }
}

uint load_bits(bool first, uint i) {
  uint word = first ? a_words[kHalf ? i >> 1 : i] : b_words[kHalf ? i >> 1 : i];
  if (!kHalf) return word;
  return half_to_float_bits((word >> (16u * (i & 1u))) & 0xffffu);
}

// The fused activation on the rounded fp32 bits, by their order, against
// bounds the host gives as bit patterns (lo, hi: -inf and +inf for none).
// No float constants are chosen here: Mesa's NIR rewrites a select between
// the bit patterns of -1.0 and 0.0 as -float(condition), which is -0.
uint activate(uint bits) {
  if (is_nan(bits)) return bits;
  if (order(bits) < order(p.lo)) return p.lo;
  return order(p.hi) < order(bits) ? p.hi : bits;
}

uint apply(uint a, uint b) {
  if (p.op == 6u) return activate(pow_bits(a, b));
  if (p.op >= 4u) {
    if (is_nan(a) || is_nan(b)) return 0x7fc00000u;
    bool a_wins = p.op == 4u ? order(a) > order(b) : order(a) < order(b);
    return activate(a_wins ? a : b);
  }
  double x = widen(a), y = widen(b), r;
  if (p.op == 0u) r = x + y;
  else if (p.op == 1u) r = x - y;
  else if (p.op == 2u) r = x * y;
  else r = x / y;
  return activate(narrow(r));
}

uint element(uint i) {
  uint ao, bo;
  offsets(i, ao, bo);
  return apply(load_bits(true, ao), load_bits(false, bo));
}

void main() {
  uint words = kHalf ? (p.count + 1u) / 2u : p.count;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += stride) {
    if (!kHalf) {
      y_words[w] = element(w);
      continue;
    }
    uint first = 2u * w;
    uint lo = float_bits_to_half(element(first));
    // An odd count ends in half a word: keep the other half as it was.
    uint hi = first + 1u < p.count ? float_bits_to_half(element(first + 1u)) << 16 : y_words[w] & 0xffff0000u;
    y_words[w] = lo | hi;
  }
}
