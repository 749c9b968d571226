#version 450
// Softmax, vulkan, for any device: reductions through shared memory. The
// shader is vulkan.glsl; vulkan_subgroup.comp is the same with subgroup
// butterflies.
#include "vulkan.glsl"
