#version 450
#extension GL_EXT_control_flow_attributes : require
// Activation, vulkan: the eight functions of the spec (spec constant kMode,
// in the order of the spec's Enumeration) on FLOAT_32, FLOAT_16 (packed two
// to a 32-bit word, converted exactly in integers by fp16_bits.glsl: fp32
// arithmetic, one rounding) and quantised UINT_8 (codes packed four to a
// word, through a 256-entry table each workgroup builds in shared memory),
// spec constant kType. No optional device feature is needed.
//
// The formulas are the cpu kernel's (activation_math.inl; the coefficients
// are activation_coefficients.hpp itself, which is valid GLSL), with these
// differences, all so that the result holds on any driver:
//   - drivers may flush fp32 denormals (lavapipe does, and cannot be asked
//     not to): no denormal ever enters or leaves a float operation. Tiny
//     inputs (|x| < 2^-60, denormals included) take exact paths on the bits
//     (RELU and RELU6 always do; TANH gives x below 2^-12; HARD_SWISH,
//     GELU_ERF, GELU_TANH and SILU give x / 2 rounded to nearest even, what
//     the fp64 reference rounds to; SIGMOID's 1/2 needs nothing), and the
//     tails whose results fall towards the denormal range are computed
//     times 2^64 and scaled down with one rounding in integers (`descale`):
//     SIGMOID e^x and SILU x e^x below -70 (beside 1, e^x < 2^-100 there),
//     GELU_TANH x e^-v below -9 (e^-v < 2^-95), GELU_ERF x e^(-a^2/2) M(a)
//     below -12 (M from the tables up to 14, then its asymptotic series
//     1/(a sqrt(2 pi)) (1 - a^-2 + 3 a^-4 - 15 a^-6 + 105 a^-8), relative
//     error below 2^-27, where the results are denormals of a few bits);
//   - Vulkan lets OpFDiv be 2.5 ulp off (NVIDIA's is not correctly
//     rounded): every division is corrected once by its exact residual,
//     q + (a - q b) / b, within a sliver of half an ulp; the tails above
//     keep every quotient at or above 2^-102, so the correction is a normal
//     number;
//   - fma() is not one rounding in Vulkan ("inherited from OpFMul followed
//     by OpFAdd"), and `precise` does not reach it (glslang puts no
//     NoContraction on an extended instruction, so a driver's optimiser may
//     rewrite it: on lavapipe the cpu's fma-written error terms lost their
//     precision, SIGMOID came out 66 ulp off near x = -72). So the exact
//     parts are Dekker's products (Veltkamp's split) and Knuth's sums of
//     `precise` multiplications and additions, which Vulkan rounds correctly: the
//     division's residual, GELU_TANH's exponent and GELU_ERF's x^2 as float
//     pairs; Cody-Waite's n ln2_hi is exact by construction. fma() stays
//     where its rounding does not matter (the polynomials);
//   - n = roundEven(x log2 e) instead of the cpu's rounding-shift trick,
//     which a compiler may fold away.
// NaN gives NaN (the input's bits), +-Inf the limits.
//
// Each invocation handles 4 elements per step of a grid-stride loop (a
// uvec4 of fp32, a uvec2 of fp16, a word of codes); invocation 0 also
// handles the last n % 4, keeping the bytes of a last word that are not the
// tensor's.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kMode = 0u;  // RELU RELU6 SIGMOID TANH GELU_ERF GELU_TANH SILU HARD_SWISH
layout(constant_id = 2) const uint kType = 0u;  // 0 FLOAT_32, 1 FLOAT_16, 2 UINT_8

const uint kRelu = 0u, kRelu6 = 1u, kSigmoid = 2u, kTanh = 3u, kGeluErf = 4u, kGeluTanh = 5u, kSilu = 6u,
           kHardSwish = 7u;
const uint kFloat32 = 0u, kFloat16 = 1u, kUint8 = 2u;

// The same bindings seen as 4-element vectors (the main loop) and as words (the tail).
layout(std430, set = 0, binding = 0) readonly buffer XVec4 { uvec4 x_vec4[]; };
layout(std430, set = 0, binding = 0) readonly buffer XVec2 { uvec2 x_vec2[]; };
layout(std430, set = 0, binding = 0) readonly buffer XWords { uint x_words[]; };
layout(std430, set = 0, binding = 1) buffer YVec4 { uvec4 y_vec4[]; };
layout(std430, set = 0, binding = 1) buffer YVec2 { uvec2 y_vec2[]; };
layout(std430, set = 0, binding = 1) buffer YWords { uint y_words[]; };

