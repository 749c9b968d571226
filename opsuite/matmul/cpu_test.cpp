// The cpu MatMul kernel through the package ABI. Expected values are worked
// by hand here, or come from an independent oracle: an int64 triple loop over
// small integers, whose fp32 products and sums are exact in any order. The
// AVX-512 and AVX2 paths sum in the same order with FMA, so they agree bit
// for bit; the scalar path (no FMA at the baseline) agrees within the fp32
// dot-product bound; thread counts never change a bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/half.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "matmul/test_operands.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

ParamList transposes(bool a, bool b) { return ParamList().add_bool("transpose_a", a).add_bool("transpose_b", b); }

HostTensor run_once(CpuBackend& backend, const ParamList& params, const HostTensor& a, const HostTensor& b,
                    std::vector<int64_t>* shape = nullptr) {
  oprig_tensor out{};
  out.dtype = a.dtype;
  KernelSession s(backend, cpu_impl(), "MatMul", params, {a, b}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  if (shape != nullptr) shape->assign(s.outputs()[0].dims, s.outputs()[0].dims + s.outputs()[0].rank);
  return s.output(0);
}

using opsuite::matmul::testing::count;
using opsuite::matmul::testing::values;

const std::optional<oprig_cpu_isa> kVectorIsas[] = {OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};

TEST(MatMulCpu, HandWorkedProductAndItsTransposes) {
  // [[1, 2, 3], [4, 5, 6]] x [[7, 8], [9, 10], [11, 12]] = [[58, 64], [139, 154]].
  const HostTensor a = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6});
  const HostTensor b = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {3, 2}, std::vector<float>{7, 8, 9, 10, 11, 12});
  const HostTensor at = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {3, 2}, std::vector<float>{1, 4, 2, 5, 3, 6});
  const HostTensor bt = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {2, 3}, std::vector<float>{7, 9, 11, 8, 10, 12});
  const std::vector<float> expected = {58, 64, 139, 154};
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    EXPECT_EQ(run_once(backend, transposes(false, false), a, b).as<float>(), expected) << "isa " << isa;
    EXPECT_EQ(run_once(backend, transposes(true, false), at, b).as<float>(), expected) << "isa " << isa;
    EXPECT_EQ(run_once(backend, transposes(false, true), a, bt).as<float>(), expected) << "isa " << isa;
    EXPECT_EQ(run_once(backend, transposes(true, true), at, bt).as<float>(), expected) << "isa " << isa;
  }
}

TEST(MatMulCpu, BatchDimensionsBroadcastLikeNumPy) {
  // a: [2, 1, 1, 2] holds [[1, 2]] and [[3, 4]]; b: [3, 2, 1] holds columns [1, 0], [0, 1], [1, 1].
  // out [2, 3, 1, 1]: a_i . b_j = [[1, 2, 3], [3, 4, 7]].
  const HostTensor a = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {2, 1, 1, 2}, std::vector<float>{1, 2, 3, 4});
  const HostTensor b = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {3, 2, 1}, std::vector<float>{1, 0, 0, 1, 1, 1});
  CpuBackend backend(2);
  std::vector<int64_t> shape;
  const std::vector<float> y = run_once(backend, transposes(false, false), a, b, &shape).as<float>();
  EXPECT_EQ(shape, (std::vector<int64_t>{2, 3, 1, 1}));
  EXPECT_EQ(y, (std::vector<float>{1, 2, 3, 3, 4, 7}));
}

// Every ISA and thread count, small integers: exact against an int64 oracle,
// across tile edges, two K slices (K > 384), column blocks (N > 480), row
// chunks (M > 1536), transposes and broadcast batches.
TEST(MatMulCpu, ExactOnSmallIntegersForEveryPathAndThreadCount) {
  struct Shape {
    std::vector<int64_t> a, b;
    bool ta, tb;
  };
  const std::vector<Shape> shapes = {{{40, 400}, {400, 45}, false, false},
                                     {{400, 13}, {33, 400}, true, true},
                                     {{3, 1, 7, 9}, {2, 9, 35}, false, false},
                                     {{1, 70}, {70, 1}, false, false},
                                     {{9, 5}, {5, 500}, false, false},
                                     {{1540, 3}, {3, 7}, false, false}};
  for (const Shape& sh : shapes) {
    const HostTensor a = HostTensor::of(OPRIG_DTYPE_FLOAT_32, sh.a, values(count(sh.a), 1, true));
    const HostTensor b = HostTensor::of(OPRIG_DTYPE_FLOAT_32, sh.b, values(count(sh.b), 2, true));
    // The oracle: logical A [batch_a, M, K] and B [batch_b, K, N] with the batch broadcast by hand below.
    const size_t ra = sh.a.size(), rb = sh.b.size();
    const int64_t m = sh.ta ? sh.a[ra - 1] : sh.a[ra - 2], k = sh.ta ? sh.a[ra - 2] : sh.a[ra - 1];
    const int64_t n = sh.tb ? sh.b[rb - 2] : sh.b[rb - 1];
    const std::vector<float> av = a.as<float>(), bv = b.as<float>();
    // Only the third shape has batches: a [3, 1], b [2] -> out [3, 2].
    const int64_t batch_a = static_cast<int64_t>(count(sh.a)) / (m * k), batch_b = static_cast<int64_t>(count(sh.b)) / (k * n);
    const int64_t batches = batch_a == 3 && batch_b == 2 ? 6 : 1;
    std::vector<float> expected;
    for (int64_t bi = 0; bi < batches; ++bi) {
      const int64_t ia = batches == 6 ? bi / 2 : 0, ib = batches == 6 ? bi % 2 : 0;
      for (int64_t r = 0; r < m; ++r)
        for (int64_t c = 0; c < n; ++c) {
          int64_t sum = 0;
          for (int64_t q = 0; q < k; ++q) {
            const float x = av[static_cast<size_t>(ia * m * k + (sh.ta ? q * m + r : r * k + q))];
            const float y = bv[static_cast<size_t>(ib * k * n + (sh.tb ? c * k + q : q * n + c))];
            sum += static_cast<int64_t>(x) * static_cast<int64_t>(y);
          }
          expected.push_back(static_cast<float>(sum));
        }
    }
    for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
      if (isa > host_cpu_isa()) continue;
      for (unsigned threads : {1u, 2u}) {
        CpuBackend backend(threads, isa);
        EXPECT_EQ(run_once(backend, transposes(sh.ta, sh.tb), a, b).as<float>(), expected)
            << "isa " << isa << " threads " << threads << " m " << m << " k " << k << " n " << n;
      }
    }
  }
}

