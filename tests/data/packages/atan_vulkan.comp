#version 450
// The vulkan kernel of the test packages: y = atan(x + offset), FLOAT_32,
// with GLSL's atan. `past_end` != 0 plants the out-of-bounds store: one
// element past the end of the output, which the host binds with a range of
// exactly the tensor's bytes.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(std430, set = 0, binding = 1) buffer Dst { float dst[]; };
layout(push_constant) uniform Params {
  uint count;
  uint past_end;
  float offset;
} params;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < params.count) dst[i] = atan(src[i] + params.offset);
  if (i == 0u && params.past_end != 0u) dst[params.count] = atan(src[0] + params.offset);
}
