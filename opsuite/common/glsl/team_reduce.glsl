// Reductions over the invocations of one slice ("team") when a workgroup
// holds several slices, for the slice kernels of Softmax, LayerNorm and
// RMSNorm (the GLSL twin of common/opencl/team_reduce.cl; the host side is
// common/slice_layout.hpp): each slice has `members` invocations (a power of
// two), member m of a team at lane first + m * stride (stride 1: adjacent;
// stride = teams: interleaved). Every invocation of the workgroup must make
// the call with the same members and stride, and each gets its team's result.
//
// With OPRIG_TEAM_SUBGROUP defined (the shader then enables
// GL_KHR_shader_subgroup_basic and GL_KHR_shader_subgroup_shuffle), members
// that share a subgroup combine by a butterfly of subgroupShuffleXor, without
// shared memory or barriers; only a team wider than a subgroup finishes
// through shared memory. Lanes then number invocations by subgroup
// (oprig_team_lane), so the butterfly's partners are lanes; the workgroup
// size must be a multiple of the subgroup size. Without it, a shared-memory
// tree. Either way the order is fixed: the same bits from run to run.
// Needs float_float.glsl; OPRIG_TEAM_GROUP may name the workgroup size
// (default gl_WorkGroupSize.x); a shader that sums two float-float values
// at once (oprig_team_sum_ff2) defines OPRIG_TEAM_SUM_FF2 first (its shared
// memory is declared only then).
#ifndef OPRIG_TEAM_REDUCE_GLSL
#define OPRIG_TEAM_REDUCE_GLSL

#ifndef OPRIG_TEAM_GROUP
#define OPRIG_TEAM_GROUP gl_WorkGroupSize.x
#endif

shared int oprig_team_scratch_int[OPRIG_TEAM_GROUP];
shared vec2 oprig_team_scratch_ff[OPRIG_TEAM_GROUP];
#ifdef OPRIG_TEAM_SUM_FF2
shared vec4 oprig_team_scratch_ff2[OPRIG_TEAM_GROUP];
#endif

uint oprig_team_lane() {
#ifdef OPRIG_TEAM_SUBGROUP
  return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
#else
  return gl_LocalInvocationIndex;
#endif
}

// The smallest half-team step the shared-memory tree takes: steps below it
// were done by the butterfly (their partners share the subgroup).
uint oprig_team_shared_floor(uint stride) {
#ifdef OPRIG_TEAM_SUBGROUP
  return max(1u, gl_SubgroupSize / stride);
#else
  return 1u;
#endif
}

int oprig_team_max_int(int v, uint lane, uint member, uint members, uint stride) {
#ifdef OPRIG_TEAM_SUBGROUP
  for (uint offset = stride; offset < min(members * stride, gl_SubgroupSize); offset <<= 1u)
    v = max(v, subgroupShuffleXor(v, offset));
  if (members * stride <= gl_SubgroupSize) return v;
#endif
  oprig_team_scratch_int[lane] = v;
  barrier();
  for (uint half_size = members / 2u; half_size >= oprig_team_shared_floor(stride); half_size >>= 1u) {
    if (member < half_size)
      oprig_team_scratch_int[lane] = max(oprig_team_scratch_int[lane], oprig_team_scratch_int[lane + half_size * stride]);
    barrier();
  }
  int result = oprig_team_scratch_int[lane - member * stride];
  barrier();  // the scratch may be reused at once
  return result;
}

// The sum of float-float values (oprig_ff_add).
vec2 oprig_team_sum_ff(vec2 v, uint lane, uint member, uint members, uint stride) {
#ifdef OPRIG_TEAM_SUBGROUP
  for (uint offset = stride; offset < min(members * stride, gl_SubgroupSize); offset <<= 1u)
    v = oprig_ff_add(v, subgroupShuffleXor(v, offset));
  if (members * stride <= gl_SubgroupSize) return v;
#endif
  oprig_team_scratch_ff[lane] = v;
  barrier();
  for (uint half_size = members / 2u; half_size >= oprig_team_shared_floor(stride); half_size >>= 1u) {
    if (member < half_size)
      oprig_team_scratch_ff[lane] = oprig_ff_add(oprig_team_scratch_ff[lane], oprig_team_scratch_ff[lane + half_size * stride]);
    barrier();
  }
  vec2 result = oprig_team_scratch_ff[lane - member * stride];
  barrier();
  return result;
}

#ifdef OPRIG_TEAM_SUM_FF2
vec4 oprig_ff2_add(vec4 a, vec4 b) { return vec4(oprig_ff_add(a.xy, b.xy), oprig_ff_add(a.zw, b.zw)); }

// Two float-float sums at once (.xy and .zw), in one tree.
vec4 oprig_team_sum_ff2(vec4 v, uint lane, uint member, uint members, uint stride) {
#ifdef OPRIG_TEAM_SUBGROUP
  for (uint offset = stride; offset < min(members * stride, gl_SubgroupSize); offset <<= 1u)
    v = oprig_ff2_add(v, subgroupShuffleXor(v, offset));
  if (members * stride <= gl_SubgroupSize) return v;
#endif
  oprig_team_scratch_ff2[lane] = v;
  barrier();
  for (uint half_size = members / 2u; half_size >= oprig_team_shared_floor(stride); half_size >>= 1u) {
    if (member < half_size)
      oprig_team_scratch_ff2[lane] = oprig_ff2_add(oprig_team_scratch_ff2[lane], oprig_team_scratch_ff2[lane + half_size * stride]);
    barrier();
  }
  vec4 result = oprig_team_scratch_ff2[lane - member * stride];
  barrier();
  return result;
}
#endif

#endif
