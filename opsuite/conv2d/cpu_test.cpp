// The cpu Conv2D kernel through the package ABI. Expected values are worked
// by hand here, or come from an independent oracle: an int64 loop over the
// window on small integers, whose fp32 products and sums are exact in any
// order. The AVX-512 and AVX2 tiles sum in the same order with FMA and agree
// bit for bit; the scalar tile (no FMA at the baseline) agrees within the
// fp32 bound; thread counts never change a bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/cpu_paths_test.hpp"
#include "conv2d/conv_test_support.hpp"
#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using conv2d_test::Case;
using conv2d_test::Conv;
using conv2d_test::count;
using conv2d_test::f32;
using conv2d_test::oracle;
using conv2d_test::run_once;
using conv2d_test::values;

const oprig_implementation_v1& cpu_impl() { return op_test::implementation(OPRIG_BACKEND_CPU); }

using cpu_paths::kIsas;

TEST(Conv2DCpu, HandWorkedValidWindowWithBias) {
  // 3x3 image 1..9, 2x2 kernel [[1, 0], [0, 1]] (the diagonal), bias 0.5:
  // [[1 + 5, 2 + 6], [4 + 8, 5 + 9]] + 0.5.
  const HostTensor in = f32({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const HostTensor w = f32({2, 2, 1, 1}, {1, 0, 0, 1});
  const HostTensor b = f32({1}, {0.5f});
  Conv conv;
  conv.padding = "VALID";
  for (oprig_cpu_isa isa : kIsas) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    std::vector<int64_t> shape;
    EXPECT_EQ(run_once(backend, conv, {in, w, b}, &shape).as<float>(), (std::vector<float>{6.5f, 8.5f, 12.5f, 14.5f}))
        << "isa " << isa;
    EXPECT_EQ(shape, (std::vector<int64_t>{1, 2, 2, 1}));
  }
}

TEST(Conv2DCpu, SameUpperPadsAfterAndSameLowerPadsBefore) {
  // A 1x4 row [1, 2, 3, 4], kernel 1x2 [1, 10]: SAME keeps 4 outputs with one
  // pixel of padding, after it (UPPER) or before it (LOWER).
  const HostTensor in = f32({1, 1, 4, 1}, {1, 2, 3, 4});
  const HostTensor w = f32({1, 2, 1, 1}, {1, 10});
  Conv upper, lower;
  upper.padding = "SAME_UPPER";
  lower.padding = "SAME_LOWER";
  CpuBackend backend(1);
  EXPECT_EQ(run_once(backend, upper, {in, w}).as<float>(), (std::vector<float>{21, 32, 43, 4}));
  EXPECT_EQ(run_once(backend, lower, {in, w}).as<float>(), (std::vector<float>{10, 21, 32, 43}));
}

// Small integers, every ISA and thread count: exact against the oracle over
// tile and panel edges, strides, dilations, asymmetric pads, groups and a
// depthwise multiplier, with and without bias.
TEST(Conv2DCpu, ExactOnSmallIntegersForEveryPathAndThreadCount) {
  std::vector<Case> cases;
  Case tiles{{2, 7, 9, 40}, {3, 3, 40, 70}, {}, true};  // 126 pixels, 70 channels: partial tiles and panels
  tiles.conv.top = tiles.conv.bottom = tiles.conv.left = tiles.conv.right = 1;
  cases.push_back(tiles);
  Case strided{{1, 11, 10, 5}, {3, 2, 5, 17}, {}, false};
  strided.conv.stride_h = 2;
  strided.conv.stride_w = 3;
  strided.conv.dilation_h = 2;
  strided.conv.top = 2;
  strided.conv.bottom = 0;
  strided.conv.left = 0;
  strided.conv.right = 3;
  cases.push_back(strided);
  Case groups{{1, 6, 6, 12}, {3, 3, 4, 9}, {}, true};
  groups.conv.group = 3;
  groups.conv.top = groups.conv.left = 1;
  cases.push_back(groups);
  Case depthwise{{1, 5, 7, 6}, {3, 3, 1, 18}, {}, true};  // multiplier 3
  depthwise.conv.group = 6;
  depthwise.conv.bottom = depthwise.conv.right = 2;
  cases.push_back(depthwise);
  for (const Case& c : cases) {
    const std::vector<float> x = values(count(c.in), 1, true), w = values(count(c.w), 2, true);
    const std::vector<float> b = values(static_cast<size_t>(c.w[3]), 3, true);
    const std::vector<float> expected = oracle(c, x, w, b);
    std::vector<HostTensor> inputs = {f32(c.in, x), f32(c.w, w)};
    if (c.bias) inputs.push_back(f32({c.w[3]}, b));
    cpu_paths::for_every_path([&](CpuBackend& backend) {
      EXPECT_EQ(run_once(backend, c.conv, inputs).as<float>(), expected)
          << "input " << c.in[1] << "x" << c.in[2] << "x" << c.in[3];
    });
  }
}

TEST(Conv2DCpu, VectorPathsAgreeBitForBitAndScalarWithinTheBound) {
  const std::vector<int64_t> in_shape = {1, 13, 11, 24}, w_shape = {3, 3, 24, 40};
  const std::vector<HostTensor> inputs = {f32(in_shape, values(count(in_shape), 4, false)),
                                          f32(w_shape, values(count(w_shape), 5, false)), f32({40}, values(40, 6, false))};
  Conv conv;
  conv.padding = "SAME_UPPER";
  // 217 terms an element: the bound is twice gamma_217 * 217.
  cpu_paths::expect_vector_paths_agree(
      [&](CpuBackend& backend) { return run_once(backend, conv, inputs).as<float>(); }, 2 * 217.0 * 217.0 * 0x1p-24);
}

TEST(Conv2DCpu, HalfPrecisionSumsInFp32AndRoundsOnce) {
  // One output pixel summing 2048 + 1 + 1 (a 1x3 kernel of ones over [2048, 1, 1]):
  // 2050 is an fp16 value; summing in fp16 would give 2048 (ties to even, twice).
  const HostTensor in = op_test::f16({1, 1, 3, 1}, {2048, 1, 1});
  const HostTensor w = op_test::f16({1, 3, 1, 1}, {1, 1, 1});
  Conv conv;
  conv.padding = "VALID";
  for (oprig_cpu_isa isa : kIsas) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    const std::vector<uint16_t> y = run_once(backend, conv, {in, w}).as<uint16_t>();
    ASSERT_EQ(y.size(), 1u);
    EXPECT_EQ(half_to_float(y[0]), 2050.0f) << "isa " << isa;
  }
}

