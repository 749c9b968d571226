// LeakyRelu in OpenCL C, one work-item per element. fp16 goes through
// vload_half/vstore_half_rte, which need no cl_khr_fp16.
// WALKTHROUGH_BUG (set by opencl.cpp when built with -DWALKTHROUGH_BUG=1) is
// the bug the walkthrough injects: alpha is dropped for negative x, so a
// negative x passes through unchanged; every oracle must catch it.
#ifdef WALKTHROUGH_BUG
#define SLOPE(alpha) 1.0f
#else
#define SLOPE(alpha) (alpha)
#endif

__kernel void leaky_relu_f32(__global const float* in, __global float* out, const float alpha, const uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float x = in[i];
  out[i] = x >= 0.0f ? x : SLOPE(alpha) * x;
}

__kernel void leaky_relu_f16(__global const half* in, __global half* out, const float alpha, const uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float x = vload_half(i, in);
  vstore_half_rte(x >= 0.0f ? x : SLOPE(alpha) * x, i, out);
}
