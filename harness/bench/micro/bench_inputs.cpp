#include "bench_inputs.hpp"

#include <utility>

#include "core/half.hpp"

namespace oprig::bench {

std::vector<float> uniform_values(int64_t n, uint32_t seed, float low, float high) {
  std::vector<float> v(static_cast<size_t>(n));
  for (float& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = low + (high - low) * static_cast<float>(seed >> 8) * 0x1p-24f;
  }
  return v;
}

harness::HostTensor float_tensor(oprig_dtype dtype, std::vector<int64_t> shape, const std::vector<float>& values) {
  if (dtype == OPRIG_DTYPE_FLOAT_32) return harness::HostTensor::of(dtype, std::move(shape), values);
  std::vector<uint16_t> h(values.size());
  for (size_t i = 0; i < values.size(); ++i) h[i] = float_to_half(values[i]);
  return harness::HostTensor::of(dtype, std::move(shape), h);
}

}  // namespace oprig::bench
