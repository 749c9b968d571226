// The cpu Resize kernel through the package ABI. NEAREST must pick exactly
// the input element that exact rational arithmetic picks (the oracle here
// rounds integer fractions, never a double), on every path, thread count and
// rounding mode, ties included. BILINEAR's paths agree bit for bit (the same
// fp32 operations, no fused multiply-add; large outputs streamed or not) and
// stay within the plan's bound of a double-precision blend written here. Hand values check both; illegal
// sizes are rejected.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "resize/test_oracle.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using resize_test::bilinear_in_double;
using resize_test::kRoundings;
using resize_test::kTransformations;
using resize_test::nearest_sources;
using resize_test::Resizing;
using resize_test::values;

const oprig_cpu_isa kIsas[] = {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

HostTensor run_resize(CpuBackend& backend, const HostTensor& in, const Resizing& r) {
  return resize_test::run_resize(backend, cpu_impl(), in, r);
}

TEST(ResizeCpu, NearestPicksWhatExactArithmeticPicksOnEveryPath) {
  struct Shape {
    int64_t n, h, w, c, out_h, out_w;
  };
  // Sizes whose coordinates land on exact halves (ties) and ones that do not;
  // one element, and one split between threads.
  const Shape shapes[] = {{1, 4, 4, 3, 8, 8}, {1, 2, 2, 1, 7, 7}, {2, 7, 9, 5, 3, 4}, {1, 3, 8, 70, 7, 5},
                          {1, 1, 1, 1, 1, 1}, {1, 5, 3, 2, 1, 1}, {2, 40, 40, 20, 73, 65}};
  for (const Shape& s : shapes) {
    const std::vector<int64_t> dims = {s.n, s.h, s.w, s.c};
    const std::vector<float> x = values(static_cast<size_t>(s.n * s.h * s.w * s.c), 7);
    const HostTensor in = HostTensor::of(OPRIG_DTYPE_FLOAT_32, dims, x);
    for (const char* t : kTransformations) {
      for (const char* rounding : kRoundings) {
        std::vector<float> want;
        for (size_t from : nearest_sources(dims, {s.out_h, s.out_w, "NEAREST", t, rounding})) want.push_back(x[from]);
        for (oprig_cpu_isa isa : kIsas) {
          if (isa > host_cpu_isa()) continue;  // the host lacks it
          for (unsigned threads : {1u, 2u}) {
            CpuBackend backend(threads, isa);
            EXPECT_EQ(run_resize(backend, in, {s.out_h, s.out_w, "NEAREST", t, rounding}).as<float>(), want)
                << t << " " << rounding << " isa " << isa << " threads " << threads << " " << s.h << "x" << s.w
                << " -> " << s.out_h << "x" << s.out_w;
          }
        }
      }
    }
  }
}

TEST(ResizeCpu, BilinearPathsAgreeBitForBitAndStayWithinTheBound) {
  struct Shape {
    std::vector<int64_t> dims;
    int64_t out_h, out_w;
  };
  const Shape shapes[] = {{{1, 4, 5, 3}, 9, 7}, {{2, 7, 9, 64}, 3, 4}, {{1, 3, 3, 130}, 5, 8},
                          {{1, 1, 1, 2}, 3, 3}, {{2, 40, 40, 20}, 73, 65}};
  const double bound = 6 * 0x1p-24 * 4;  // the plan's FLOAT_32 bound for |x| <= 4
  for (const Shape& s : shapes) {
    size_t count = 1;
    for (int64_t d : s.dims) count *= static_cast<size_t>(d);
    const std::vector<float> x = values(count, 3);
    const HostTensor in32 = HostTensor::of(OPRIG_DTYPE_FLOAT_32, s.dims, x);
    std::vector<uint16_t> halves;
    for (float v : x) halves.push_back(float_to_half(v));
    const HostTensor in16 = HostTensor::of(OPRIG_DTYPE_FLOAT_16, s.dims, halves);
    for (const char* t : kTransformations) {
      const Resizing r{s.out_h, s.out_w, "BILINEAR", t};
      CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
      const HostTensor first32 = run_resize(baseline, in32, r), first16 = run_resize(baseline, in16, r);
      const std::vector<double> exact = bilinear_in_double(x, s.dims, s.out_h, s.out_w, t);
      const std::vector<float> got = first32.as<float>();
      ASSERT_EQ(got.size(), exact.size());
      for (size_t i = 0; i < got.size(); ++i) ASSERT_LE(std::fabs(got[i] - exact[i]), bound) << t << " at " << i;
      for (oprig_cpu_isa isa : kIsas) {
        if (isa > host_cpu_isa()) continue;
        for (unsigned threads : {1u, 2u}) {
          CpuBackend backend(threads, isa);
          EXPECT_EQ(run_resize(backend, in32, r).bytes, first32.bytes)
              << t << " fp32 isa " << isa << " threads " << threads;
          EXPECT_EQ(run_resize(backend, in16, r).bytes, first16.bytes)
              << t << " fp16 isa " << isa << " threads " << threads;
        }
      }
    }
  }
}

TEST(ResizeCpu, LargeOutputsStreamedPastTheCacheMatchThePlainPath) {
  // 8 MiB of fp32 output, 32 channels on 128-byte aligned buffers: the vector
  // paths write it with streaming stores, the baseline path with plain ones.
  const std::vector<int64_t> dims = {1, 64, 64, 32};
  const HostTensor in = HostTensor::of(OPRIG_DTYPE_FLOAT_32, dims, values(64 * 64 * 32, 5));
  const Resizing r{256, 256, "BILINEAR", "HALF_PIXEL"};
  CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
  const std::vector<std::byte> want = run_resize(baseline, in, r).bytes;
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    for (unsigned threads : {1u, 2u}) {
      CpuBackend backend(threads, isa);
      EXPECT_EQ(run_resize(backend, in, r).bytes, want) << "isa " << isa << " threads " << threads;
    }
  }
}

