// 64-byte aligned fp32 scratch for the cpu kernels that pack or widen whole
// tensors (Conv2D, DepthwiseConv2D, MatMul): a cache line (and an AVX-512
// vector) apart, at least 16 floats so a zero-sized tensor still gets a
// buffer a full vector may read. nullptr when the allocation fails.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <memory>

namespace oprig::opsuite {

struct FreeAlignedFloats {
  void operator()(float* p) const { std::free(p); }
};
using AlignedFloats = std::unique_ptr<float[], FreeAlignedFloats>;

inline AlignedFloats aligned_floats(size_t count) {
  const size_t bytes = (std::max<size_t>(count, 16) * sizeof(float) + 63) / 64 * 64;
  return AlignedFloats(static_cast<float*>(std::aligned_alloc(64, bytes)));
}

}  // namespace oprig::opsuite
