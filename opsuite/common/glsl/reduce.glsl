// Work-group reductions through shared memory, for shaders whose work-group
// is 1-D with a power-of-two gl_WorkGroupSize.x (local_size_x_id = 0 and
// VulkanPipelines::kLocalSize, or a literal size). Every invocation of the
// group must make the call (it holds barriers), and every one gets the
// result. The tree's order is fixed by the group size, so a result is the
// same from run to run. Before including, a shader may define
// OPRIG_REDUCE_SIZE (the group size) when its size is not gl_WorkGroupSize.x.
#ifndef OPRIG_REDUCE_GLSL
#define OPRIG_REDUCE_GLSL

#ifndef OPRIG_REDUCE_SIZE
#define OPRIG_REDUCE_SIZE gl_WorkGroupSize.x
#endif

shared float oprig_reduce_scratch[OPRIG_REDUCE_SIZE];

float oprig_group_sum(float v) {
  uint lane = gl_LocalInvocationIndex;
  oprig_reduce_scratch[lane] = v;
  barrier();
  for (uint half_size = OPRIG_REDUCE_SIZE / 2u; half_size > 0u; half_size >>= 1u) {
    if (lane < half_size) oprig_reduce_scratch[lane] += oprig_reduce_scratch[lane + half_size];
    barrier();
  }
  float sum = oprig_reduce_scratch[0];
  barrier();  // the scratch may be reused at once
  return sum;
}

// NaN wins (GLSL's max leaves it undefined).
float oprig_max_nan(float a, float b) { return isnan(a) ? a : isnan(b) ? b : max(a, b); }

float oprig_group_max(float v) {
  uint lane = gl_LocalInvocationIndex;
  oprig_reduce_scratch[lane] = v;
  barrier();
  for (uint half_size = OPRIG_REDUCE_SIZE / 2u; half_size > 0u; half_size >>= 1u) {
    if (lane < half_size)
      oprig_reduce_scratch[lane] = oprig_max_nan(oprig_reduce_scratch[lane], oprig_reduce_scratch[lane + half_size]);
    barrier();
  }
  float result = oprig_reduce_scratch[0];
  barrier();
  return result;
}

#endif