TEST(ResizeCpu, HandValues) {
  CpuBackend backend(1);
  // Corners kept, midpoints averaged.
  const HostTensor square = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, 2, 2, 1}, std::vector<float>{0, 2, 4, 6});
  EXPECT_EQ(run_resize(backend, square, {3, 3, "BILINEAR", "ALIGN_CORNERS"}).as<float>(),
            (std::vector<float>{0, 1, 2, 2, 3, 4, 4, 5, 6}));
  // [0, 4] to 4 columns, half pixel: coordinates -0.25, 0.25, 0.75, 1.25, clamped to [0, 1].
  const HostTensor row = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, 1, 2, 1}, std::vector<float>{0, 4});
  EXPECT_EQ(run_resize(backend, row, {1, 4, "BILINEAR", "HALF_PIXEL"}).as<float>(), (std::vector<float>{0, 1, 3, 4}));
  // Asymmetric 2x upsampling lands on halves 0, 0.5, 1, 1.5: prefer floor keeps 0, 0, 1, 1; ceil gives 0, 1, 1, 1.
  EXPECT_EQ(run_resize(backend, row, {1, 4, "NEAREST", "ASYMMETRIC"}).as<float>(), (std::vector<float>{0, 0, 4, 4}));
  EXPECT_EQ(run_resize(backend, row, {1, 4, "NEAREST", "ASYMMETRIC", "ROUND_PREFER_CEIL"}).as<float>(),
            (std::vector<float>{0, 4, 4, 4}));
  // fp16 takes the same path through fp32: 2 and 6 average to 4 exactly.
  const HostTensor halves = HostTensor::of(OPRIG_DTYPE_FLOAT_16, {1, 1, 2, 1},
                                           std::vector<uint16_t>{float_to_half(2.0f), float_to_half(6.0f)});
  EXPECT_EQ(run_resize(backend, halves, {1, 3, "BILINEAR", "ALIGN_CORNERS"}).as<uint16_t>(),
            (std::vector<uint16_t>{float_to_half(2.0f), float_to_half(4.0f), float_to_half(6.0f)}));
}

TEST(ResizeCpu, RejectsEmptyOutputsAndInputsWithoutPixels) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const auto session = [&](const HostTensor& in, int64_t h, int64_t w) {
    return std::make_unique<KernelSession>(backend, cpu_impl(), "Resize",
                                           ParamList().add_int("output_height", h).add_int("output_width", w),
                                           std::vector<HostTensor>{in}, std::vector<oprig_tensor>{out});
  };
  const HostTensor in = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, 2, 2, 1}, values(4, 1));
  EXPECT_EQ(session(in, 0, 3)->create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(session(HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, 0, 2, 1}, std::vector<float>{}), 2, 2)->prepare_status(),
            OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(session(HostTensor::of(OPRIG_DTYPE_FLOAT_32, {2, 2, 1}, values(4, 2)), 2, 2)->prepare_status(),
            OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession no_size(backend, cpu_impl(), "Resize", ParamList().add_int("output_height", 2), {in}, {out});
  EXPECT_EQ(no_size.create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace oprig::harness
