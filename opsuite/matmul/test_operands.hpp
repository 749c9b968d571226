// Operands of MatMul's unit tests (cpu_test.cpp, device_test.cpp): shapes'
// element counts and deterministic fills.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace oprig::opsuite::matmul::testing {

inline size_t count(const std::vector<int64_t>& shape) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

// Small integers in [-4, 4] (fp32 products and sums stay exact), or values in [-1, 1].
inline std::vector<float> values(size_t n, uint32_t seed, bool small_ints) {
  std::vector<float> v(n);
  uint32_t x = seed * 2654435761u + 7;
  for (float& e : v) {
    x = x * 1664525u + 1013904223u;
    e = small_ints ? static_cast<float>(static_cast<int>((x >> 8) % 9) - 4)
                   : static_cast<float>((x >> 8) % 20001) / 10000.0f - 1.0f;
  }
  return v;
}

}  // namespace oprig::opsuite::matmul::testing
