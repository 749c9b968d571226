// The opencl and vulkan MatMul kernels through the package ABI, on what the
// plan's small shapes cannot reach: products crossing many tiles with tails
// in M, N and K, every tile shape of both tables (OPRIG_GEMM_TILES runs the
// GPU tiles on PoCL and lavapipe), fp16 words shared by two work-groups,
// more output matrices than a dispatch has work-groups in z. Expected values
// come from an int64 triple loop over small integers (fp32 products and
// sums exact in any order; in fp16 too while the sums stay below 2048).
// Skipped where a backend is absent (builds without the GPU backends).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/test_device.hpp"
#include "core/half.hpp"
#include "matmul/test_operands.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

// Sets OPRIG_GEMM_TILES ("gpu" or "cpu") for one scope.
class TileTable {
 public:
  explicit TileTable(const std::string& table) {
    if (table.empty())
      unsetenv("OPRIG_GEMM_TILES");
    else
      setenv("OPRIG_GEMM_TILES", table.c_str(), 1);
  }
  ~TileTable() { unsetenv("OPRIG_GEMM_TILES"); }
  TileTable(const TileTable&) = delete;
  TileTable& operator=(const TileTable&) = delete;
};

using opsuite::matmul::testing::count;
using opsuite::matmul::testing::values;

struct Product {
  std::vector<int64_t> a, b;  // shapes as stored (transposed where ta / tb)
  bool ta = false, tb = false;
};

// The oracle: out[batch, r, c] = sum over q of A(r, q) B(q, c) in int64, the
// batch dimensions broadcast right-aligned as NumPy does.
std::vector<float> oracle(const Product& p, const std::vector<float>& av, const std::vector<float>& bv) {
  const size_t ra = p.a.size(), rb = p.b.size(), rank = std::max(ra, rb);
  const int64_t m = p.ta ? p.a[ra - 1] : p.a[ra - 2], k = p.ta ? p.a[ra - 2] : p.a[ra - 1];
  const int64_t n = p.tb ? p.b[rb - 2] : p.b[rb - 1];
  std::vector<int64_t> da(rank - 2, 1), db(rank - 2, 1), dout(rank - 2, 1);
  for (size_t d = 0; d + 2 < rank; ++d) {
    if (d + ra >= rank) da[d] = p.a[d + ra - rank];
    if (d + rb >= rank) db[d] = p.b[d + rb - rank];
    dout[d] = std::max(da[d], db[d]);
  }
  std::vector<float> out;
  for (size_t z = 0; z < count(dout); ++z) {
    size_t rest = z, ia = 0, ib = 0, sa = 1, sb = 1;
    for (size_t d = dout.size(); d-- > 0;) {
      const size_t coord = rest % static_cast<size_t>(dout[d]);
      rest /= static_cast<size_t>(dout[d]);
      ia += (da[d] == 1 ? 0 : coord) * sa;
      ib += (db[d] == 1 ? 0 : coord) * sb;
      sa *= static_cast<size_t>(da[d]);
      sb *= static_cast<size_t>(db[d]);
    }
    const float* a = av.data() + ia * static_cast<size_t>(m * k);
    const float* b = bv.data() + ib * static_cast<size_t>(k * n);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < n; ++c) {
        int64_t sum = 0;
        for (int64_t q = 0; q < k; ++q)
          sum += static_cast<int64_t>(a[p.ta ? q * m + r : r * k + q]) * static_cast<int64_t>(b[p.tb ? c * k + q : q * n + c]);
        out.push_back(static_cast<float>(sum));
      }
  }
  return out;
}

HostTensor tensor(const std::vector<int64_t>& shape, const std::vector<float>& v, bool half) {
  if (!half) return HostTensor::of(OPRIG_DTYPE_FLOAT_32, shape, v);
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) h[i] = float_to_half(v[i]);
  return HostTensor::of(OPRIG_DTYPE_FLOAT_16, shape, h);
}

// The kernel's output as fp32 (fp16 widened exactly); empty with a failure on error.
std::vector<float> run(TestDevice& d, const Product& p, const std::vector<float>& av, const std::vector<float>& bv,
                       bool half) {
  oprig_tensor out{};
  out.dtype = half ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32;
  KernelSession s(*d.backend, *d.impl, "MatMul",
                  ParamList().add_bool("transpose_a", p.ta).add_bool("transpose_b", p.tb),
                  {tensor(p.a, av, half), tensor(p.b, bv, half)}, {out});
  if (!s.ok()) {
    ADD_FAILURE() << s.error();
    return {};
  }
  if (s.run() != OPRIG_STATUS_OK) {
    ADD_FAILURE() << "execute failed";
    return {};
  }
  const HostTensor y = s.output(0);
  if (!half) return y.as<float>();
  std::vector<float> wide;
  for (uint16_t h : y.as<uint16_t>()) wide.push_back(half_to_float(h));
  return wide;
}