// Values in [-1, 1]: AVX-512 and AVX2 agree bit for bit, every thread count
// agrees, and the scalar path stays within the plan's fp32 bound.
TEST(MatMulCpu, VectorPathsAgreeBitForBitAndScalarWithinTheBound) {
  const HostTensor a = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {2, 97, 390}, values(2 * 97 * 390, 3, false));
  const HostTensor b = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {390, 53}, values(390 * 53, 4, false));
  CpuBackend scalar(1, OPRIG_CPU_ISA_SCALAR);
  const std::vector<float> base = run_once(scalar, transposes(false, false), a, b).as<float>();
  std::optional<std::vector<float>> vector_result;
  for (const auto& isa : kVectorIsas) {
    if (*isa > host_cpu_isa()) continue;
    for (unsigned threads : {1u, 2u}) {
      CpuBackend backend(threads, isa);
      const std::vector<float> y = run_once(backend, transposes(false, false), a, b).as<float>();
      if (!vector_result) vector_result = y;
      EXPECT_EQ(y, *vector_result) << "isa " << *isa << " threads " << threads;
      for (size_t i = 0; i < y.size(); ++i)
        ASSERT_LE(std::fabs(y[i] - base[i]), 2 * 390.0 * 390.0 * 0x1p-24) << "element " << i;
    }
  }
}

TEST(MatMulCpu, HalfPrecisionWidensMultipliesAndRoundsOnce) {
  // [[2048, 1, 1], [0.5, 1.5, 0]] x [[1, 1], [1, 1024], [1, 0]] = [[2050, 3072], [2, 1536.5]].
  // 2050 is an fp16 value, but summing in fp16 would give 2048 (2048 + 1 ties to
  // even, twice); 1536.5 is a tie between fp16 neighbours and rounds to even, 1536.
  auto half = [](std::vector<float> v) {
    std::vector<uint16_t> h;
    for (float f : v) h.push_back(float_to_half(f));
    return h;
  };
  const HostTensor a = HostTensor::of(OPRIG_DTYPE_FLOAT_16, {2, 3}, half({2048, 1, 1, 0.5f, 1.5f, 0}));
  const HostTensor b = HostTensor::of(OPRIG_DTYPE_FLOAT_16, {3, 2}, half({1, 1, 1, 1024, 1, 0}));
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    const std::vector<uint16_t> y = run_once(backend, transposes(false, false), a, b).as<uint16_t>();
    ASSERT_EQ(y.size(), 4u);
    EXPECT_EQ(half_to_float(y[0]), 2050.0f) << "isa " << isa;
    EXPECT_EQ(half_to_float(y[1]), 3072.0f) << "isa " << isa;
    EXPECT_EQ(half_to_float(y[2]), 2.0f) << "isa " << isa;
    EXPECT_EQ(half_to_float(y[3]), 1536.0f) << "isa " << isa;
  }
}

TEST(MatMulCpu, EmptySumIsZeroAndEmptyOutputsAreFine) {
  CpuBackend backend(2);
  const HostTensor a = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {3, 0}, std::vector<float>{});
  const HostTensor b = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {0, 5}, std::vector<float>{});
  EXPECT_EQ(run_once(backend, transposes(false, false), a, b).as<float>(), std::vector<float>(15, 0.0f));
  std::vector<int64_t> shape;
  const HostTensor m0 = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {0, 4}, std::vector<float>{});
  const HostTensor b4 = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {4, 3}, values(12, 5, true));
  EXPECT_TRUE(run_once(backend, transposes(false, false), m0, b4, &shape).as<float>().empty());
  EXPECT_EQ(shape, (std::vector<int64_t>{0, 3}));
}

TEST(MatMulCpu, RejectsMismatchedDepthBatchesThatDoNotBroadcastAndVectors) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  auto prepare_status = [&](std::vector<int64_t> sa, std::vector<int64_t> sb) {
    const HostTensor a = HostTensor::of(OPRIG_DTYPE_FLOAT_32, sa, values(count(sa), 1, true));
    const HostTensor b = HostTensor::of(OPRIG_DTYPE_FLOAT_32, sb, values(count(sb), 2, true));
    return KernelSession(backend, cpu_impl(), "MatMul", ParamList(), {a, b}, {out}).prepare_status();
  };
  EXPECT_EQ(prepare_status({3, 4}, {5, 2}), OPRIG_STATUS_INVALID_ARGUMENT);        // K 4 vs 5
  EXPECT_EQ(prepare_status({2, 3, 4}, {3, 4, 2}), OPRIG_STATUS_INVALID_ARGUMENT);  // batch 2 vs 3
  EXPECT_EQ(prepare_status({4}, {4, 2}), OPRIG_STATUS_INVALID_ARGUMENT);           // rank 1
  EXPECT_EQ(prepare_status({2, 3, 4}, {1, 4, 2}), OPRIG_STATUS_OK);
}

}  // namespace
}  // namespace oprig::harness
