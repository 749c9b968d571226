#version 450
// Pool2D, vulkan, for devices with shaderFloat64 (the backend enables it
// where present): pool2d.glsl with AVG's quotient correctly rounded through
// double and UINT_8 requantised in double as the cpu kernel does.
#define POOL2D_FP64 1
#include "pool2d.glsl"
