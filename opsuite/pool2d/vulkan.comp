#version 450
// Pool2D, vulkan, for devices without shaderFloat64: pool2d.glsl with AVG's
// quotient from GLSL's fp32 division and no requantisation to another
// output quantisation (the host refuses it). vulkan_fp64.comp is used where
// the device has shaderFloat64.
#include "pool2d.glsl"