TEST(Conv2DCpu, EmptyBatchGivesAnEmptyOutput) {
  CpuBackend backend(2);
  std::vector<int64_t> shape;
  const HostTensor in = f32({0, 5, 5, 3}, {});
  const HostTensor w = f32({3, 3, 3, 4}, values(108, 7, true));
  Conv conv;
  conv.top = conv.bottom = conv.left = conv.right = 1;
  EXPECT_TRUE(run_once(backend, conv, {in, w}, &shape).as<float>().empty());
  EXPECT_EQ(shape, (std::vector<int64_t>{0, 5, 5, 4}));
}

TEST(Conv2DCpu, RejectsInconsistentShapesAndParameters) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  auto prepare_status = [&](std::vector<int64_t> in, std::vector<int64_t> w, std::vector<int64_t> b, const Conv& c) {
    std::vector<HostTensor> inputs = {f32(in, values(count(in), 1, true)), f32(w, values(count(w), 2, true))};
    if (!b.empty()) inputs.push_back(f32(b, values(count(b), 3, true)));
    return KernelSession(backend, cpu_impl(), "Conv2D", c.params(), inputs, {out}).prepare_status();
  };
  Conv plain, grouped;
  grouped.group = 2;
  EXPECT_EQ(prepare_status({1, 5, 5, 3}, {3, 3, 3, 4}, {4}, plain), OPRIG_STATUS_OK);
  EXPECT_EQ(prepare_status({1, 5, 5, 3}, {3, 3, 2, 4}, {}, plain), OPRIG_STATUS_INVALID_ARGUMENT);    // channels
  EXPECT_EQ(prepare_status({1, 5, 5, 4}, {3, 3, 2, 3}, {}, grouped), OPRIG_STATUS_INVALID_ARGUMENT);  // 2 !| 3
  EXPECT_EQ(prepare_status({1, 5, 5, 3}, {3, 3, 3, 4}, {5}, plain), OPRIG_STATUS_INVALID_ARGUMENT);   // bias
  EXPECT_EQ(prepare_status({1, 2, 5, 3}, {3, 3, 3, 4}, {}, plain), OPRIG_STATUS_INVALID_ARGUMENT);    // window
  Conv bad_mode;
  bad_mode.padding = "FULL";
  const HostTensor in = f32({1, 5, 5, 3}, values(75, 1, true)), w = f32({3, 3, 3, 4}, values(108, 2, true));
  EXPECT_EQ(KernelSession(backend, cpu_impl(), "Conv2D", bad_mode.params(), {in, w}, {out}).create_status(),
            OPRIG_STATUS_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace oprig::harness
