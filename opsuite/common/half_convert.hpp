// fp16 <-> fp32 conversion of runs of elements for the cpu kernels that
// compute FLOAT_16 in fp32 (Conv2D, DepthwiseConv2D and MatMul widen whole
// tensors; Pool2D, Resize and ElementwiseBinary a window cell, a row or a
// block at a time): once here, so every op rounds the same way (round to
// nearest even, as core/half.hpp) and the F16C paths are written once. The
// F16C functions need a cpu whose backend allows AVX2 (cpu_isa above
// OPRIG_CPU_ISA_SCALAR); they exist only on x86-64. Compiled once, in
// common/half_convert.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace oprig::opsuite {

using WidenFn = void (*)(const uint16_t* src, float* dst, size_t n);
using NarrowFn = void (*)(const float* src, uint16_t* dst, size_t n);

void widen_half_scalar(const uint16_t* src, float* dst, size_t n);
void narrow_half_scalar(const float* src, uint16_t* dst, size_t n);
#if defined(__x86_64__)
void widen_half_f16c(const uint16_t* src, float* dst, size_t n);
void narrow_half_f16c(const float* src, uint16_t* dst, size_t n);
#endif

// The F16C path where `f16c` (and the build is x86-64), else the scalar one.
void widen_half(const void* src, float* dst, size_t n, bool f16c);
void narrow_half(const float* src, void* dst, size_t n, bool f16c);

}  // namespace oprig::opsuite
