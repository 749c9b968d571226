// The opencl and vulkan Dequantize kernels through the package ABI, on
// whichever backend this machine has (SKIPPED otherwise): every code of
// both types, bit for bit the correctly rounded fp32((code - zero point) *
// scale), under normal scales (fp32(0.1), fp32(3e36), whose products
// overflow to +-Inf), the smallest normal scale and denormal scales (results
// in the denormal range, which drivers that flush fp32 denormals must still
// produce), zero points up to +-(2^24 - 256); lengths that leave a tail and
// one that makes the grid-stride loop go round. The oracle: the product in
// double (exact: 24 bits times 24 bits) rounded once to float.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"

namespace oprig::harness {
namespace {

using op_test::output_of;
using op_test::run_one;

float oracle(int code, int zero_point, float scale) {
  return static_cast<float>(static_cast<double>(code - zero_point) * static_cast<double>(scale));
}

std::vector<float> dequantize(Backend& backend, const std::vector<uint8_t>& codes, float scale,
                              int zero_point, bool is_signed) {
  HostTensor x = HostTensor::of(is_signed ? OPRIG_DTYPE_INT_8 : OPRIG_DTYPE_UINT_8,
                                {static_cast<int64_t>(codes.size())}, codes);
  x.scale = scale;
  x.zero_point = zero_point;
  return run_one(backend, "Dequantize", ParamList(), x, output_of(OPRIG_DTYPE_FLOAT_32)).as<float>();
}

int code_of(uint8_t byte, bool is_signed) { return is_signed ? static_cast<int8_t>(byte) : byte; }

class GpuDequantize : public op_test::DeviceTest {};

TEST_P(GpuDequantize, EveryCodeCorrectlyRounded) {
  std::vector<uint8_t> codes(256 * 2 + 3);
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<uint8_t>(i * 5 + 2);
  const float scales[] = {0.1f, 3.0e36f, 0.0625f, std::bit_cast<float>(0x00800000u), std::bit_cast<float>(0x007fffffu),
                          std::bit_cast<float>(0x00012345u), std::bit_cast<float>(1u), std::bit_cast<float>(0x00400001u)};
  for (float scale : scales) {
    for (bool is_signed : {false, true}) {
      for (int zero_point : {0, is_signed ? -128 : 255, 100, (1 << 24) - 256, -(1 << 24) + 256}) {
        const std::vector<float> got = dequantize(backend(), codes, scale, zero_point, is_signed);
        ASSERT_EQ(got.size(), codes.size());
        for (size_t i = 0; i < codes.size(); ++i) {
          const float want = oracle(code_of(codes[i], is_signed), zero_point, scale);
          ASSERT_EQ(std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(want))
              << "code " << code_of(codes[i], is_signed) << " zero point " << zero_point << " scale " << scale
              << " (0x" << std::hex << std::bit_cast<uint32_t>(scale) << "): got " << got[i] << ", want " << want;
        }
      }
    }
  }
}

// Lengths 1..9 and one past the grid: the results do not depend on where a code sits.
TEST_P(GpuDequantize, TailsAndTheGridStrideLoop) {
  std::vector<uint8_t> codes(4 * (1u << 18) * 2 + 5);
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<uint8_t>(i * 131 + 7);
  const std::vector<float> all = dequantize(backend(), codes, 0.1f, -7, true);
  for (size_t i = 0; i < codes.size(); ++i) ASSERT_EQ(all[i], oracle(code_of(codes[i], true), -7, 0.1f)) << "at " << i;
  for (size_t n = 1; n <= 9; ++n) {
    const std::vector<float> part =
        dequantize(backend(), std::vector<uint8_t>(codes.begin(), codes.begin() + n), 0.1f, -7, true);
    ASSERT_EQ(part.size(), n);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(part[i], all[i]) << "n " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, GpuDequantize, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
