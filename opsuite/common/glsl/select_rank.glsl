// Selection by value with ties broken by position, for ArgMax and TopK: the
// ranks of ../opencl/select_rank.cl as uvec2 (x: the key biased to unsigned
// order, y: ~index for the lower index among equal keys, index for the
// higher), compared high word first: 64-bit integers are an optional
// feature. uvec2(0) is below every rank whose low word is not 0 (an empty
// slot; where the low word can be 0 it decodes to that same index). Keys
// come from the bits, never from float compares, so NaN needs no care and
// denormals order correctly although lavapipe flushes them.
#ifndef OPRIG_SELECT_RANK_GLSL
#define OPRIG_SELECT_RANK_GLSL

// A key whose signed order is the op's order of values: NaN (any sign,
// any payload) above +Inf, -0 equal to +0.
int oprig_key_f32(uint bits) {
  uint magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return 0x7fffffff;
  return (bits >> 31) != 0u ? -int(magnitude) : int(magnitude);
}
int oprig_key_f16(uint bits) {
  uint magnitude = bits & 0x7fffu;
  if (magnitude > 0x7c00u) return 0x7fffffff;
  return (bits & 0x8000u) != 0u ? -int(magnitude) : int(magnitude);
}

uvec2 oprig_rank(int key, uint low) { return uvec2(uint(key) ^ 0x80000000u, low); }
bool oprig_rank_above(uvec2 a, uvec2 b) { return a.x != b.x ? a.x > b.x : a.y > b.y; }
uvec2 oprig_rank_max(uvec2 a, uvec2 b) { return oprig_rank_above(b, a) ? b : a; }

#endif
