// The launch size of the element-wise kernels that loop grid-stride over
// their tensor (Activation, Quantize, Dequantize on opencl and vulkan):
// at most this many work-items / invocations, each handling one vector of 4
// elements per step. 2^18 fills a large GPU (an H100 holds about 270 Ki
// resident threads) while each still loops a while over 16M elements.
#pragma once

#include <cstdint>

namespace oprig::opsuite {

inline constexpr uint64_t kGridStrideMaxItems = uint64_t{1} << 18;

}  // namespace oprig::opsuite
