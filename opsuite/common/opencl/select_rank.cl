// Selection by value with ties broken by position, for ArgMax and TopK (and
// any kernel that picks elements the way their cpu kernels do): every
// element becomes a 64-bit rank, unique within its line, whose unsigned
// order is the op's order. The high word is the element's key biased to
// unsigned order, the low word says which of two equal keys wins (~index:
// the lower index; index: the higher). Keys come from the bits, never from
// float compares, so NaN needs no care and denormals order correctly where
// a driver flushes them. Rank 0 is below every rank whose low word is not 0
// (an empty slot); where the low word can be 0 (ArgMax's last index, index
// 0), rank 0 decodes to that same index, so an empty slot never changes an
// answer. The same ranks in GLSL: ../glsl/select_rank.glsl. A team's
// greatest rank takes two trees of team_reduce.cl (the greatest key, then
// the greatest low word among the members holding it): ArgMax's.

// A key whose signed order is the op's order of values: NaN (any sign,
// any payload) above +Inf, -0 equal to +0.
inline int oprig_key_f32(const uint bits) {
  const uint magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return INT_MAX;
  return (bits >> 31) != 0 ? -(int)magnitude : (int)magnitude;
}
inline int oprig_key_f16(const uint bits) {
  const uint magnitude = bits & 0x7fffu;
  if (magnitude > 0x7c00u) return INT_MAX;
  return (bits & 0x8000u) != 0 ? -(int)magnitude : (int)magnitude;
}

inline ulong oprig_rank(const int key, const uint low) { return upsample((uint)key ^ 0x80000000u, low); }
