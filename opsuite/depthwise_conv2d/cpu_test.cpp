// The cpu DepthwiseConv2D kernel through the package ABI. Expected values are
// worked by hand here, or come from an independent oracle: an int64 loop over
// the window on small integers, exact in any order. The AVX-512 and AVX2
// tiles sum in the same order with FMA and agree bit for bit; the scalar tile
// (no FMA at the baseline) agrees within the fp32 bound; thread counts never
// change a bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/cpu_paths_test.hpp"
#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "depthwise_conv2d/depthwise_test_support.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using depthwise_test::Case;
using depthwise_test::count;
using depthwise_test::f32;
using depthwise_test::oracle;
using depthwise_test::run_once;
using depthwise_test::values;
using depthwise_test::Window;

const oprig_implementation_v1& cpu_impl() { return op_test::implementation(OPRIG_BACKEND_CPU); }

using cpu_paths::kIsas;

TEST(DepthwiseConv2DCpu, HandWorkedChannelsStayApart) {
  // 2x2 image, channel 0 = [1, 2, 3, 4], channel 1 = [10, 20, 30, 40]; 2x2
  // kernel: ones on channel 0, [[1, 0], [0, -1]] on channel 1; bias [0.5, -0.5]:
  // [1 + 2 + 3 + 4 + 0.5, 10 - 40 - 0.5] = [10.5, -30.5].
  const HostTensor in = f32({1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40});
  const HostTensor w = f32({2, 2, 1, 2}, {1, 1, 1, 0, 1, 0, 1, -1});
  const HostTensor b = f32({2}, {0.5f, -0.5f});
  for (oprig_cpu_isa isa : kIsas) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    std::vector<int64_t> shape;
    EXPECT_EQ(run_once(backend, Window{}, {in, w, b}, &shape).as<float>(), (std::vector<float>{10.5f, -30.5f}))
        << "isa " << isa;
    EXPECT_EQ(shape, (std::vector<int64_t>{1, 1, 1, 2}));
  }
}

TEST(DepthwiseConv2DCpu, MultiplierRepeatsEachInputChannel) {
  // Two channels [x, y] per pixel, multiplier 3, 1x1 kernel [1, 2, 3, -1, -2, -3]:
  // each pixel becomes [x, 2x, 3x, -y, -2y, -3y].
  const HostTensor in = f32({1, 1, 2, 2}, {1, 5, 2, 7});
  const HostTensor w = f32({1, 1, 1, 6}, {1, 2, 3, -1, -2, -3});
  for (oprig_cpu_isa isa : kIsas) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    EXPECT_EQ(run_once(backend, Window{}, {in, w}).as<float>(),
              (std::vector<float>{1, 2, 3, -5, -10, -15, 2, 4, 6, -7, -14, -21}))
        << "isa " << isa;
  }
}

// Small integers, every ISA and thread count: exact against the oracle over
// pixel and channel tails, the sliding 3-wide path, multipliers 1, 2, 3 and
// 7, strides, dilations and asymmetric pads, with and without bias.
TEST(DepthwiseConv2DCpu, ExactOnSmallIntegersForEveryPathAndThreadCount) {
  std::vector<Case> cases;
  Case tails{{2, 9, 13, 37}, {3, 3, 1, 37}, {}, true};
  tails.window.top = tails.window.bottom = tails.window.left = tails.window.right = 1;
  cases.push_back(tails);
  Case sliding{{1, 5, 40, 20}, {3, 3, 1, 20}, {}, true};  // interior tiles take the sliding 3-wide path
  sliding.window.top = sliding.window.bottom = sliding.window.left = sliding.window.right = 1;
  cases.push_back(sliding);
  Case wide{{1, 4, 17, 70}, {2, 2, 1, 140}, {}, true};  // multiplier 2 over several vectors
  wide.window.bottom = wide.window.left = 1;
  cases.push_back(wide);
  Case strided{{1, 11, 10, 5}, {3, 2, 1, 15}, {}, false};  // multiplier 3
  strided.window.stride_h = 2;
  strided.window.stride_w = 3;
  strided.window.dilation_h = 2;
  strided.window.top = 2;
  strided.window.right = 3;
  cases.push_back(strided);
  Case single{{1, 6, 6, 1}, {3, 3, 1, 7}, {}, true};  // one channel, multiplier 7
  single.window.top = single.window.bottom = single.window.left = single.window.right = 1;
  cases.push_back(single);
  for (const Case& c : cases) {
    const std::vector<float> x = values(count(c.in), 1, true), w = values(count(c.w), 2, true);
    const std::vector<float> b = values(static_cast<size_t>(c.w[3]), 3, true);
    const std::vector<float> expected = oracle(c, x, w, b);
    std::vector<HostTensor> inputs = {f32(c.in, x), f32(c.w, w)};
    if (c.bias) inputs.push_back(f32({c.w[3]}, b));
    cpu_paths::for_every_path([&](CpuBackend& backend) {
      EXPECT_EQ(run_once(backend, c.window, inputs).as<float>(), expected) << "channels " << c.in[3] << " -> " << c.w[3];
    });
  }
}

