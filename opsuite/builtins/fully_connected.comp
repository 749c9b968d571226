#version 450
// org.oprig.builtins FullyConnected, vulkan, FLOAT_32 or FLOAT_16 (spec
// constant kHalf): out[n, u] = act(sum_d x[n, d] w[u, d] + b[u]) with every
// product and sum rounded to fp32 in input order, as the host computes it.
// IEEE results on any driver, denormals included (some flush fp32
// denormals): each operation is done in double (a product of two fp32 is
// exact there; a double sum rounded to fp32 is the correctly rounded fp32
// sum, 53 >= 2*24 + 2) and rounded to fp32 by conversion where normal and by
// integer rounding to nearest even where an fp32 denormal, as
// ElementwiseBinary's vulkan.comp does. The activation clamps the fp32 bits
// by their order against bounds the host gives (lo, hi); FLOAT_16 is read
// and rounded once at the end in integer arithmetic (the host's
// float_to_half). Needs shaderFloat64. One invocation per output word.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kHalf = false;

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { uint w_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 3) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint count;  // output elements
  uint units;
  uint depth;
  uint lo, hi;  // the activation's bounds as fp32 bits (-inf, +inf: none)
} p;

#include "fp16_bits.glsl"
#include "fp32_exact.glsl"

uint activate(uint bits) {
  if ((bits & kAbs) > 0x7f800000u) return bits;
  if (order(bits) < order(p.lo)) return p.lo;
  return order(p.hi) < order(bits) ? p.hi : bits;
}

uint load(uint which, uint i) {  // 0 x, 1 w, 2 b: fp32 bits
  uint word = which == 0u ? x_words[kHalf ? i >> 1 : i] : which == 1u ? w_words[kHalf ? i >> 1 : i]
                                                                       : b_words[kHalf ? i >> 1 : i];
  return kHalf ? half_to_float_bits((word >> (16u * (i & 1u))) & 0xffffu) : word;
}

uint element(uint i) {
  uint n = i / p.units, u = i % p.units;
  uint acc = 0u;  // +0
  for (uint d = 0u; d < p.depth; ++d) {
    uint product = narrow(widen(load(0u, n * p.depth + d)) * widen(load(1u, u * p.depth + d)));
    acc = narrow(widen(acc) + widen(product));
  }
  return activate(narrow(widen(acc) + widen(load(2u, u))));
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
    uint hi = first + 1u < p.count ? float_bits_to_half(element(first + 1u)) << 16 : y_words[w] & 0xffff0000u;
    y_words[w] = lo | hi;
  }
}
