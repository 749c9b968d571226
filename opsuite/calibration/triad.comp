#version 450
// org.oprig.calibration Triad on Vulkan: a = b + scalar * c, vec4 steps of a
// grid-stride loop.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer B { vec4 b[]; };
layout(std430, set = 0, binding = 1) readonly buffer C { vec4 c[]; };
layout(std430, set = 0, binding = 2) writeonly buffer A { vec4 a[]; };
layout(push_constant) uniform Params { uint vectors; float scalar; } params;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < params.vectors; i += stride) a[i] = fma(vec4(params.scalar), c[i], b[i]);
}
