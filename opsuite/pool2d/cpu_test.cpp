// The cpu Pool2D kernel through the package ABI. With small-integer inputs
// every window sum is exact in fp32, so each path must give exactly the
// pooling computed here in double (rounded once to the output type): every ISA
// path and thread count, MAX and AVG, padding counted or not, fp32 and fp16,
// channel counts below, at and above the 64-channel register block. Hand
// values check the layout; NaN wins MAX, padding never does; illegal windows
// are rejected.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "pool2d/test_oracle.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using pool2d_test::codes;
using pool2d_test::floats_of;
using pool2d_test::output_of;
using pool2d_test::params_of;
using pool2d_test::pool_in_double;
using pool2d_test::Pooling;
using pool2d_test::rounded_to;
using pool2d_test::small_ints;
using pool2d_test::tensor_of;

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

HostTensor run_pool(CpuBackend& backend, const HostTensor& in, const Pooling& p) {
  return pool2d_test::run_pool(backend, cpu_impl(), in, p, output_of(static_cast<oprig_dtype>(in.dtype)));
}

TEST(Pool2DCpu, EveryPathMatchesTheDefinitionExactlyOnSmallIntegers) {
  struct Case {
    std::vector<int64_t> shape;
    Pooling pooling;
  };
  const std::vector<Case> cases = {
      {{2, 7, 9, 3}, {"MAX", {3, 3}, {1, 1}, {1, 1, 1, 1}}},
      {{2, 7, 9, 3}, {"AVG", {3, 3}, {1, 1}, {1, 1, 1, 1}}},
      {{1, 9, 8, 64}, {"AVG", {3, 2}, {2, 1}, {2, 1, 0, 1}, true}},
      {{1, 9, 8, 64}, {"MAX", {2, 3}, {1, 2}, {1, 0, 0, 2}}},
      {{1, 6, 6, 130}, {"AVG", {3, 3}, {2, 2}, {1, 1, 1, 1}}},
      {{1, 6, 6, 130}, {"MAX", {6, 6}, {}, {}}},
      {{3, 5, 7, 5}, {"AVG", {5, 7}, {}, {}}},
      {{1, 4, 4, 1}, {"AVG", {4, 4}, {}, {1, 1, 0, 0}, true}},
      {{4, 40, 40, 24}, {"MAX", {3, 3}, {2, 2}, {1, 1, 1, 1}}},  // split between threads
      {{4, 40, 40, 24}, {"AVG", {2, 2}, {2, 2}, {}}}};
  const oprig_cpu_isa isas[] = {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};
  uint32_t seed = 1;
  for (const Case& c : cases) {
    size_t count = 1;
    for (int64_t d : c.shape) count *= static_cast<size_t>(d);
    const std::vector<float> x = small_ints(count, seed++);
    const std::vector<double> want = pool_in_double(x, c.shape, c.pooling);
    for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16}) {
      const HostTensor in = tensor_of(dtype, c.shape, x);
      for (oprig_cpu_isa isa : isas) {
        if (isa > host_cpu_isa()) continue;  // the host lacks it
        for (unsigned threads : {1u, 2u}) {
          CpuBackend backend(threads, isa);
          const std::vector<float> got = floats_of(run_pool(backend, in, c.pooling));
          ASSERT_EQ(got.size(), want.size());
          size_t wrong = 0;
          // One rounding of the exact value: to fp32, and for fp16 on to fp16.
          for (size_t i = 0; i < got.size(); ++i) wrong += got[i] != rounded_to(dtype, want[i]);
          EXPECT_EQ(wrong, 0u) << c.pooling.type << " dtype " << dtype << " isa " << isa << " threads " << threads
                               << " channels " << c.shape[3];
        }
      }
    }
  }
}

TEST(Pool2DCpu, HandValuesOnOneToSixteen) {
  std::vector<float> x(16);
  for (size_t i = 0; i < 16; ++i) x[i] = static_cast<float>(i + 1);
  const HostTensor in = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, 4, 4, 1}, x);
  CpuBackend backend(1);
  EXPECT_EQ(run_pool(backend, in, {"MAX", {2, 2}, {2, 2}, {}}).as<float>(), (std::vector<float>{6, 8, 14, 16}));
  // 3x3 windows 2 apart, padded by 1: corner (1+2+5+6)/4, edge (2+3+4+6+7+8)/6, ...
  EXPECT_EQ(run_pool(backend, in, {"AVG", {3, 3}, {2, 2}, {1, 1, 1, 1}}).as<float>(),
            (std::vector<float>{3.5f, 5.0f, 9.5f, 11.0f}));
  // The same, padding counted: divided by 9 each.
  EXPECT_EQ(run_pool(backend, in, {"AVG", {3, 3}, {2, 2}, {1, 1, 1, 1}, true}).as<float>(),
            (std::vector<float>{14.0f / 9, 30.0f / 9, 57.0f / 9, 99.0f / 9}));
}

