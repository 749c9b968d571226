// The cpu TopK kernel through the package ABI: every ISA path and thread
// count gives what a stable sort in this file gives (NaN above every number,
// ties in index order) for FLOAT_32, FLOAT_16 and INT_32, on the heap path
// (small k), the nth_element path (large k), one long line split over
// threads, and lines along an inner axis; hand-derived answers for NaN,
// signed zeros and ties; k outside [1, axis length] is rejected.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
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

struct Result {
  HostTensor values;
  std::vector<int32_t> indices;
};

Result top_k(CpuBackend& backend, const HostTensor& x, int k, int axis, bool largest, bool sorted) {
  oprig_tensor values{}, indices{};
  values.dtype = x.dtype;
  indices.dtype = OPRIG_DTYPE_INT_32;
  KernelSession s(backend, cpu_impl(), "TopK",
                  ParamList().add_int("k", k).add_int("axis", axis).add_bool("largest", largest).add_bool("sorted", sorted),
                  {x}, {values, indices});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return {s.output(0), s.output(1).as<int32_t>()};
}

// The oracle: a stable sort of each line's indices; NaN ranks above numbers.
std::vector<int32_t> expected_indices(const std::vector<double>& v, const std::vector<int64_t>& shape, int k, int axis,
                                      bool largest, bool sorted) {
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(shape[d]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= static_cast<size_t>(shape[d]);
  const auto n = static_cast<size_t>(shape[static_cast<size_t>(axis)]);
  auto below = [](double a, double b) { return !std::isnan(a) && (std::isnan(b) || a < b); };
  std::vector<int32_t> out(outer * static_cast<size_t>(k) * inner);
  std::vector<int32_t> order(n);
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      auto at = [&](int32_t j) { return v[(o * n + static_cast<size_t>(j)) * inner + i]; };
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int32_t a, int32_t b) { return largest ? below(at(b), at(a)) : below(at(a), at(b)); });
      if (!sorted) std::sort(order.begin(), order.begin() + k);
      for (int j = 0; j < k; ++j) out[(o * static_cast<size_t>(k) + static_cast<size_t>(j)) * inner + i] = order[static_cast<size_t>(j)];
    }
  return out;
}

std::vector<double> values(size_t n, uint32_t seed, int levels, bool with_nan) {
  std::vector<double> v(n);
  uint32_t x = seed * 2654435761u + 11;
  for (double& e : v) {
    x = x * 1664525u + 1013904223u;
    const uint32_t r = x >> 8;
    e = static_cast<double>(static_cast<int>(r % static_cast<uint32_t>(levels)) - levels / 2) * 0.25;
    if (with_nan && r % 1009 == 0) e = std::numeric_limits<double>::quiet_NaN();
  }
  return v;
}

// The levels of values() are multiples of 1 / 4.
HostTensor tensor(oprig_dtype dtype, const std::vector<int64_t>& shape, const std::vector<double>& v) {
  return select_test::tensor_of(dtype, shape, v, 4);
}

