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
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

const char* const kTransformations[] = {"ALIGN_CORNERS", "HALF_PIXEL", "ASYMMETRIC"};
const char* const kRoundings[] = {"ROUND_PREFER_FLOOR", "ROUND_PREFER_CEIL", "FLOOR", "CEIL"};
const oprig_cpu_isa kIsas[] = {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

struct Resizing {
  int64_t out_height, out_width;
  std::string mode, transformation, rounding = "ROUND_PREFER_FLOOR";
};

HostTensor run_resize(CpuBackend& backend, const HostTensor& in, const Resizing& r) {
  oprig_tensor out{};
  out.dtype = in.dtype;
  const ParamList params = ParamList()
                               .add_int("output_height", r.out_height)
                               .add_int("output_width", r.out_width)
                               .add_string("mode", r.mode)
                               .add_string("coordinate_transformation", r.transformation)
                               .add_string("nearest_mode", r.rounding);
  KernelSession s(backend, cpu_impl(), "Resize", params, {in}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0);
}

std::vector<float> values(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t x = seed * 2654435761u + 11;
  for (float& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<float>(x >> 8) * 0x1p-24f * 8.0f - 4.0f;  // [-4, 4)
  }
  return v;
}

// The input coordinate of output index x as an exact fraction p / q (q > 0).
struct Fraction {
  int64_t p, q;
};
Fraction coordinate(const std::string& t, int64_t x, int64_t in, int64_t out) {
  if (t == "ALIGN_CORNERS") return out == 1 ? Fraction{0, 1} : Fraction{x * (in - 1), out - 1};
  if (t == "HALF_PIXEL") return {(2 * x + 1) * in - out, 2 * out};
  return {x * in, out};
}
int64_t floor_div(int64_t p, int64_t q) { return p >= 0 ? p / q : -((-p + q - 1) / q); }
int64_t ceil_div(int64_t p, int64_t q) { return -floor_div(-p, q); }

int64_t exact_nearest(const std::string& rounding, Fraction f, int64_t in) {
  int64_t i;
  if (rounding == "ROUND_PREFER_FLOOR") i = ceil_div(2 * f.p - f.q, 2 * f.q);  // ceil(x - 1/2)
  else if (rounding == "ROUND_PREFER_CEIL") i = floor_div(2 * f.p + f.q, 2 * f.q);  // floor(x + 1/2)
  else if (rounding == "FLOOR") i = floor_div(f.p, f.q);
  else i = ceil_div(f.p, f.q);
  return std::min(std::max<int64_t>(i, 0), in - 1);
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
        for (int64_t n = 0; n < s.n; ++n)
          for (int64_t y = 0; y < s.out_h; ++y)
            for (int64_t xo = 0; xo < s.out_w; ++xo) {
              const int64_t iy = exact_nearest(rounding, coordinate(t, y, s.h, s.out_h), s.h);
              const int64_t ix = exact_nearest(rounding, coordinate(t, xo, s.w, s.out_w), s.w);
              for (int64_t c = 0; c < s.c; ++c)
                want.push_back(x[static_cast<size_t>(((n * s.h + iy) * s.w + ix) * s.c + c)]);
            }
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

// The spec's blend in double, neighbours and weights from double coordinates.
std::vector<double> bilinear_in_double(const std::vector<float>& x, const std::vector<int64_t>& d, int64_t out_h,
                                       int64_t out_w, const std::string& t) {
  auto axis = [&](int64_t o, int64_t in, int64_t out, int64_t* first, int64_t* second) {
    const Fraction f = coordinate(t, o, in, out);
    const double c = std::min(std::max(static_cast<double>(f.p) / static_cast<double>(f.q), 0.0),
                              static_cast<double>(in - 1));
    *first = static_cast<int64_t>(std::floor(c));
    *second = std::min(*first + 1, in - 1);
    return c - static_cast<double>(*first);
  };
  std::vector<double> out;
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t y = 0; y < out_h; ++y)
      for (int64_t xo = 0; xo < out_w; ++xo) {
        int64_t y0, y1, x0, x1;
        const double wy = axis(y, d[1], out_h, &y0, &y1), wx = axis(xo, d[2], out_w, &x0, &x1);
        for (int64_t c = 0; c < d[3]; ++c) {
          auto at = [&](int64_t h, int64_t w) {
            return static_cast<double>(x[static_cast<size_t>(((n * d[1] + h) * d[2] + w) * d[3] + c)]);
          };
          out.push_back((1 - wx) * ((1 - wy) * at(y0, x0) + wy * at(y1, x0)) +
                        wx * ((1 - wy) * at(y0, x1) + wy * at(y1, x1)));
        }
      }
  return out;
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
