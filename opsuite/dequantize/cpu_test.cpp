// The cpu Dequantize kernel through the package ABI: values spelled out by
// hand for every code of both types under a power-of-two scale (exact), the
// three ISA paths and both thread counts agreeing bit for bit at every tail
// length, overflow to +-Inf, and quantisations the op cannot honour rejected
// in prepare.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

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

template <class Code>
HostTensor codes(oprig_dtype dtype, const std::vector<Code>& values, float scale, int32_t zero_point) {
  HostTensor t = HostTensor::of(dtype, {static_cast<int64_t>(values.size())}, values);
  t.scale = scale;
  t.zero_point = zero_point;
  return t;
}

std::vector<float> run_once(CpuBackend& backend, const HostTensor& x) {
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  KernelSession s(backend, cpu_impl(), "Dequantize", ParamList(), {x}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0).as<float>();
}

std::vector<oprig_cpu_isa> host_isas() {
  std::vector<oprig_cpu_isa> isas;
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512})
    if (isa <= host_cpu_isa()) isas.push_back(isa);
  return isas;
}

TEST(DequantizeCpu, EveryCodeOfBothTypesUnderAPowerOfTwoScale) {
  // Scale 2^-3: (code - zero point) / 8 is exact, so the expected values are
  // plain arithmetic on the codes.
  std::vector<uint8_t> u8(256);
  std::vector<int8_t> i8(256);
  for (int c = 0; c < 256; ++c) {
    u8[static_cast<size_t>(c)] = static_cast<uint8_t>(c);
    i8[static_cast<size_t>(c)] = static_cast<int8_t>(c - 128);
  }
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    const std::vector<float> yu = run_once(backend, codes(OPRIG_DTYPE_UINT_8, u8, 0.125f, 37));
    const std::vector<float> yi = run_once(backend, codes(OPRIG_DTYPE_INT_8, i8, 0.125f, -5));
    for (int c = 0; c < 256; ++c) {
      EXPECT_EQ(yu[static_cast<size_t>(c)], static_cast<float>(c - 37) / 8) << "code " << c << " isa " << isa;
      EXPECT_EQ(yi[static_cast<size_t>(c)], static_cast<float>(c - 128 + 5) / 8) << "code " << c - 128 << " isa " << isa;
    }
  }
}

TEST(DequantizeCpu, ProductsBeyondTheFloatRangeAreInfinite) {
  // fp32(3e36) * 113 = 3.39e38 is finite; * 114 = 3.42e38 overflows.
  const std::vector<int8_t> x = {113, 114, -114, 127, -128};
  const float inf = std::numeric_limits<float>::infinity();
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    const std::vector<float> y = run_once(backend, codes(OPRIG_DTYPE_INT_8, x, 3e36f, 0));
    EXPECT_TRUE(std::isfinite(y[0])) << isa;
    EXPECT_EQ(y[1], inf) << isa;
    EXPECT_EQ(y[2], -inf) << isa;
    EXPECT_EQ(y[3], inf) << isa;
    EXPECT_EQ(y[4], -inf) << isa;
  }
}

TEST(DequantizeCpu, IsaPathsAndThreadCountsAgreeBitForBitAtEveryTail) {
  std::vector<size_t> lengths;
  for (size_t n = 1; n <= 40; ++n) lengths.push_back(n);
  lengths.push_back(300007);  // split over threads
  for (size_t n : lengths) {
    std::vector<uint8_t> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = static_cast<uint8_t>((i * 37 + 11) & 0xFF);
    for (oprig_dtype dtype : {OPRIG_DTYPE_UINT_8, OPRIG_DTYPE_INT_8}) {
      HostTensor t = codes(dtype, x, 0.1f, dtype == OPRIG_DTYPE_UINT_8 ? 131 : -9);
      CpuBackend baseline(1, OPRIG_CPU_ISA_SCALAR);
      const std::vector<float> expected = run_once(baseline, t);
      for (oprig_cpu_isa isa : host_isas())
        for (unsigned threads : {1u, 2u}) {
          CpuBackend backend(threads, isa);
          EXPECT_EQ(run_once(backend, t), expected) << "n " << n << " isa " << isa << " threads " << threads;
        }
    }
  }
}

TEST(DequantizeCpu, RejectsQuantisationsTheOpCannotHonour) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const auto prepare_status = [&](float scale, int32_t zero_point, oprig_dtype dtype = OPRIG_DTYPE_UINT_8) {
    return KernelSession(backend, cpu_impl(), "Dequantize", ParamList(),
                         {codes(dtype, std::vector<uint8_t>{1, 2}, scale, zero_point)}, {out})
        .prepare_status();
  };
  EXPECT_EQ(prepare_status(0.0f, 0), OPRIG_STATUS_INVALID_ARGUMENT);  // not quantised
  EXPECT_EQ(prepare_status(-1.0f, 0), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare_status(std::numeric_limits<float>::quiet_NaN(), 0), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare_status(1.0f, (1 << 24) - 255), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare_status(1.0f, (1 << 24) - 256), OPRIG_STATUS_OK);
  EXPECT_EQ(prepare_status(1.0f, 0, OPRIG_DTYPE_UINT_16), OPRIG_STATUS_UNSUPPORTED);
}

}  // namespace
}  // namespace oprig::harness