layout(push_constant) uniform Params {
  uint count;               // elements
  int in_zero_point;        // UINT_8: the input's quantisation,
  float in_scale;
  int out_zero_point;       // and the output's (1 / scale, rounded)
  float out_inverse_scale;
} p;

#include "fp16_bits.glsl"
#include "activation_coefficients.hpp"

const uint kAbs = 0x7fffffffu;
const uint kSign = 0x80000000u;
const float kLog2e = 1.44269504;
const float kLn2Hi = 0.693145751953125;
const float kLn2Lo = 1.42860677e-06;
const float kTwoPow85 = 3.8685626227668134e25;

// ---- exp, as the cpu -------------------------------------------------------------

// exp(r + n ln 2) = p(r) 2^n for |r| <= 0.35 and integral n in [-126, 127].
vec4 exp_polynomial(vec4 n, vec4 r) {
  vec4 q = fma(vec4(kExpQ[4]), r, vec4(kExpQ[3]));
  q = fma(q, r, vec4(kExpQ[2]));
  q = fma(q, r, vec4(kExpQ[1]));
  q = fma(q, r, vec4(kExpQ[0]));
  vec4 poly = fma(fma(q, r, vec4(1.0)), r, vec4(1.0));
  return poly * uintBitsToFloat(uvec4(ivec4(n) + 127) << 23);
}

// exp(hi + lo) times 2^shift, hi + lo a float pair; the caller keeps the
// power of two normal. n ln2_hi is exact (|n| < 2^8, ln2_hi has 16 bits)
// and so is hi minus it (the two are within a factor of 2).
vec4 exp_hi_lo(vec4 hi, vec4 lo, float shift) {
  precise vec4 n = roundEven(hi * kLog2e);
  precise vec4 r = ((hi - n * kLn2Hi) - n * kLn2Lo) + lo;
  return exp_polynomial(n + shift, r);
}

vec4 exp_limited(vec4 x) { return exp_hi_lo(clamp(x, -87.0, 88.0), vec4(0.0), 0.0); }

// ---- exact operations on bits, and the corrected division ----------------------

// RN(v 2^-64) with one rounding: normal when |v| >= 2^-62 (the exponent
// field minus 64); below, the denormal's mantissa is |v| 2^85 (exact, below
// 2^23) rounded to nearest even.
uvec4 descale(vec4 v) {
  uvec4 bits = floatBitsToUint(v);
  uvec4 magnitude = bits & kAbs;
  uvec4 denormal = uvec4(roundEven(uintBitsToFloat(magnitude) * kTwoPow85)) | (bits & kSign);
  return mix(denormal, bits - (64u << 23), greaterThanEqual(magnitude, uvec4(0x20800000u)));
}

// RN(x / 2): the exponent field minus one, or for fields 0 and 1 (the value
// is the bits times 2^-149) the magnitude halved to nearest even.
uvec4 half_of(uvec4 bits) {
  uvec4 magnitude = bits & kAbs;
  uvec4 halved = ((magnitude >> 1) + (magnitude & (magnitude >> 1) & 1u)) | (bits & kSign);
  return mix(halved, bits - (1u << 23), greaterThanEqual(magnitude, uvec4(0x01000000u)));
}

bvec4 tiny(uvec4 bits) { return lessThan(bits & kAbs, uvec4(0x21800000u)); }  // |x| < 2^-60

vec4 with_sign_of(vec4 magnitude, vec4 x) {
  return uintBitsToFloat((floatBitsToUint(magnitude) & kAbs) | (floatBitsToUint(x) & kSign));
}

// Veltkamp's split: a = hi + lo exactly, each half of 12 bits (|a| < 2^114).
void split(vec4 a, out vec4 hi, out vec4 lo) {
  precise vec4 c = a * 4097.0;
  precise vec4 h = c - (c - a);
  precise vec4 l = a - h;
  hi = h;
  lo = l;
}

// Dekker: the rounding error of p = RN(a b), exactly: a b = p + error.
vec4 product_error(vec4 a_hi, vec4 a_lo, vec4 b_hi, vec4 b_lo, vec4 p) {
  precise vec4 e = (((a_hi * b_hi - p) + a_hi * b_lo) + a_lo * b_hi) + a_lo * b_lo;
  return e;
}

// Knuth: the rounding error of s = RN(a + b), exactly: a + b = s + error.
vec4 sum_error(vec4 a, vec4 b, vec4 s) {
  precise vec4 b_part = s - a;
  precise vec4 e = (a - (s - b_part)) + (b - b_part);
  return e;
}

