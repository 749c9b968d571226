#version 450
// Split, vulkan: the block copy the ops that only move bytes share
// (common/glsl/strided_copy.glsl), dispatched once per block of
// byte_plan.hpp by common/strided_copy_kernel.hpp.
#include "strided_copy.glsl"
