#version 450
// ArgMax, vulkan, on any device: team reductions through shared memory.
// The shader is vulkan.glsl.
#include "vulkan.glsl"