// Values must be the inputs at the returned indices, bit for bit.
void expect_values_at_indices(const HostTensor& x, const Result& r, const std::vector<int64_t>& shape, int k, int axis) {
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(shape[d]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= static_cast<size_t>(shape[d]);
  const auto n = static_cast<size_t>(shape[static_cast<size_t>(axis)]);
  const size_t width = r.values.bytes.size() / r.indices.size();
  for (size_t o = 0; o < outer; ++o)
    for (size_t j = 0; j < static_cast<size_t>(k); ++j)
      for (size_t i = 0; i < inner; ++i) {
        const size_t out = (o * static_cast<size_t>(k) + j) * inner + i;
        const size_t in = (o * n + static_cast<size_t>(r.indices[out])) * inner + i;
        ASSERT_EQ(0, std::memcmp(r.values.bytes.data() + out * width, x.bytes.data() + in * width, width)) << out;
      }
}

TEST(TopKCpu, EveryIsaAndThreadCountSelectsWhatAStableSortSelects) {
  struct Layout {
    std::vector<int64_t> shape;
    int k, axis, levels;
  };
  const Layout layouts[] = {
      {{3, 5000}, 7, 1, 1000},    // heap path, few ties
      {{3, 5000}, 7, 1, 5},       // heap path, the k-th place inside a run of ties
      {{1, 100003}, 100, 1, 50},  // one long line split over threads
      {{4, 700}, 300, 1, 9},      // nth_element path
      {{2, 9}, 9, 1, 3},          // k = the axis length
      {{600, 5, 19}, 6, 0, 40},   // lines along an inner axis, gathered 16 at a time
      {{7}, 1, 0, 3},             // k = 1 on a short line
  };
  for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_INT_32}) {
    for (const Layout& l : layouts) {
      size_t n = 1;
      for (int64_t d : l.shape) n *= static_cast<size_t>(d);
      const std::vector<double> v = values(n, static_cast<uint32_t>(n + l.k), l.levels, dtype != OPRIG_DTYPE_INT_32);
      const HostTensor x = tensor(dtype, l.shape, v);
      for (bool largest : {true, false})
        for (bool sorted : {true, false}) {
          const std::vector<int32_t> want = expected_indices(v, l.shape, l.k, l.axis, largest, sorted);
          for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
            if (isa > host_cpu_isa()) continue;
            for (unsigned threads : {1u, 2u}) {
              CpuBackend backend(threads, isa);
              const Result r = top_k(backend, x, l.k, l.axis, largest, sorted);
              EXPECT_EQ(r.indices, want) << "dtype " << dtype << " shape[0] " << l.shape[0] << " k " << l.k
                                         << " largest " << largest << " sorted " << sorted << " isa " << isa
                                         << " threads " << threads;
              expect_values_at_indices(x, r, l.shape, l.k, l.axis);
            }
          }
        }
    }
  }
}

TEST(TopKCpu, NaNRanksAboveInfinitySignedZerosTieAndKeepTheirSign) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> v = {-0.0f, 3.0f, nan, inf, 0.0f, -inf, -0.0f};
  const HostTensor x = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {7}, v);
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    CpuBackend backend(1, isa);
    // Largest: NaN, inf, 3, then the zeros in index order (-0 at 0, +0 at 4, -0 at 6).
    const Result big = top_k(backend, x, 6, 0, true, true);
    EXPECT_EQ(big.indices, (std::vector<int32_t>{2, 3, 1, 0, 4, 6})) << "isa " << isa;
    const std::vector<float> got = big.values.as<float>();
    EXPECT_TRUE(std::isnan(got[0]));
    EXPECT_EQ(std::bit_cast<uint32_t>(got[3]), 0x80000000u) << "-0 keeps its sign";
    EXPECT_EQ(std::bit_cast<uint32_t>(got[4]), 0x00000000u);
    // Smallest: -inf, then the zeros in index order; NaN last.
    EXPECT_EQ(top_k(backend, x, 4, 0, false, true).indices, (std::vector<int32_t>{5, 0, 4, 6})) << "isa " << isa;
    EXPECT_EQ(top_k(backend, x, 7, 0, false, true).indices.back(), 2) << "isa " << isa;
    // Unsorted: the same three, in index order.
    EXPECT_EQ(top_k(backend, x, 3, 0, true, false).indices, (std::vector<int32_t>{1, 2, 3})) << "isa " << isa;
  }
}

TEST(TopKCpu, RejectsKOutsideOneToTheAxisLength) {
  CpuBackend backend(1);
  const HostTensor x = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {2, 4}, std::vector<float>(8, 1.0f));
  oprig_tensor values{}, indices{};
  values.dtype = OPRIG_DTYPE_FLOAT_32;
  indices.dtype = OPRIG_DTYPE_INT_32;
  for (int k : {0, 5}) {
    KernelSession s(backend, cpu_impl(), "TopK", ParamList().add_int("k", k), {x}, {values, indices});
    EXPECT_EQ(s.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT) << "k " << k;
  }
}

}  // namespace
}  // namespace oprig::harness
