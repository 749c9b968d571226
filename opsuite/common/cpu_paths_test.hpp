// For the unit tests of cpu kernels with an AVX-512, an AVX2 and a scalar
// path (Conv2D's and DepthwiseConv2D's cpu_test.cpp): each path the host
// has, at one and two threads, run by a test's own callable
// `std::vector<float>(CpuBackend&)` (or `void(CpuBackend&)`). Test-only.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"

namespace oprig::harness::cpu_paths {

inline constexpr oprig_cpu_isa kIsas[] = {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};

// `check(backend)` for every ISA the host has, at `threads` (each of them).
template <class Check>
void for_every_path(Check&& check, std::initializer_list<unsigned> threads = {1u, 2u}) {
  for (oprig_cpu_isa isa : kIsas) {
    if (isa > host_cpu_isa()) continue;
    for (unsigned n : threads) {
      SCOPED_TRACE("isa " + std::to_string(isa) + " threads " + std::to_string(n));
      CpuBackend backend(n, isa);
      check(backend);
    }
  }
}

// The vector paths (AVX2, AVX-512, where the host has them), at one and two
// threads, agree bit for bit (they sum in the same order with FMA), and each
// element lies within `bound` of the scalar path's (no FMA at the baseline).
template <class Run>
void expect_vector_paths_agree(Run&& run, double bound) {
  CpuBackend scalar(1, OPRIG_CPU_ISA_SCALAR);
  const std::vector<float> base = run(scalar);
  std::optional<std::vector<float>> vector_result;
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    for (unsigned threads : {1u, 2u}) {
      CpuBackend backend(threads, isa);
      const std::vector<float> y = run(backend);
      if (!vector_result) vector_result = y;
      EXPECT_EQ(y, *vector_result) << "isa " << isa << " threads " << threads;
      ASSERT_EQ(y.size(), base.size());
      for (size_t i = 0; i < y.size(); ++i) ASSERT_LE(std::fabs(y[i] - base[i]), bound) << "element " << i;
    }
  }
}

}  // namespace oprig::harness::cpu_paths
