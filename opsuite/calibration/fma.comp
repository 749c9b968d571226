#version 450
// org.oprig.calibration FmaPeak on Vulkan: 8 independent scalar FMA chains
// per invocation. A CPU driver (lavapipe) runs 8 invocations in the lanes of
// one 256-bit register, so 8 chains cover the FMA latency of two FMA units;
// a GPU gets its parallelism from the invocations themselves.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer AB { float ab[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Params { uint iterations; } params;

void main() {
  float a = ab[0], b = ab[1];
  float acc0 = 1.000, acc1 = 1.001, acc2 = 1.002, acc3 = 1.003;
  float acc4 = 1.004, acc5 = 1.005, acc6 = 1.006, acc7 = 1.007;
  for (uint it = 0u; it < params.iterations; ++it) {
    acc0 = fma(acc0, a, b);
    acc1 = fma(acc1, a, b);
    acc2 = fma(acc2, a, b);
    acc3 = fma(acc3, a, b);
    acc4 = fma(acc4, a, b);
    acc5 = fma(acc5, a, b);
    acc6 = fma(acc6, a, b);
    acc7 = fma(acc7, a, b);
  }
  result[gl_GlobalInvocationID.x] = ((acc0 + acc1) + (acc2 + acc3)) + ((acc4 + acc5) + (acc6 + acc7));
}