// a / b within a sliver of half an ulp whatever OpFDiv's accuracy, for
// 1 <= b < 2^114 (the split's range) and quotients of at least 2^-102: q
// corrected by the exact residual a - q b = (a - p) - error(p) (a - p is
// exact, p being within a few ulp of a). Quotients of 2^100 and beyond,
// and +-Inf, pass as they are (they are the dividend itself there: b is 1).
vec4 divide(vec4 a, vec4 b) {
  precise vec4 q = a / b;
  vec4 q_hi, q_lo, b_hi, b_lo;
  split(q, q_hi, q_lo);
  split(b, b_hi, b_lo);
  precise vec4 p = q * b;
  precise vec4 corrected = q + ((a - p) - product_error(q_hi, q_lo, b_hi, b_lo, p)) / b;
  return mix(corrected, q, greaterThanEqual(floatBitsToUint(q) & kAbs, uvec4(0x71800000u)));  // 2^100
}

// ---- the eight functions, bits in, bits out ------------------------------------------

// max(x, 0) and min(max(x, 0), 6): -0 and negative inputs give +0, NaN stays NaN.
uvec4 relu(uvec4 bits) {
  bvec4 negative = bvec4(uvec4(greaterThanEqual(bits, uvec4(kSign))) & uvec4(lessThanEqual(bits & kAbs, uvec4(0x7f800000u))));
  return mix(bits, uvec4(0u), negative);
}

uvec4 relu6(uvec4 bits) {
  uvec4 r = relu(bits);
  bvec4 above = bvec4(uvec4(greaterThan(r, uvec4(0x40c00000u))) & uvec4(lessThanEqual(r, uvec4(0x7f800000u))));
  return mix(r, uvec4(0x40c00000u), above);  // 6.0
}

uvec4 sigmoid(vec4 x) {
  uvec4 y = floatBitsToUint(divide(vec4(1.0), 1.0 + exp_limited(-x)));
  bvec4 rare = lessThan(x, vec4(-70.0));
  if (any(rare)) y = mix(y, descale(exp_hi_lo(max(x, vec4(-110.0)), vec4(0.0), 64.0)), rare);
  return y;
}

uvec4 silu(vec4 x) {
  uvec4 y = floatBitsToUint(divide(x, 1.0 + exp_limited(-x)));
  bvec4 rare = lessThan(x, vec4(-70.0));
  if (any(rare)) {
    vec4 xl = max(x, vec4(-110.0));
    y = mix(y, descale(xl * exp_hi_lo(xl, vec4(0.0), 64.0)), rare);
  }
  return y;
}

uvec4 tanh_(vec4 x) {
  vec4 s = x * x;
  vec4 poly = fma(vec4(kTanhP[4]), s, vec4(kTanhP[3]));
  poly = fma(poly, s, vec4(kTanhP[2]));
  poly = fma(poly, s, vec4(kTanhP[1]));
  poly = fma(poly, s, vec4(kTanhP[0]));
  vec4 small = fma(x * s, poly, x);
  vec4 a = abs(x);
  vec4 e = exp_limited(2.0 * min(a, vec4(10.0)));  // tanh rounds to 1 from 9.1: keep divide()'s b small
  vec4 large = with_sign_of(1.0 - divide(vec4(2.0), e + 1.0), x);
  uvec4 y = floatBitsToUint(mix(large, small, lessThan(a, vec4(0.5625))));
  return mix(y, floatBitsToUint(x), lessThan(floatBitsToUint(a), uvec4(0x39800000u)));  // |x| < 2^-12: x
}

// x / (1 + e^v), v = -x g, g = c1 + c3 x^2, with x^2, g and v as float
// pairs hi + lo (see activation_math.inl: for x < 0 an error in v is a
// relative error of the result), x limited to [-11.5, 10]: above 10 the
// result is x, below -11.5 below 2^-150.
uvec4 gelu_tanh(vec4 x) {
  const float c1_hi = 1.595703125, c1_lo = 6.59966026e-05;  // 2 sqrt(2 / pi), c1_hi = 3268 / 2048
  const float c3_hi = 0.0713548139, c3_lo = 2.39883247e-09;  // 2 sqrt(2 / pi) 0.044715
  const float c3_hi_hi = 0.07135009765625, c3_hi_lo = 4.716217517852783e-06;  // c3_hi split: 0x1.244p-4 + 0x1.3c8p-18
  vec4 xc = clamp(x, -11.5, 10.0);
  vec4 x_hi, x_lo, x2_hi, x2_lo, g_hi, g_lo;
  split(xc, x_hi, x_lo);
  precise vec4 x2 = xc * xc;
  vec4 x2_err = product_error(x_hi, x_lo, x_hi, x_lo, x2);
  split(x2, x2_hi, x2_lo);
  precise vec4 t = c3_hi * x2;
  vec4 t_err = product_error(vec4(c3_hi_hi), vec4(c3_hi_lo), x2_hi, x2_lo, t);
  precise vec4 g = c1_hi + t;
  vec4 g_sum_err = sum_error(vec4(c1_hi), t, g);
  precise vec4 g_err = (g_sum_err + t_err) + ((c3_hi * x2_err + c3_lo * x2) + c1_lo);
  split(g, g_hi, g_lo);
  precise vec4 v = -xc * g;
  precise vec4 v_err = -product_error(x_hi, x_lo, g_hi, g_lo, -v) - xc * g_err;
  bvec4 rare = lessThan(x, vec4(-9.0));
  // Above -9, v < 66 and e^v stays finite.
  uvec4 y = floatBitsToUint(divide(x, 1.0 + exp_hi_lo(min(v, vec4(88.0)), v_err, 0.0)));
  if (any(rare)) y = mix(y, descale(xc * exp_hi_lo(-v, -v_err, 64.0)), rare);
  return y;
}

