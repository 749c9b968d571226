// The cpu ArgMax kernel through the package ABI: every ISA path and thread
// count gives the index a plain loop in this file finds (greatest value, NaN
// above everything, first or last among ties) for FLOAT_32, FLOAT_16 and
// INT_32, along rows (split over threads when long) and columns (vector lanes
// across the inner dimension, with tails); hand-derived answers for NaN,
// signed zeros, infinities and extreme integers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/select_test_support.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

std::vector<int32_t> argmax(CpuBackend& backend, const HostTensor& x, int axis, bool last) {
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_INT_32;
  KernelSession s(backend, cpu_impl(), "ArgMax",
                  ParamList().add_int("axis", axis).add_bool("keepdims", false).add_bool("select_last_index", last),
                  {x}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0).as<int32_t>();
}

// The oracle: a plain loop over doubles.
std::vector<int32_t> expected_argmax(const std::vector<double>& v, const std::vector<int64_t>& shape, int axis,
                                     bool last) {
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(shape[d]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= static_cast<size_t>(shape[d]);
  const auto n = static_cast<size_t>(shape[static_cast<size_t>(axis)]);
  auto above = [](double a, double b) { return !std::isnan(b) && (std::isnan(a) || a > b); };
  auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
  std::vector<int32_t> out(outer * inner);
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      size_t best = 0;
      for (size_t k = 1; k < n; ++k) {
        const double a = v[(o * n + k) * inner + i], b = v[(o * n + best) * inner + i];
        if (above(a, b) || (last && same(a, b))) best = k;
      }
      out[o * inner + i] = static_cast<int32_t>(best);
    }
  return out;
}

// Values from few levels (ties everywhere), an occasional NaN for floats.
std::vector<double> values(size_t n, uint32_t seed, bool with_nan) {
  std::vector<double> v(n);
  uint32_t x = seed * 2654435761u + 7;
  for (double& e : v) {
    x = x * 1664525u + 1013904223u;
    const uint32_t r = x >> 8;
    e = static_cast<double>(static_cast<int>(r % 9) - 4) * 0.5;
    if (with_nan && r % 997 == 0) e = std::numeric_limits<double>::quiet_NaN();
  }
  return v;
}

// The levels of values() are multiples of 1 / 2.
HostTensor tensor(oprig_dtype dtype, const std::vector<int64_t>& shape, const std::vector<double>& v) {
  return select_test::tensor_of(dtype, shape, v, 2);
}

TEST(ArgMaxCpu, EveryIsaAndThreadCountFindsTheOraclesIndex) {
  struct Layout {
    std::vector<int64_t> shape;
    int axis;
  };
  const Layout layouts[] = {
      {{5, 1}, 0},          // one column
      {{3, 1000}, 1},       // rows with a vector tail
      {{2, 100003}, 1},     // long rows
      {{1, 200003}, 1},     // one long row, split into parts over threads
      {{1000, 3}, 0},       // narrow columns: masked vectors only
      {{7, 13, 150}, 1},    // full 64-column blocks plus tails
      {{37}, 0},            // a short row (scalar remainder only)
  };
  for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_INT_32}) {
    for (const Layout& l : layouts) {
      size_t n = 1;
      for (int64_t d : l.shape) n *= static_cast<size_t>(d);
      const std::vector<double> v = values(n, static_cast<uint32_t>(n), dtype != OPRIG_DTYPE_INT_32);
      const HostTensor x = tensor(dtype, l.shape, v);
      for (bool last : {false, true}) {
        const std::vector<int32_t> want = expected_argmax(v, l.shape, l.axis, last);
        for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
          if (isa > host_cpu_isa()) continue;
          for (unsigned threads : {1u, 2u}) {
            CpuBackend backend(threads, isa);
            EXPECT_EQ(argmax(backend, x, l.axis, last), want)
                << "dtype " << dtype << " shape[0] " << l.shape[0] << " axis " << l.axis << " last " << last
                << " isa " << isa << " threads " << threads;
          }
        }
      }
    }
  }
}

TEST(ArgMaxCpu, NaNRanksAboveInfinityAndSignedZerosTie) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // Columns (axis 0 of [4, 3]):
  //   col 0: -0, +0, -1, -0    -> first 0, last 3 (zeros tie)
  //   col 1: inf, nan, 5, nan  -> first 1, last 3 (NaN above inf)
  //   col 2: -inf, -inf, -max, -inf -> 2 either way
  const float m = std::numeric_limits<float>::max();
  const std::vector<float> v = {-0.0f, inf, -inf, 0.0f, nan, -inf, -1.0f, 5.0f, -m, -0.0f, nan, -inf};
  const HostTensor x = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {4, 3}, v);
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    EXPECT_EQ(argmax(backend, x, 0, false), (std::vector<int32_t>{0, 1, 2})) << "isa " << isa;
    EXPECT_EQ(argmax(backend, x, 0, true), (std::vector<int32_t>{3, 3, 2})) << "isa " << isa;
  }
}

TEST(ArgMaxCpu, ExtremeIntegersAndConstantRowsAcrossTheThreadSplit) {
  const int32_t lo = std::numeric_limits<int32_t>::min();
  const size_t n = 300001;  // split into parts on two threads
  const HostTensor same = HostTensor::of(OPRIG_DTYPE_INT_32, {1, static_cast<int64_t>(n)}, std::vector<int32_t>(n, lo));
  std::vector<float> f(n, 2.5f);
  const HostTensor flat = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {static_cast<int64_t>(n)}, f);
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    for (unsigned threads : {1u, 2u}) {
      CpuBackend backend(threads, isa);
      EXPECT_EQ(argmax(backend, same, 1, false), std::vector<int32_t>{0});
      EXPECT_EQ(argmax(backend, same, 1, true), std::vector<int32_t>{static_cast<int32_t>(n - 1)});
      EXPECT_EQ(argmax(backend, flat, 0, false), std::vector<int32_t>{0});
      EXPECT_EQ(argmax(backend, flat, 0, true), std::vector<int32_t>{static_cast<int32_t>(n - 1)});
    }
  }
}

TEST(ArgMaxCpu, RejectsAnEmptyAxisAndAnAxisOutOfRange) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_INT_32;
  const HostTensor empty_axis = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {3, 0}, std::vector<float>{});
  KernelSession a(backend, cpu_impl(), "ArgMax", ParamList().add_int("axis", 1), {empty_axis}, {out});
  EXPECT_EQ(a.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  const HostTensor x = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {3, 2}, std::vector<float>(6, 1.0f));
  KernelSession b(backend, cpu_impl(), "ArgMax", ParamList().add_int("axis", -3), {x}, {out});
  EXPECT_EQ(b.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace oprig::harness
