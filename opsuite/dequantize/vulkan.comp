#version 450
// Dequantize, vulkan: y = fp32(code - zero_point) * scale, UINT_8 or INT_8
// codes (spec constant kSigned), the cpu kernel's formula. code - zero_point
// is exact in int and its conversion exact (|zero point| <= 2^24 - 256,
// checked by the host), so the product is the one rounding: correctly
// rounded (OpFMul is, in Vulkan).
//
// Denormals: with a normal scale every non-zero product is at least the
// scale, so normal (or +-Inf): drivers that flush fp32 denormals (lavapipe)
// give the IEEE result. A subnormal scale m 2^-149 (m < 2^23, the host
// passes it as `mantissa`) never enters a float operation: p = RN(d m) is
// normal, and d m 2^-149 rounded once to fp32 is p 2^-149 when p >= 2^23 (a
// normal result, the same 24 bits: the exponent field minus 149) and p's
// integer value as the denormal's mantissa when p < 2^23 (then p = d m
// exactly).
//
// The codes are bound as 32-bit words (4 codes each, no 8-bit storage
// feature needed). Each invocation turns one word into one uvec4 of results
// per step of a grid-stride loop; invocation 0 also converts the last n % 4.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kSigned = false;  // INT_8 codes when true

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer YVectors { uvec4 y_vectors[]; };
layout(std430, set = 0, binding = 1) writeonly buffer YWords { uint y_words[]; };

layout(push_constant) uniform Params {
  uint count;       // codes
  int zero_point;
  float scale;
  uint subnormal;   // 1: the scale is an fp32 denormal, applied as mantissa 2^-149
  float mantissa;   // its integer mantissa (exact in fp32)
} p;

ivec4 codes_of(uint word) {
  if (kSigned) {
    int w = int(word);
    return ivec4(bitfieldExtract(w, 0, 8), bitfieldExtract(w, 8, 8), bitfieldExtract(w, 16, 8),
                 bitfieldExtract(w, 24, 8));
  }
  return ivec4((uvec4(word) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu);
}

uvec4 dequantize(ivec4 codes) {
  vec4 d = vec4(codes - p.zero_point);
  if (p.subnormal == 0u) return floatBitsToUint(d * p.scale);
  vec4 product = d * p.mantissa;
  uvec4 bits = floatBitsToUint(product);
  uvec4 normal = bits - (149u << 23);
  uvec4 denormal = uvec4(abs(product)) | (bits & 0x80000000u);
  return mix(normal, denormal, lessThan(bits & 0x7fffffffu, uvec4(0x4b000000u)));  // |product| < 2^23
}

void main() {
  uint words = p.count / 4u;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += stride) y_vectors[w] = dequantize(codes_of(x_words[w]));
  uint left = p.count % 4u;
  if (gl_GlobalInvocationID.x != 0u || left == 0u) return;
  uvec4 last = dequantize(codes_of(x_words[words]));  // the binding is whole words: the last one is in range
  for (uint i = 0u; i < left; ++i) y_words[4u * words + i] = last[i];
}