// Coefficient j of the interval's Mills polynomial, lane by lane, picked
// from the 7 constants by the interval's bits: a per-lane index into a
// constant array is a private copy of the whole array on some drivers
// (llvmpipe: 200x slower), and shared memory gathers lane by lane there.
vec4 mills_coefficient(int j, bvec4 bit0, bvec4 bit1, bvec4 bit2) {
  vec4 low = mix(mix(vec4(kMills[j][0]), vec4(kMills[j][1]), bit0), mix(vec4(kMills[j][2]), vec4(kMills[j][3]), bit0),
                 bit1);
  vec4 high = mix(mix(vec4(kMills[j][4]), vec4(kMills[j][5]), bit0), vec4(kMills[j][6]), bit1);
  return mix(low, high, bit2);
}

// x Phi(x), Phi(-a) = e^(-a^2/2) M(a) (see activation_math.inl). Beyond 13
// the result is x; below -12, scaled, with a limited to 15 (the result is
// below 2^-150 from there). Not -13 as on the cpu: Phi(-a) itself falls
// below 2^-126 from a = 12.95 (x Phi(x) from 13.0), and a driver that
// flushes denormals (NVIDIA's does) gave -0 for -7.95e-38 at x = -12.99;
// scaled, Phi(-a) 2^64 stays above 2^-104 down to a = 15.
uvec4 gelu_erf(vec4 x) {
  vec4 a = min(abs(x), vec4(15.0));
  vec4 a_hi, a_lo;
  split(a, a_hi, a_lo);
  precise vec4 a2 = a * a;
  vec4 a2_err = product_error(a_hi, a_lo, a_hi, a_lo, a2);
  ivec4 interval = min(ivec4(a * 0.5), ivec4(6));
  vec4 d = a - fma(vec4(interval), vec4(2.0), vec4(1.0));
  bvec4 bit0 = notEqual(interval & 1, ivec4(0)), bit1 = notEqual(interval & 2, ivec4(0)),
        bit2 = notEqual(interval & 4, ivec4(0));
  vec4 m = mills_coefficient(kMillsDegree, bit0, bit1, bit2);
  // Unrolled, so that every table index is a constant.
  [[unroll]] for (int j = kMillsDegree - 1; j >= 0; --j) m = fma(m, d, mills_coefficient(j, bit0, bit1, bit2));
  vec4 gauss = exp_hi_lo(max(a2 * -0.5, vec4(-87.0)), a2_err * -0.5, 0.0);
  vec4 tail = gauss * m;  // Phi(-a)
  vec4 y = mix(fma(-x, tail, x), x * tail, lessThan(x, vec4(0.0)));
  uvec4 bits = floatBitsToUint(mix(y, x, greaterThan(x, vec4(13.0))));
  bvec4 rare = lessThan(x, vec4(-12.0));
  if (any(rare)) {
    vec4 r = 1.0 / a2;  // only its value to a few ulp matters: the series' terms are small
    vec4 series = fma(fma(fma(fma(vec4(105.0), r, vec4(-15.0)), r, vec4(3.0)), r, vec4(-1.0)), r, vec4(1.0)) *
                  (0.398942280 / a);  // 1 / sqrt(2 pi)
    vec4 mills = mix(m, series, greaterThanEqual(a, vec4(14.0)));
    bits = mix(bits, descale(-a * (exp_hi_lo(a2 * -0.5, a2_err * -0.5, 64.0) * mills)), rare);
  }
  return bits;
}

