#version 450
// ArgMax, vulkan, for devices with subgroup shuffles in compute shaders: a
// team's invocations that share a subgroup reduce by subgroupShuffleXor
// (team_reduce.glsl). The shader is vulkan.glsl.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#define OPRIG_TEAM_SUBGROUP 1
#include "vulkan.glsl"
