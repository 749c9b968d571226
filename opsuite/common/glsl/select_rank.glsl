// Selection by value with ties broken by position, for ArgMax and TopK: the
// ranks of ../opencl/select_rank.cl as uvec2 (x: the key biased to unsigned
// order, y: ~index for the lower index among equal keys, index for the
// higher), compared high word first: 64-bit integers are an optional
// feature. uvec2(0) is below every rank whose low word is not 0 (an empty
// slot; where the low word can be 0 it decodes to that same index). Keys
// come from the bits, never from float compares, so NaN needs no care and
// denormals order correctly although lavapipe flushes them.
//
// A shader that wants the team reduction defines OPRIG_RANK_TEAM_SCRATCH
// (its work-group size, a power of two) before including.
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

#ifdef OPRIG_RANK_TEAM_SCRATCH
shared uvec2 oprig_rank_scratch[OPRIG_RANK_TEAM_SCRATCH];

// The greatest rank of each team of `team` invocations (a power of two) of
// the 1-D work-group; a team's members are `spread` local ids apart. Every
// invocation must make the call (it holds barriers); each gets its team's
// rank, the maximum of unique ranks, which no tree order can change.
uvec2 oprig_team_max_rank(uvec2 rank, uint team, uint spread) {
  uint lid = gl_LocalInvocationIndex;
  uint member = (lid / spread) & (team - 1u);
  oprig_rank_scratch[lid] = rank;
  barrier();
  for (uint half_team = team / 2u; half_team > 0u; half_team >>= 1u) {
    if (member < half_team)
      oprig_rank_scratch[lid] = oprig_rank_max(oprig_rank_scratch[lid], oprig_rank_scratch[lid + half_team * spread]);
    barrier();
  }
  uvec2 best = oprig_rank_scratch[lid - member * spread];
  barrier();  // the scratch may be reused at once
  return best;
}
#endif

#endif