class MatMulDevice : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    TestDevice& d = test_device(GetParam());
    if (!d.present()) GTEST_SKIP() << GetParam() << " unavailable: " << d.why;
  }
  TestDevice& dev() { return test_device(GetParam()); }
};

// The GPU table's tiles on PoCL and lavapipe (their own table is the
// conformance run's): its 128 x 128 tile on the 200 x 150 products, its
// 64 x 64 and 32 x 32 on the smaller ones (the table picks by work-groups
// per compute unit); tails in M, N and K everywhere. A and B are each
// staged from a k-contiguous or an x-contiguous layout: NN and TT take all
// four paths, NT both k-contiguous ones again on another tile. Each tile,
// transpose pair and type is a program or pipeline of its own (a compile
// of seconds on PoCL), so fp16 (other loads and stores, the same staging)
// takes a few of them.
TEST_P(MatMulDevice, ExactOnSmallIntegersAcrossTilesTailsAndTransposes) {
  struct Case {
    Product p;
    bool half;
  };
  const std::vector<Case> cases = {
      {{{200, 40}, {40, 150}, false, false}, false},
      {{{40, 200}, {150, 40}, true, true}, false},
      {{{40, 200}, {150, 40}, true, true}, true},
      {{{100, 33}, {33, 60}, false, false}, true},
      {{{40, 20}, {30, 20}, false, true}, false},
      {{{3, 1, 37, 19}, {2, 19, 45}, false, false}, true},  // broadcast batch, odd N
  };
  TileTable tiles("gpu");
  for (const Case& c : cases) {
    const Product& p = c.p;
    const std::vector<float> av = values(count(p.a), 1, true), bv = values(count(p.b), 2, true);
    EXPECT_EQ(run(dev(), p, av, bv, c.half), oracle(p, av, bv))
        << "half " << c.half << " ta " << p.ta << " tb " << p.tb << " a " << p.a[0] << "x" << p.a[1];
  }
}

// Each output sums its products in k order in every tile shape (a slice
// changes where the sum is staged, not its order), so the tables agree bit
// for bit on any values; and within the plan's fp32 bound of the exact sum.
TEST_P(MatMulDevice, EveryTileShapeGivesTheSameBits) {
  const Product p{{2, 150, 333}, {333, 131}, false, false};
  const std::vector<float> av = values(count(p.a), 3, false), bv = values(count(p.b), 4, false);
  std::vector<float> gpu, cpu;
  {
    TileTable tiles("gpu");
    gpu = run(dev(), p, av, bv, false);
  }
  {
    TileTable tiles("cpu");
    cpu = run(dev(), p, av, bv, false);
  }
  ASSERT_EQ(gpu.size(), 2u * 150 * 131);
  EXPECT_EQ(gpu, cpu);
  for (size_t z = 0; z < 2; ++z)
    for (size_t r = 0; r < 150; r += 7)
      for (size_t c = 0; c < 131; ++c) {
        double exact = 0;
        for (size_t q = 0; q < 333; ++q)
          exact += static_cast<double>(av[(z * 150 + r) * 333 + q]) * static_cast<double>(bv[q * 131 + c]);
        ASSERT_NEAR(gpu[(z * 150 + r) * 131 + c], exact, 333.0 * 333.0 * 0x1p-24) << z << " " << r << " " << c;
      }
}

// fp16 outputs with an odd N over an odd number of rows per matrix: words
// that straddle rows, tiles and matrices are written by two work-groups.
TEST_P(MatMulDevice, HalfWordsSharedByTwoWorkGroupsKeepBothHalves) {
  for (const std::string table : {"gpu", "cpu"}) {
    TileTable tiles(table);
    const Product p{{3, 131, 40}, {40, 129}, false, false};
    const std::vector<float> av = values(count(p.a), 5, true), bv = values(count(p.b), 6, true);
    EXPECT_EQ(run(dev(), p, av, bv, true), oracle(p, av, bv)) << "tiles " << table;
  }
}

// 70000 output matrices: more than Vulkan's minimum of 65535 work-groups in
// z, so work-groups walk z (vulkan.comp; OpenCL's range has no such limit).
TEST_P(MatMulDevice, MoreMatricesThanWorkGroupsInZ) {
  if (GetParam() != "vulkan") GTEST_SKIP() << "only Vulkan limits the work-groups in z";
  const Product p{{70000, 1, 2}, {2, 1}, false, false};
  const std::vector<float> av = values(count(p.a), 7, true), bv = values(count(p.b), 8, true);
  EXPECT_EQ(run(dev(), p, av, bv, false), oracle(p, av, bv));
}

TEST_P(MatMulDevice, EmptySumIsZero) {
  const Product p{{2, 3, 0}, {0, 5}, false, false};
  EXPECT_EQ(run(dev(), p, {}, {}, false), std::vector<float>(30, 0.0f));
  EXPECT_EQ(run(dev(), p, {}, {}, true), std::vector<float>(30, 0.0f));
}

INSTANTIATE_TEST_SUITE_P(Backends, MatMulDevice, ::testing::Values("opencl", "vulkan"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace oprig::harness
