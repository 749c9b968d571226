#version 450
// Atan, vulkan: y = atan(x + offset), elementwise, FLOAT_32 or FLOAT_16.
//
// Both tensors are bound as arrays of 32-bit words: fp32 elements are the
// words' bits, fp16 elements are packed two to a word and converted with
// unpackHalf2x16/packHalf2x16, so no optional 16-bit storage feature is
// needed. Each invocation handles one uvec4 (4 fp32 or 8 fp16 elements) per
// step of a grid-stride loop; invocation 0 also handles the last < 16 bytes.
//
// Accuracy, measured against fp64 by tests/backends_vulkan: <= 3 ULP on fp32
// (1.9 on lavapipe; 2.5 on NVIDIA's driver, whose division uses the 2.5 ULP
// that Vulkan allows OpFDiv, where lavapipe's is correctly rounded).
// Denormals are never let through a floating-point operation (some drivers,
// lavapipe among them, flush them and cannot be asked not to): inputs and
// results that are tiny or denormal are handled with integer bit operations.
#extension GL_EXT_spirv_intrinsics : require

// Ask for IEEE denormals and signed zero/Inf/NaN where the device supports it
// (SPV_KHR_float_controls; capability and execution mode numbers from the
// SPIR-V spec). vulkan.cpp removes these from the module on devices whose
// VkPhysicalDeviceFloatControlsProperties say they are not supported.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4466], 4461, 32);

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kHalf = false;  // FLOAT_16 tensors when true

// The same bindings seen as whole vectors (the main loop) and as single words (the tail).
layout(std430, set = 0, binding = 0) readonly buffer SrcVectors { uvec4 src_vectors[]; };
layout(std430, set = 0, binding = 0) readonly buffer SrcWords { uint src_words[]; };
layout(std430, set = 0, binding = 1) buffer DstVectors { uvec4 dst_vectors[]; };
layout(std430, set = 0, binding = 1) buffer DstWords { uint dst_words[]; };

layout(push_constant) uniform Params {
  uint count;    // elements
  float offset;  // the op's `offset` parameter
} params;

const uint kAbsMask = 0x7fffffffu;
const uint kSignMask = 0x80000000u;
const uint kSmallestNormal = 0x00800000u;  // 2^-126
const uint kSmallOperand = 0x0d800000u;    // 2^-100: below it an fp32 sum may be denormal
const uint kScaledNormal = 0x20800000u;    // 2^-62 = 2^-126 * 2^64
const uint kTinyAtan = 0x39000000u;        // 2^-13: below it atan(a) rounds to a
const uint kExponent64 = 64u << 23;
const float kTwoPowMinus85 = 2.5849394142282115e-26;  // exact: 2^-85
const float kTwoPow85 = 3.8685626227668134e25;        // exact: 2^85

// |v| * 2^64 with v's sign, exact for |v| < 2^64, without a floating-point
// operation on a denormal: denormal mantissa m means m * 2^-149.
vec4 scale_up(uvec4 bits) {
  uvec4 magnitude = bits & kAbsMask;
  vec4 from_denormal = vec4(magnitude) * kTwoPowMinus85;  // uint -> float is exact below 2^23
  vec4 from_normal = uintBitsToFloat(magnitude + kExponent64);
  vec4 scaled = mix(from_normal, from_denormal, lessThan(magnitude, uvec4(kSmallestNormal)));
  return uintBitsToFloat(floatBitsToUint(scaled) | (bits & kSignMask));
}

// Inverse of scale_up for a value that was a sum of two scaled operands.
vec4 scale_down(vec4 scaled) {
  uvec4 bits = floatBitsToUint(scaled);
  uvec4 magnitude = bits & kAbsMask;
  uvec4 normal_bits = magnitude - kExponent64;
  // A sum of multiples of 2^-149 that lands below 2^-126 is exact, so the
  // scaled value times 2^85 is the denormal's integer mantissa.
  uvec4 denormal_bits = uvec4(uintBitsToFloat(magnitude) * kTwoPow85);
  uvec4 result = mix(denormal_bits, normal_bits, greaterThanEqual(magnitude, uvec4(kScaledNormal)));
  return uintBitsToFloat(result | (bits & kSignMask));
}

