#version 450
// org.oprig.calibration FmaPeak on Vulkan: independent scalar FMA chains per
// invocation, 8 or (WIDE) 16, and the local size, as specialization
// constants the host picks by device type. A CPU driver (lavapipe) runs 8
// invocations in the lanes of one 256-bit register, so 8 chains cover the
// FMA latency of two FMA units and 16 would spill. A GPU gets most of its
// parallelism from resident warps; 16 chains per invocation keep every
// scheduler issuing an FMA each cycle even where occupancy is partial, and
// make the loop's own instructions (counter, compare, branch) a small share
// of those issued.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool WIDE = false;
layout(std430, set = 0, binding = 0) readonly buffer AB { float ab[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Params { uint iterations; } params;

void main() {
  float a = ab[0], b = ab[1];
  float acc0 = 1.000, acc1 = 1.001, acc2 = 1.002, acc3 = 1.003;
  float acc4 = 1.004, acc5 = 1.005, acc6 = 1.006, acc7 = 1.007;
  float acc8 = 1.008, acc9 = 1.009, acc10 = 1.010, acc11 = 1.011;
  float acc12 = 1.012, acc13 = 1.013, acc14 = 1.014, acc15 = 1.015;
  for (uint it = 0u; it < params.iterations; ++it) {
    acc0 = fma(acc0, a, b);
    acc1 = fma(acc1, a, b);
    acc2 = fma(acc2, a, b);
    acc3 = fma(acc3, a, b);
    acc4 = fma(acc4, a, b);
    acc5 = fma(acc5, a, b);
    acc6 = fma(acc6, a, b);
    acc7 = fma(acc7, a, b);
    if (WIDE) {  // a constant once specialised: no branch in the pipeline
      acc8 = fma(acc8, a, b);
      acc9 = fma(acc9, a, b);
      acc10 = fma(acc10, a, b);
      acc11 = fma(acc11, a, b);
      acc12 = fma(acc12, a, b);
      acc13 = fma(acc13, a, b);
      acc14 = fma(acc14, a, b);
      acc15 = fma(acc15, a, b);
    }
  }
  float sum = ((acc0 + acc1) + (acc2 + acc3)) + ((acc4 + acc5) + (acc6 + acc7));
  if (WIDE) sum += ((acc8 + acc9) + (acc10 + acc11)) + ((acc12 + acc13) + (acc14 + acc15));
  result[gl_GlobalInvocationID.x] = sum;
}