uvec4 hard_swish(vec4 x) {
  vec4 y = divide(x * (x + 3.0), vec4(6.0));
  return floatBitsToUint(mix(mix(y, x, greaterThanEqual(x, vec4(3.0))), vec4(0.0), lessThanEqual(x, vec4(-3.0))));
}

uvec4 activate(uvec4 bits) {
  if (kMode == kRelu) return relu(bits);
  if (kMode == kRelu6) return relu6(bits);
  vec4 x = uintBitsToFloat(bits);
  uvec4 y;
  if (kMode == kSigmoid) y = sigmoid(x);
  else if (kMode == kTanh) y = tanh_(x);
  else if (kMode == kGeluErf) y = gelu_erf(x);
  else if (kMode == kGeluTanh) y = gelu_tanh(x);
  else if (kMode == kSilu) y = silu(x);
  else y = hard_swish(x);
  if (kMode != kSigmoid && kMode != kTanh) y = mix(y, half_of(bits), tiny(bits));
  return mix(y, bits, greaterThan(bits & kAbs, uvec4(0x7f800000u)));  // NaN
}

// ---- the three element types ---------------------------------------------------------

uvec2 activate_halves(uvec2 words) {
  uvec4 bits = uvec4(half_to_float_bits(words.x & 0xffffu), half_to_float_bits(words.x >> 16),
                     half_to_float_bits(words.y & 0xffffu), half_to_float_bits(words.y >> 16));
  uvec4 y = activate(bits);
  return uvec2(float_bits_to_half(y.x) | (float_bits_to_half(y.y) << 16),
               float_bits_to_half(y.z) | (float_bits_to_half(y.w) << 16));
}

// UINT_8: code c means (c - in_zero_point) in_scale (normal or 0: the host
// checks the scale); the result's code rounds half away from zero (the
// harness's rule) and saturates.
shared uint table[256];

void build_table() {
  for (uint c = 4u * gl_LocalInvocationID.x; c < 256u; c += 4u * gl_WorkGroupSize.x) {
    vec4 real = vec4(ivec4(c, c + 1u, c + 2u, c + 3u) - p.in_zero_point) * p.in_scale;
    vec4 scaled = uintBitsToFloat(activate(floatBitsToUint(real))) * p.out_inverse_scale;
    vec4 code = sign(scaled) * floor(abs(scaled) + 0.5) + float(p.out_zero_point);
    uvec4 codes = uvec4(clamp(code, 0.0, 255.0));
    table[c] = codes.x;
    table[c + 1u] = codes.y;
    table[c + 2u] = codes.z;
    table[c + 3u] = codes.w;
  }
  barrier();
}

uint lookup(uint word) {
  return table[word & 0xffu] | (table[(word >> 8) & 0xffu] << 8) | (table[(word >> 16) & 0xffu] << 16) |
         (table[word >> 24] << 24);
}

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint vectors = p.count / 4u, left = p.count % 4u;
  bool tail = gl_GlobalInvocationID.x == 0u && left != 0u;
  if (kType == kFloat32) {
    for (uint v = gl_GlobalInvocationID.x; v < vectors; v += stride) y_vec4[v] = activate(x_vec4[v]);
    if (!tail) return;
    uvec4 last = uvec4(0u);
    for (uint i = 0u; i < left; ++i) last[i] = x_words[4u * vectors + i];
    last = activate(last);
    for (uint i = 0u; i < left; ++i) y_words[4u * vectors + i] = last[i];
  } else if (kType == kFloat16) {
    for (uint v = gl_GlobalInvocationID.x; v < vectors; v += stride) y_vec2[v] = activate_halves(x_vec2[v]);
    if (!tail) return;
    // 1 to 3 halves: one or two words, the second perhaps half the tensor's.
    uint first = 2u * vectors, words = (left + 1u) / 2u;
    uvec2 last = uvec2(x_words[first], words > 1u ? x_words[first + 1u] : 0u);
    last = activate_halves(last);
    y_words[first] = (left == 1u) ? (last.x & 0xffffu) | (y_words[first] & 0xffff0000u) : last.x;
    if (words > 1u) y_words[first + 1u] = (left == 3u) ? (last.y & 0xffffu) | (y_words[first + 1u] & 0xffff0000u) : last.y;
  } else {
    build_table();
    for (uint v = gl_GlobalInvocationID.x; v < vectors; v += stride) y_words[v] = lookup(x_words[v]);
    if (!tail) return;
    uint keep = 0xffffffffu << (8u * left);
    y_words[vectors] = (lookup(x_words[vectors]) & ~keep) | (y_words[vectors] & keep);
  }
}