TEST(DepthwiseConv2DCpu, VectorPathsAgreeBitForBitAndScalarWithinTheBound) {
  const std::vector<int64_t> in_shape = {1, 19, 23, 48}, w_shape = {3, 3, 1, 96};
  const std::vector<HostTensor> inputs = {f32(in_shape, values(count(in_shape), 4, false)),
                                          f32(w_shape, values(count(w_shape), 5, false)), f32({96}, values(96, 6, false))};
  Window window;
  window.top = window.left = 1;
  // 10 terms an element: the bound is twice gamma_10 * 10.
  cpu_paths::expect_vector_paths_agree(
      [&](CpuBackend& backend) { return run_once(backend, window, inputs).as<float>(); }, 2 * 10.0 * 10.0 * 0x1p-24);
}

TEST(DepthwiseConv2DCpu, HalfPrecisionSumsInFp32AndRoundsOnce) {
  // A 1x3 window of ones over [2048, 1, 1]: 2050 is an fp16 value; summing in
  // fp16 would give 2048 (2048 + 1 ties to even, twice).
  const HostTensor in = op_test::f16({1, 1, 3, 1}, {2048, 1, 1});
  const HostTensor w = op_test::f16({1, 3, 1, 1}, {1, 1, 1});
  for (oprig_cpu_isa isa : kIsas) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    const std::vector<uint16_t> y = run_once(backend, Window{}, {in, w}).as<uint16_t>();
    ASSERT_EQ(y.size(), 1u);
    EXPECT_EQ(half_to_float(y[0]), 2050.0f) << "isa " << isa;
  }
}

TEST(DepthwiseConv2DCpu, RejectsInconsistentShapes) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  auto prepare_status = [&](std::vector<int64_t> in, std::vector<int64_t> w, std::vector<int64_t> b) {
    std::vector<HostTensor> inputs = {f32(in, values(count(in), 1, true)), f32(w, values(count(w), 2, true))};
    if (!b.empty()) inputs.push_back(f32(b, values(count(b), 3, true)));
    return KernelSession(backend, cpu_impl(), "DepthwiseConv2D", Window{}.params(), inputs, {out}).prepare_status();
  };
  EXPECT_EQ(prepare_status({1, 5, 5, 4}, {3, 3, 1, 8}, {8}), OPRIG_STATUS_OK);
  EXPECT_EQ(prepare_status({1, 5, 5, 4}, {3, 3, 2, 8}, {}), OPRIG_STATUS_INVALID_ARGUMENT);  // weights[2] != 1
  EXPECT_EQ(prepare_status({1, 5, 5, 4}, {3, 3, 1, 6}, {}), OPRIG_STATUS_INVALID_ARGUMENT);  // 4 !| 6
  EXPECT_EQ(prepare_status({1, 5, 5, 4}, {3, 3, 1, 8}, {4}), OPRIG_STATUS_INVALID_ARGUMENT); // bias
  EXPECT_EQ(prepare_status({1, 2, 5, 4}, {3, 3, 1, 4}, {}), OPRIG_STATUS_INVALID_ARGUMENT);  // window
}

}  // namespace
}  // namespace oprig::harness
