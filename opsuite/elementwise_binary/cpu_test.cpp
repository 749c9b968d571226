// The cpu ElementwiseBinary kernel through the package ABI: the three ISA
// paths agree bit for bit on every operation and type over broadcast shapes
// and thread counts, NaN propagates through MAX and MIN, and integer edge
// cases (INT_MIN / -1, division by zero outside the spec) do not trap.
// Values against which results are judged are spelled out by hand here; the
// conformance cases judge against the fp64 reference.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

const char* const kOperations[] = {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW"};

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

HostTensor run_once(CpuBackend& backend, const std::string& op, const HostTensor& a, const HostTensor& b) {
  oprig_tensor out{};
  out.dtype = a.dtype;
  KernelSession s(backend, cpu_impl(), "ElementwiseBinary", ParamList().add_string("operation", op), {a, b}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0);
}

// Deterministic inputs without zeros (DIV), a mix of magnitudes and signs.
HostTensor filled(oprig_dtype dtype, std::vector<int64_t> shape, uint32_t seed) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  uint32_t x = seed * 2654435761u + 1;
  auto next = [&] { return x = x * 1664525u + 1013904223u; };
  if (dtype == OPRIG_DTYPE_INT_32) {
    std::vector<int32_t> v(n);
    for (auto& e : v) {
      e = static_cast<int32_t>(next() % 17) - 8;
      if (e == 0) e = 3;
    }
    return HostTensor::of(dtype, t.shape, v);
  }
  std::vector<float> f(n);
  for (auto& e : f) e = (static_cast<float>(next() % 2001) - 1000.0f) / 250.0f + 0.001f;
  if (dtype == OPRIG_DTYPE_FLOAT_32) return HostTensor::of(dtype, t.shape, f);
  std::vector<uint16_t> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = float_to_half(f[i]);
  return HostTensor::of(dtype, t.shape, h);
}

struct Shapes {
  std::vector<int64_t> a, b;
};

TEST(ElementwiseBinaryCpu, IsaPathsAndThreadCountsAgreeBitForBit) {
  const std::vector<Shapes> shapes = {{{1000003}, {1000003}},  // one row, split over threads
                                      {{300, 257}, {257}},     // rows, b restarts
                                      {{257, 1}, {1, 300}},    // both broadcast
                                      {{3, 1, 5, 1, 7}, {4, 1, 6, 1}},
                                      {{}, {19}}};
  const std::optional<oprig_cpu_isa> isas[] = {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};
  for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_INT_32}) {
    for (const Shapes& sh : shapes) {
      const HostTensor a = filled(dtype, sh.a, 1), b = filled(dtype, sh.b, 2);
      for (const char* op : kOperations) {
        CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
        const std::vector<std::byte> expected = run_once(baseline, op, a, b).bytes;
        for (const auto& isa : isas) {
          if (isa && *isa > host_cpu_isa()) continue;  // the host lacks it: nothing to compare
          for (unsigned threads : {1u, 2u}) {
            CpuBackend backend(threads, isa);
            EXPECT_EQ(run_once(backend, op, a, b).bytes, expected)
                << op << " dtype " << dtype << " isa " << static_cast<int>(*isa) << " threads " << threads;
          }
        }
      }
    }
  }
}

TEST(ElementwiseBinaryCpu, MaxAndMinPropagateNaNOnEitherSide) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const HostTensor a = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {4}, std::vector<float>{nan, 1.0f, nan, -2.0f});
  const HostTensor b = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {4}, std::vector<float>{1.0f, nan, nan, 3.0f});
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    const std::vector<float> mx = run_once(backend, "MAX", a, b).as<float>();
    const std::vector<float> mn = run_once(backend, "MIN", a, b).as<float>();
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(std::isnan(mx[i])) << "MAX element " << i << " isa " << isa;
      EXPECT_TRUE(std::isnan(mn[i])) << "MIN element " << i << " isa " << isa;
    }
    EXPECT_EQ(mx[3], 3.0f);
    EXPECT_EQ(mn[3], -2.0f);
  }
}

TEST(ElementwiseBinaryCpu, IntegerDivisionTruncatesWrapsAndNeverTraps) {
  const int32_t lo = std::numeric_limits<int32_t>::min();
  const HostTensor a = HostTensor::of(OPRIG_DTYPE_INT_32, {5}, std::vector<int32_t>{7, -7, lo, lo, 5});
  const HostTensor b = HostTensor::of(OPRIG_DTYPE_INT_32, {5}, std::vector<int32_t>{2, 2, -1, 1, 0});
  CpuBackend backend(1);
  const std::vector<int32_t> q = run_once(backend, "DIV", a, b).as<int32_t>();
  EXPECT_EQ(q[0], 3);
  EXPECT_EQ(q[1], -3);
  EXPECT_EQ(q[2], lo);  // -INT_MIN wraps to INT_MIN
  EXPECT_EQ(q[3], lo);
  // q[4] is 5 / 0: outside the spec, any value, but no SIGFPE.
}

TEST(ElementwiseBinaryCpu, RejectsShapesThatDoNotBroadcastAndUnknownOperations) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const HostTensor a = filled(OPRIG_DTYPE_FLOAT_32, {3, 4}, 1), b = filled(OPRIG_DTYPE_FLOAT_32, {5}, 2);
  KernelSession bad_shapes(backend, cpu_impl(), "ElementwiseBinary", ParamList().add_string("operation", "ADD"), {a, b},
                           {out});
  EXPECT_EQ(bad_shapes.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession bad_op(backend, cpu_impl(), "ElementwiseBinary", ParamList().add_string("operation", "XOR"), {a, a},
                       {out});
  EXPECT_EQ(bad_op.create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  // The index form of the enumeration (the spec declares UINT_32) works too: 2 is MUL.
  KernelSession by_index(backend, cpu_impl(), "ElementwiseBinary",
                         ParamList().add_int("operation", 2, OPRIG_DTYPE_UINT_32), {a, a}, {out});
  ASSERT_TRUE(by_index.ok()) << by_index.error();
  ASSERT_EQ(by_index.run(), OPRIG_STATUS_OK);
  const std::vector<float> x = a.as<float>(), y = by_index.output(0).as<float>();
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], x[i] * x[i]);
}

}  // namespace
}  // namespace oprig::harness
