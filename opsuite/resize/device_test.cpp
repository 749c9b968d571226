// The opencl and vulkan Resize kernels through the package ABI, where the
// plan's small cases do not reach: outputs of many work-groups along every
// dimension of the dispatch, every channel vector width and path (channel
// counts whose groups are and are not powers of two, counts that fill
// 16-byte vectors, whole words, or neither), several images. NEAREST must
// copy exactly the bits (NaN payloads, denormals) of the element exact
// rational arithmetic picks (test_oracle.hpp), under every transformation
// and rounding. BILINEAR on sizes whose weights are 0, 1/4, 1/2 or 3/4 and
// small-integer inputs is exact in fp32 and fp16, so it must equal the blend
// in double. Skipped where the backend is absent.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/test_device.hpp"
#include "core/half.hpp"
#include "resize/test_oracle.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using resize_test::bilinear_in_double;
using resize_test::kRoundings;
using resize_test::kTransformations;
using resize_test::nearest_sources;
using resize_test::Resizing;

class ResizeDevice : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!test_device(GetParam()).present()) GTEST_SKIP() << GetParam() << " is absent: " << test_device(GetParam()).why;
  }
  HostTensor run(const HostTensor& in, const Resizing& r) {
    TestDevice& d = test_device(GetParam());
    return resize_test::run_resize(*d.backend, *d.impl, in, r);
  }
};

// Channel counts for every path: 48 (16-byte vectors of fp32 and fp16; 12
// and 6 groups), 64 (16 and 8), 6 and 2 (whole words), 3 and 1 (fp16 element
// by element), 130.
const int64_t kChannels[] = {48, 64, 6, 2, 3, 1, 130};

std::string where(const std::string& backend, const std::vector<int64_t>& d, const Resizing& r, oprig_dtype dtype) {
  return backend + " " + r.mode + " " + r.transformation + " " + r.rounding + " dtype " + std::to_string(dtype) + " " +
         std::to_string(d[1]) + "x" + std::to_string(d[2]) + "x" + std::to_string(d[3]) + " -> " +
         std::to_string(r.out_height) + "x" + std::to_string(r.out_width);
}

TEST_P(ResizeDevice, NearestCopiesTheBitsExactArithmeticPicks) {
  // Up and down, ties (10 -> 20 lands on halves under ASYMMETRIC), rows of
  // up to 97 * 130 / 2 work-items.
  struct Sizes {
    int64_t n, h, w, out_h, out_w;
  };
  const Sizes sizes[] = {{2, 10, 7, 20, 97}, {1, 19, 33, 6, 5}};
  uint32_t bits = 12345;
  for (const Sizes& z : sizes)
    for (int64_t c : kChannels) {
      const std::vector<int64_t> dims = {z.n, z.h, z.w, c};
      const auto count = static_cast<size_t>(z.n * z.h * z.w * c);
      // Every bit pattern may come: NaNs with payloads, denormals, infinities.
      std::vector<uint32_t> words(count);
      std::vector<uint16_t> halves(count);
      for (size_t i = 0; i < count; ++i) {
        bits = bits * 1664525u + 1013904223u;
        words[i] = bits;
        halves[i] = static_cast<uint16_t>(bits >> 16);
      }
      const HostTensor in32 = HostTensor::of(OPRIG_DTYPE_FLOAT_32, dims, words);
      const HostTensor in16 = HostTensor::of(OPRIG_DTYPE_FLOAT_16, dims, halves);
      for (const char* t : kTransformations)
        for (const char* rounding : kRoundings) {
          const Resizing r{z.out_h, z.out_w, "NEAREST", t, rounding};
          std::vector<uint32_t> want32;
          std::vector<uint16_t> want16;
          for (size_t from : nearest_sources(dims, r)) {
            want32.push_back(words[from]);
            want16.push_back(halves[from]);
          }
          EXPECT_EQ(run(in32, r).as<uint32_t>(), want32) << where(GetParam(), dims, r, OPRIG_DTYPE_FLOAT_32);
          EXPECT_EQ(run(in16, r).as<uint16_t>(), want16) << where(GetParam(), dims, r, OPRIG_DTYPE_FLOAT_16);
        }
    }
}

TEST_P(ResizeDevice, BilinearWithExactWeightsEqualsTheBlendInDouble) {
  // ALIGN_CORNERS from 9x33 to 17x65: coordinates x / 2, weights 0 and 1/2.
  // HALF_PIXEL 2x from 11x24 to 22x48: coordinates x / 2 - 1/4, weights 1/4
  // and 3/4 (0 where clamped). Integers in [-8, 8]: every product and sum is
  // a multiple of 1/16 below 2^7, exact in fp32 and in fp16.
  struct Sizes {
    int64_t n, h, w, out_h, out_w;
    const char* transformation;
  };
  const Sizes sizes[] = {{2, 9, 33, 17, 65, "ALIGN_CORNERS"}, {1, 11, 24, 22, 48, "HALF_PIXEL"}};
  uint32_t seed = 3;
  for (const Sizes& z : sizes)
    for (int64_t c : kChannels) {
      const std::vector<int64_t> dims = {z.n, z.h, z.w, c};
      const auto count = static_cast<size_t>(z.n * z.h * z.w * c);
      std::vector<float> x(count);
      std::vector<uint16_t> halves(count);
      for (size_t i = 0; i < count; ++i) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = static_cast<float>(static_cast<int>((seed >> 16) % 17) - 8);
        halves[i] = float_to_half(x[i]);
      }
      const Resizing r{z.out_h, z.out_w, "BILINEAR", z.transformation};
      const std::vector<double> want = bilinear_in_double(x, dims, z.out_h, z.out_w, z.transformation);
      const std::vector<float> got32 = run(HostTensor::of(OPRIG_DTYPE_FLOAT_32, dims, x), r).as<float>();
      const std::vector<uint16_t> got16 = run(HostTensor::of(OPRIG_DTYPE_FLOAT_16, dims, halves), r).as<uint16_t>();
      ASSERT_EQ(got32.size(), want.size());
      ASSERT_EQ(got16.size(), want.size());
      size_t wrong32 = 0, wrong16 = 0;
      for (size_t i = 0; i < want.size(); ++i) {
        wrong32 += static_cast<double>(got32[i]) != want[i];
        wrong16 += static_cast<double>(half_to_float(got16[i])) != want[i];
      }
      EXPECT_EQ(wrong32, 0u) << where(GetParam(), dims, r, OPRIG_DTYPE_FLOAT_32);
      EXPECT_EQ(wrong16, 0u) << where(GetParam(), dims, r, OPRIG_DTYPE_FLOAT_16);
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, ResizeDevice, ::testing::Values("opencl", "vulkan"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace oprig::harness