TEST(Pool2DCpu, MaxTakesNaNAndNeverThePadding) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // Negative values with padding around: a pad read as 0 would win.
  const HostTensor in =
      HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, 2, 3, 1}, std::vector<float>{-5, -3, nan, -inf, -2, -7});
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    // 2x2 windows, stride 1, padded by 1 all round: 3x4 outputs.
    const std::vector<float> y = run_pool(backend, in, {"MAX", {2, 2}, {1, 1}, {1, 1, 1, 1}}).as<float>();
    ASSERT_EQ(y.size(), 12u);
    const float expected[12] = {-5, -3, nan, nan, -5, -2, nan, nan, -inf, -2, -2, -7};
    for (size_t i = 0; i < 12; ++i) {
      if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(y[i])) << i << " isa " << isa;
      else EXPECT_EQ(y[i], expected[i]) << i << " isa " << isa;
    }
  }
}

std::vector<uint8_t> run_codes(CpuBackend& backend, const HostTensor& in, const Pooling& p, float scale, int32_t zero) {
  return pool2d_test::run_pool(backend, cpu_impl(), in, p, output_of(OPRIG_DTYPE_UINT_8, scale, zero)).as<uint8_t>();
}

TEST(Pool2DCpu, QuantisedCodesPoolExactlyAndRoundHalvesAwayFromZero) {
  // One row of four codes around zero point 100, windows of two, stride 2.
  const HostTensor in = codes({1, 1, 4, 1}, {97, 100, 103, 106}, 0.5f, 100);
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    EXPECT_EQ(run_codes(backend, in, {"MAX", {1, 2}, {1, 2}, {}}, 0.5f, 100), (std::vector<uint8_t>{100, 106}));
    // Means in codes relative to the zero point: (-3 + 0) / 2 = -1.5 -> -2, (3 + 6) / 2 = 4.5 -> 5.
    EXPECT_EQ(run_codes(backend, in, {"AVG", {1, 2}, {1, 2}, {}}, 0.5f, 100), (std::vector<uint8_t>{98, 105}));
    // Another output quantisation (scale 0.25, zero point 10): the real means -0.75 and 2.25 are codes
    // -3 + 10 and 9 + 10; the real maxima 0 and 3 are codes 10 and 22.
    EXPECT_EQ(run_codes(backend, in, {"AVG", {1, 2}, {1, 2}, {}}, 0.25f, 10), (std::vector<uint8_t>{7, 19}));
    EXPECT_EQ(run_codes(backend, in, {"MAX", {1, 2}, {1, 2}, {}}, 0.25f, 10), (std::vector<uint8_t>{10, 22}));
    // Clamped to the code range: real 3 is code 300 at scale 0.01, zero point 0.
    EXPECT_EQ(run_codes(backend, in, {"MAX", {1, 2}, {1, 2}, {}}, 0.01f, 0), (std::vector<uint8_t>{0, 255}));
  }
  // Every code, channel blocks full and partial, padding: all paths and thread counts give the same codes.
  std::vector<uint8_t> many(2 * 20 * 20 * 70);
  for (size_t i = 0; i < many.size(); ++i) many[i] = static_cast<uint8_t>(i * 7 + i / 300);
  const HostTensor big = codes({2, 20, 20, 70}, many, 0.03f, 128);
  for (const char* type : {"MAX", "AVG"}) {
    const Pooling p{type, {3, 3}, {2, 2}, {1, 1, 1, 1}};
    CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
    const std::vector<uint8_t> want = run_codes(baseline, big, p, 0.03f, 128);
    for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
      if (isa > host_cpu_isa()) continue;
      for (unsigned threads : {1u, 2u}) {
        CpuBackend backend(threads, isa);
        EXPECT_EQ(run_codes(backend, big, p, 0.03f, 128), want) << type << " isa " << isa << " threads " << threads;
      }
    }
  }
}

TEST(Pool2DCpu, RejectsWindowsWithoutInputAndMissingParameters) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const HostTensor in = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, 3, 3, 1}, small_ints(9, 3));
  KernelSession pad_as_big_as_kernel(backend, cpu_impl(), "Pool2D", params_of({"MAX", {2, 2}, {}, {2, 0, 0, 0}}), {in},
                                     {out});
  EXPECT_EQ(pad_as_big_as_kernel.create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession window_too_big(backend, cpu_impl(), "Pool2D", params_of({"AVG", {4, 3}, {}, {}}), {in}, {out});
  EXPECT_EQ(window_too_big.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession no_kernel(backend, cpu_impl(), "Pool2D", ParamList().add_string("type", "MAX"), {in}, {out});
  EXPECT_EQ(no_kernel.create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession unknown_type(backend, cpu_impl(), "Pool2D", params_of({"MIN", {2, 2}, {}, {}}), {in}, {out});
  EXPECT_EQ(unknown_type.create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession rank3(backend, cpu_impl(), "Pool2D", params_of({"MAX", {2, 2}, {}, {}}),
                      {HostTensor::of(OPRIG_DTYPE_FLOAT_32, {3, 3, 1}, small_ints(9, 4))}, {out});
  EXPECT_EQ(rank3.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace oprig::harness
