#version 450
// Quantize, vulkan: UINT_8 or INT_8 codes (spec constant kSigned),
//   code = clamp(round_half_to_even(fp32(x / scale)) + zero_point, qmin, qmax)
// NaN gives the zero point (saturated). Exact on any driver: GLSL's
// division may be 2.5 ulp off and some drivers (lavapipe) flush fp32
// denormals, so neither is used. The method is opencl.cl's (see there for the bound):
//   fast path: q = x * r, r = RN(1 / scale) from the host (scales in
//   [2^-100, 2^100]); rint(q) is the code's integer unless a half-integer
//   lies within 2^-21 |q| of q;
//   exact path (near ties, 2^22 <= |q| < 2^26, and every element for other
//   scales): fp32(x / scale) by long division of the integer mantissas, then
//   rounded half to even, in 32-bit integers.
// x * r and its use are `precise`: no fusing into anything else. (opencl.cl
// writes the exact path as straight-line vector code for PoCL; here a lane
// that needs it branches, which GPUs and lavapipe take in their stride.)
//
// The codes are stored as 32-bit words (4 codes each, no 8-bit storage
// feature needed). Each invocation turns one uvec4 of inputs into one word
// per step of a grid-stride loop; invocation 0 also writes the last n % 4
// codes into the last word, keeping its other bytes (they are not the
// tensor's).

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kSigned = false;  // INT_8 codes when true

layout(std430, set = 0, binding = 0) readonly buffer XVectors { uvec4 x_vectors[]; };
layout(std430, set = 0, binding = 0) readonly buffer XWords { uint x_words[]; };
layout(std430, set = 0, binding = 1) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint count;        // elements
  float reciprocal;  // RN(1 / scale), when fast
  uint scale_bits;
  uint fast;         // 1: the scale is in [2^-100, 2^100]
  int zero_point;
  int lowest, highest;
} p;

const int kSaturated = 1 << 30;

// rint(fp32(x / s)) for finite x and finite s > 0 (as bits), limited to +-2^30.
int exact_quotient_rint(uint x_bits, uint s_bits) {
  uint x_magnitude = x_bits & 0x7fffffffu;
  if (x_magnitude == 0u) return 0;
  // value = mantissa 2^exponent with 24-bit integer mantissas (denormals: exponent field 1, no hidden bit).
  uint x_field = x_magnitude >> 23, s_field = s_bits >> 23;
  uint xm = x_field == 0u ? x_magnitude : (x_magnitude & 0x7fffffu) | 0x800000u;
  uint sm = s_field == 0u ? s_bits : (s_bits & 0x7fffffu) | 0x800000u;
  // Both mantissas to [2^23, 2^24), then xm / sm to [1, 2).
  int x_shift = 23 - findMSB(xm), s_shift = 23 - findMSB(sm);
  xm <<= x_shift;
  sm <<= s_shift;
  int e = (int(max(x_field, 1u)) - 150 - x_shift) - (int(max(s_field, 1u)) - 150 - s_shift);  // x / s = (xm / sm) 2^e
  if (xm < sm) {
    xm <<= 1;
    --e;
  }
  if (e <= -2) return 0;  // |x / s| < 1/2, so Q <= 1/2 and rint(Q) = 0
  bool negative = (x_bits >> 31) != 0u;
  if (e >= 30) return negative ? -kSaturated : kSaturated;
  // 26 quotient bits: q = floor(xm 2^25 / sm) in [2^25, 2^26), r the remainder.
  uint q = 1u, r = xm - sm;
  for (int bit = 0; bit < 25; ++bit) {
    r <<= 1;
    q <<= 1;
    if (r >= sm) {
      r -= sm;
      q |= 1u;
    }
  }
  // Q = m 2^(e - 23), m the quotient rounded to 24 bits, to nearest even.
  uint m = q >> 2;
  bool round_up = (q & 2u) != 0u && ((q & 1u) != 0u || r != 0u || (m & 1u) != 0u);
  if (round_up) ++m;
  if (m == 0x1000000u) {
    m = 0x800000u;
    ++e;
  }
  uint n;
  if (e >= 23) {
    n = m << uint(e - 23);  // e <= 30: below 2^31
  } else {
    uint shift = uint(23 - e);  // 1 .. 24
    n = m >> shift;
    uint rest = m & ((1u << shift) - 1u), half_way = 1u << (shift - 1u);
    if (rest > half_way || (rest == half_way && (n & 1u) != 0u)) ++n;
  }
  n = min(n, uint(kSaturated));
  return negative ? -int(n) : int(n);
}

uint quantize(uvec4 bits) {
  precise vec4 q = uintBitsToFloat(bits) * p.reciprocal;
  vec4 a = abs(q);
  precise vec4 fraction = a - floor(a);
  bvec4 near_tie = lessThanEqual(abs(fraction - 0.5), a * 4.76837158203125e-7);
  bvec4 big = greaterThanEqual(a, vec4(4194304.0));  // 2^22; +-Inf too
  ivec4 n = ivec4(roundEven(mix(q, vec4(0.0), big)));
  uvec4 magnitude = bits & 0x7fffffffu;
  if (p.fast == 0u || any(near_tie) || any(big)) {
    for (int lane = 0; lane < 4; ++lane) {
      if (magnitude[lane] >= 0x7f800000u || (p.fast != 0u && a[lane] >= 67108864.0))
        n[lane] = (bits[lane] >> 31) != 0u ? -kSaturated : kSaturated;  // +-Inf (NaN is replaced below), or far out
      else if (p.fast == 0u || near_tie[lane] || big[lane])
        n[lane] = exact_quotient_rint(bits[lane], p.scale_bits);
    }
  }
  n = mix(n, ivec4(0), greaterThan(magnitude, uvec4(0x7f800000u)));  // NaN: the zero point (saturated)
  ivec4 code = clamp(n + p.zero_point, ivec4(p.lowest), ivec4(p.highest));
  uvec4 bytes = uvec4(code) & 0xffu;
  return bytes.x | (bytes.y << 8) | (bytes.z << 16) | (bytes.w << 24);
}

void main() {
  uint vectors = p.count / 4u;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint v = gl_GlobalInvocationID.x; v < vectors; v += stride) y_words[v] = quantize(x_vectors[v]);
  uint left = p.count % 4u;
  if (gl_GlobalInvocationID.x != 0u || left == 0u) return;
  uvec4 last = uvec4(0u);
  for (uint i = 0u; i < left; ++i) last[i] = x_words[4u * vectors + i];
  uint keep = 0xffffffffu << (8u * left);
  y_words[vectors] = (quantize(last) & ~keep) | (y_words[vectors] & keep);
}
