#version 450
// org.oprig.builtins Cast, vulkan, between INT_32, FLOAT_32, UINT_8, INT_8
// and BOOL_8 (spec constant kTypes = from << 8 | to, oprig_dtype codes), with
// the host's rules: to integers truncate toward zero and saturate (NaN -> 0),
// to FLOAT_32 round to nearest even, to BOOL_8 non-zero (by the bits for
// FLOAT_32, so denormals count as on an IEEE host), from BOOL_8 0 or 1.
// Each invocation writes one output word: one 4-byte or four 1-byte elements.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kTypes = 0u;

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint count;
} p;

const uint kFloat32 = 2u, kInt8 = 4u, kInt32 = 6u, kUint8 = 8u, kBool8 = 12u;
const uint kFrom = kTypes >> 8, kTo = kTypes & 0xffu;

bool wide(uint t) { return t == kFloat32 || t == kInt32; }

uint load(uint i) {
  if (wide(kFrom)) return x_words[i];
  return (x_words[i >> 2] >> (8u * (i & 3u))) & 0xffu;
}

// Truncate toward zero and saturate to [lo, hi]; NaN gives 0.
int float_to_int(uint bits, float lo, float hi, int lo_i, int hi_i) {
  if ((bits & 0x7fffffffu) > 0x7f800000u) return 0;
  float v = uintBitsToFloat(bits);
  if (v >= hi) return hi_i;
  if (v <= lo) return lo_i;
  return int(trunc(v));  // |v| < 2^31: exact; a denormal truncates to 0 either way
}

uint convert(uint raw) {
  if (kFrom == kFloat32) {
    if (kTo == kFloat32) return raw;
    if (kTo == kBool8) return (raw & 0x7fffffffu) != 0u ? 1u : 0u;
    if (kTo == kInt32) return uint(float_to_int(raw, -2147483648.0, 2147483648.0, int(0x80000000u), 0x7fffffff));
    if (kTo == kUint8) return uint(float_to_int(raw, 0.0, 255.0, 0, 255));
    return uint(float_to_int(raw, -128.0, 127.0, -128, 127)) & 0xffu;
  }
  int v = kFrom == kInt32 ? int(raw) : kFrom == kInt8 ? (int(raw << 24) >> 24) : kFrom == kBool8 ? (raw != 0u ? 1 : 0)
                                                                                                  : int(raw);
  if (kTo == kFloat32) return floatBitsToUint(float(v));
  if (kTo == kInt32) return uint(v);
  if (kTo == kUint8) return uint(clamp(v, 0, 255));
  if (kTo == kInt8) return uint(clamp(v, -128, 127)) & 0xffu;
  return v != 0 ? 1u : 0u;
}

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (wide(kTo)) {
    for (uint i = gl_GlobalInvocationID.x; i < p.count; i += stride) y_words[i] = convert(load(i));
    return;
  }
  uint words = (p.count + 3u) / 4u;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += stride) {
    uint word = 0u, kept = 0xffffffffu;
    for (uint j = 0u; j < 4u; ++j) {
      uint i = 4u * w + j;
      if (i >= p.count) break;
      word |= convert(load(i)) << (8u * j);
      kept &= ~(0xffu << (8u * j));
    }
    y_words[w] = word | (y_words[w] & kept);
  }
}
