// fast_divide.hpp: the multiplier and shifts make the device's multiply-high
// division (fast_divide() is the same formula as oprig_divide in
// opencl/fast_divide.cl and glsl/fast_divide.glsl) equal C++'s integer
// division for divisors 1 to 3000, every power of two and its neighbours,
// the largest ones, and numerators around multiples of each and at the top
// of the 32-bit range.
#include "common/fast_divide.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace oprig::opsuite {
namespace {

std::vector<uint32_t> divisors() {
  std::vector<uint32_t> d;
  for (uint32_t i = 1; i <= 3000; ++i) d.push_back(i);
  for (int bit = 2; bit < 32; ++bit)
    for (int64_t delta : {-1, 0, 1}) d.push_back(static_cast<uint32_t>((int64_t{1} << bit) + delta));
  for (uint32_t x : {0x7fffffffu, 0x80000001u, 0xfffffffeu, 0xffffffffu, 6700417u, 2654435761u})
    d.push_back(x);
  uint32_t x = 12345;
  for (int i = 0; i < 2000; ++i) d.push_back((x = x * 1664525u + 1013904223u) | 1u);
  return d;
}

TEST(FastDivide, EqualsIntegerDivisionForEveryKindOfDivisorAndNumerator) {
  for (uint32_t d : divisors()) {
    const FastDivisor f = fast_divisor(d);
    std::vector<uint64_t> numerators = {0, 1, 2, 3, UINT32_MAX, UINT32_MAX - 1, uint64_t{UINT32_MAX} - d + 1};
    for (uint64_t k : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{1000}, (uint64_t{UINT32_MAX} / d) / 2,
                       uint64_t{UINT32_MAX} / d})
      for (int64_t delta : {-1, 0, 1}) numerators.push_back(k * d + static_cast<uint64_t>(delta));
    uint32_t x = d;
    for (int i = 0; i < 64; ++i) numerators.push_back(x = x * 1664525u + 1013904223u);
    for (uint64_t n : numerators) {
      if (n > UINT32_MAX) continue;
      const auto n32 = static_cast<uint32_t>(n);
      ASSERT_EQ(fast_divide(n32, f), n32 / d) << n32 << " / " << d;
    }
  }
}

}  // namespace
}  // namespace oprig::opsuite
