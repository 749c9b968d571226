// Work-group reductions through local memory (OpenCL 1.2 has no
// work_group_reduce_*, and OpenCL 3.0 makes them optional: NVIDIA's driver
// lacks them). For 1-D work-groups whose size is a power of two; `scratch`
// holds get_local_size(0) elements. Every work-item of the group must make
// the call (it holds barriers), and every one gets the result. The tree's
// order is fixed by the group size, so a result is the same from run to run.

inline float oprig_group_sum(float v, local float* scratch) {
  const size_t lane = get_local_id(0);
  scratch[lane] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t half_size = get_local_size(0) / 2; half_size > 0; half_size >>= 1) {
    if (lane < half_size) scratch[lane] += scratch[lane + half_size];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float sum = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);  // the scratch may be reused at once
  return sum;
}

// NaN wins (fmax returns the other operand).
inline float oprig_max_nan(float a, float b) { return isnan(a) ? a : isnan(b) ? b : fmax(a, b); }

inline float oprig_group_max(float v, local float* scratch) {
  const size_t lane = get_local_id(0);
  scratch[lane] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t half_size = get_local_size(0) / 2; half_size > 0; half_size >>= 1) {
    if (lane < half_size) scratch[lane] = oprig_max_nan(scratch[lane], scratch[lane + half_size]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float result = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}
