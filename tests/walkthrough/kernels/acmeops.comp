// LeakyRelu as a GLSL compute shader, compiled to SPIR-V by glslc at build
// time and embedded by oprig_add_package as acmeops_spirv.
//
// Both tensors are bound as arrays of 32-bit words, so no optional 16-bit
// storage feature is needed: a word is one fp32 element or two fp16 ones
// (unpackHalf2x16/packHalf2x16). One invocation per word, in a grid-stride
// loop for tensors larger than one dispatch. x >= 0 is copied bit for bit,
// so drivers that flush denormals in arithmetic still pass them through.
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const bool kHalf = false;  // FLOAT_16 tensors when true
// The bug the walkthrough injects (vulkan.cpp sets it when built with
// -DWALKTHROUGH_BUG=1): alpha is dropped for negative x; every oracle must
// catch it.
layout(constant_id = 1) const bool kDropAlpha = false;

layout(std430, set = 0, binding = 0) readonly buffer Input { uint x[]; };
layout(std430, set = 0, binding = 1) buffer Output { uint y[]; };

layout(push_constant) uniform Push {
  uint count;   // elements
  float alpha;  // the op's `alpha` parameter
} push;

float leaky(float v) { return v >= 0.0 ? v : (kDropAlpha ? 1.0 : push.alpha) * v; }

// One fp16 element in the low 16 bits: the sign bit clear means x >= 0 (or a
// NaN, which passes through as NaN either way).
uint leaky_half(uint h) {
  if ((h & 0x8000u) == 0u) return h;
  return packHalf2x16(vec2(leaky(unpackHalf2x16(h).x), 0.0)) & 0xffffu;
}

void main() {
  const uint words = kHalf ? (push.count + 1u) / 2u : push.count;
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < words; i += stride) {
    const uint w = x[i];
    if (kHalf) {
      uint r = leaky_half(w & 0xffffu);
      // An odd count ends in half a word: the upper half is not ours, keep it.
      r |= 2u * i + 1u < push.count ? leaky_half(w >> 16) << 16 : y[i] & 0xffff0000u;
      y[i] = r;
    } else {
      y[i] = (w & 0x80000000u) == 0u ? w : floatBitsToUint(leaky(uintBitsToFloat(w)));
    }
  }
}
