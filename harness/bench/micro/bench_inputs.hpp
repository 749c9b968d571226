// Input values the ops' bench.cpp files make alike: a reproducible uniform
// fill and its tensor in fp32 or fp16. Used by LayerNorm's and RMSNorm's
// benchmarks (their cpu and device rows time the same values).
#pragma once

#include <cstdint>
#include <vector>

#include "oprig/oprig_package.h"
#include "runner/kernel_session.hpp"

namespace oprig::bench {

// `n` values in [low, high) from a linear congruential generator seeded with
// `seed` (the same values on every run and machine).
std::vector<float> uniform_values(int64_t n, uint32_t seed, float low, float high);

// The values as a tensor of `dtype`: FLOAT_32, or FLOAT_16 rounded once.
harness::HostTensor float_tensor(oprig_dtype dtype, std::vector<int64_t> shape, const std::vector<float>& values);

}  // namespace oprig::bench
