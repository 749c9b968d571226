#version 450
// org.oprig.calibration Copy on Vulkan: dst = src, one vec4 per invocation
// per step of a grid-stride loop (the dispatch is capped by the device's
// workgroup-count limit).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { vec4 src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { vec4 dst[]; };
layout(push_constant) uniform Params { uint vectors; } params;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < params.vectors; i += stride) dst[i] = src[i];
}