// x + y rounded as IEEE fp32 does it, denormal results and operands included.
// Only operands both below 2^-100 can give a denormal sum; they are added in
// a domain scaled by 2^64 where everything is normal.
vec4 add_ieee(vec4 x, float y) {
  uvec4 xb = floatBitsToUint(x);
  uint yb = floatBitsToUint(y);
  bvec4 both_small = lessThan(max(xb & kAbsMask, uvec4(yb & kAbsMask)), uvec4(kSmallOperand));
  vec4 small_sum = scale_down(scale_up(xb) + scale_up(uvec4(yb)));
  precise vec4 sum = x + y;
  return mix(sum, small_sum, both_small);
}

// atan with Cephes-style range reduction to |t| <= tan(pi/8), branch-free.
vec4 atan_ieee(vec4 v) {
  uvec4 bits = floatBitsToUint(v);
  uvec4 sign = bits & kSignMask;
  vec4 a = uintBitsToFloat(bits & kAbsMask);  // |v| without a float op
  bvec4 big = greaterThan(a, vec4(2.414213562373095));   // tan(3pi/8)
  bvec4 mid = greaterThan(a, vec4(0.4142135623730950));  // tan(pi/8)

  // big: atan(a) = pi/2 + atan(-1/a); mid: pi/4 + atan((a-1)/(a+1)); else atan(a).
  // One division for all three; NaN stays NaN (both tests false, NaN / 1).
  vec4 num = mix(mix(a, a - 1.0, mid), vec4(-1.0), big);
  vec4 den = mix(mix(vec4(1.0), a + 1.0, mid), a, big);
  precise vec4 t = num / den;
  // pi/2 and pi/4 as a rounded head plus the tail of the rounding error, so
  // the constant itself costs no accuracy.
  vec4 base_hi = mix(mix(vec4(0.0), vec4(0.785398185253143310546875), mid),
                     vec4(1.57079637050628662109375), big);
  vec4 base_lo = mix(mix(vec4(0.0), vec4(-2.1855695e-08), mid), vec4(-4.371139e-08), big);

  vec4 z = t * t;
  vec4 p = (((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z
            - 3.33329491539e-1) * z;
  precise vec4 r = base_hi + (t + (t * p + base_lo));

  // Tiny and denormal inputs: atan(a) rounds to a; copy the bits.
  uvec4 magnitude = bits & kAbsMask;
  uvec4 result = mix(floatBitsToUint(r), magnitude, lessThan(magnitude, uvec4(kTinyAtan)));
  return uintBitsToFloat(result | sign);
}

vec4 op(vec4 x) { return atan_ieee(add_ieee(x, params.offset)); }

// One 32-bit word: one fp32 element or two fp16 elements.
uint process_word(uint word) {
  if (kHalf) {
    vec4 y = op(vec4(unpackHalf2x16(word), 0.0, 0.0));
    return packHalf2x16(y.xy);
  }
  return floatBitsToUint(op(vec4(uintBitsToFloat(word), 0.0, 0.0, 0.0)).x);
}

uvec4 process_vector(uvec4 words) {
  if (kHalf) {
    vec4 lo = op(vec4(unpackHalf2x16(words.x), unpackHalf2x16(words.y)));
    vec4 hi = op(vec4(unpackHalf2x16(words.z), unpackHalf2x16(words.w)));
    return uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy),
                 packHalf2x16(hi.zw));
  }
  return floatBitsToUint(op(uintBitsToFloat(words)));
}

void main() {
  uint bytes = params.count * (kHalf ? 2u : 4u);
  uint vectors = bytes / 16u;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < vectors; i += stride) {
    dst_vectors[i] = process_vector(src_vectors[i]);
  }
  if (gl_GlobalInvocationID.x != 0u) return;
  uint tail_bytes = bytes % 16u;
  uint first = vectors * 4u;
  uint words = (tail_bytes + 3u) / 4u;
  for (uint w = 0u; w < words; ++w) {
    uint word = process_word(src_words[first + w]);
    // An odd fp16 count ends in half a word: keep the other half as it was.
    if (kHalf && w + 1u == words && (tail_bytes & 2u) != 0u) {
      word = (word & 0xffffu) | (dst_words[first + w] & 0xffff0000u);
    }
    dst_words[first + w] = word;
  }
}
