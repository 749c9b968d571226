// Reductions over the work-items of one slice ("team") when a work-group
// holds several slices: the slice kernels of Softmax, LayerNorm and RMSNorm
// give each slice `members` work-items (a power of two) and a 1-D group
// get_local_size(0) / members slices. Member m of a team sits at local id
// first + m * stride: stride 1 keeps a team's work-items adjacent (slices
// contiguous in memory), stride = teams interleaves them (slices strided in
// memory, where neighbouring work-items read neighbouring slices).
// common/slice_layout.hpp chooses the layout. Every work-item of the group
// must make the call with the same members and stride (it holds barriers),
// and each gets its team's result; `scratch` holds get_local_size(0)
// elements. A fixed tree: the same bits from run to run. Uses
// float_float.cl (embedded before this file).

inline int oprig_team_max_int(const int v, local int* scratch, const uint lane, const uint member,
                              const uint members, const uint stride) {
  scratch[lane] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint half_size = members / 2; half_size > 0; half_size >>= 1) {
    if (member < half_size) scratch[lane] = max(scratch[lane], scratch[lane + half_size * stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int result = scratch[lane - member * stride];
  barrier(CLK_LOCAL_MEM_FENCE);  // the scratch may be reused at once
  return result;
}

// The sum of float-float values (oprig_ff_add).
inline float2 oprig_team_sum_ff(const float2 v, local float2* scratch, const uint lane, const uint member,
                                const uint members, const uint stride) {
  scratch[lane] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint half_size = members / 2; half_size > 0; half_size >>= 1) {
    if (member < half_size) scratch[lane] = oprig_ff_add(scratch[lane], scratch[lane + half_size * stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float2 result = scratch[lane - member * stride];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

// Two float-float sums at once (.xy and .zw), in one tree.
inline float4 oprig_team_sum_ff2(const float4 v, local float4* scratch, const uint lane, const uint member,
                                 const uint members, const uint stride) {
  scratch[lane] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint half_size = members / 2; half_size > 0; half_size >>= 1) {
    if (member < half_size) {
      const float4 a = scratch[lane], b = scratch[lane + half_size * stride];
      scratch[lane] = (float4)(oprig_ff_add(a.xy, b.xy), oprig_ff_add(a.zw, b.zw));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float4 result = scratch[lane - member * stride];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}
