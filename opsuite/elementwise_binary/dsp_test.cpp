// The dsp ElementwiseBinary kernel's UINT_8 MAX and MIN through the package
// ABI, where the plan's cases do not reach: the plan quantises both inputs
// alike, so the programs for inputs quantised unlike each other (the affine
// program of common/dsp_linear_requantize.hpp where prepare finds it exact,
// the code tables elsewhere), or like the output (no map), run here over
// hand-picked quantisations (ties: ratios 0.5, 1.5, 0.25, 2; ratios beyond
// the affine program's reach) and random ones with a fixed seed.
// Every pair of codes (a [256, 1] against b [1, 256]) must give the code of
// the larger (smaller) real value, quantised to the output in fp64 with
// ties away from zero and clamped to the fused activation's bounds: the
// definition, written here without the kernel's tables or maps. Skipped where
// the dsp backend is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "common/test_device.hpp"
#include "runner/kernel_session.hpp"

#if __has_include("hvx_sim/simulator.hpp")
#include "common/dsp_linear_requantize.hpp"
#define OPRIG_TEST_HAS_DSP 1
#endif

namespace oprig::harness {
namespace {

struct Quantisation {
  float scale;
  int32_t zero;
};

HostTensor codes(std::vector<int64_t> shape, const std::vector<uint8_t>& values, Quantisation q) {
  HostTensor t = HostTensor::of(OPRIG_DTYPE_UINT_8, std::move(shape), values);
  t.scale = q.scale;
  t.zero_point = q.zero;
  return t;
}

double real_of(uint8_t code, Quantisation q) { return static_cast<double>(q.scale) * (code - q.zero); }

int code_of(double real, Quantisation q) {
  return static_cast<int>(std::clamp(std::round(real / static_cast<double>(q.scale)) + q.zero, 0.0, 255.0));
}

#ifdef OPRIG_TEST_HAS_DSP
struct Case {
  std::string what;
  Quantisation a, b, y;
};

std::vector<Case> sweep() {
  std::vector<Case> cases = {
      {"inputs quantised unlike each other", {0.05f, 120}, {0.02f, 3}, {0.1f, 128}},
      {"a quantised as the output", {0.1f, 128}, {0.02f, 3}, {0.1f, 128}},
      {"b quantised as the output", {0.05f, 120}, {0.1f, 128}, {0.1f, 128}},
      {"both quantised as the output", {0.1f, 128}, {0.1f, 128}, {0.1f, 128}},
      {"both alike, unlike the output", {0.03f, 200}, {0.03f, 200}, {0.125f, 10}},
      {"ratios 0.5 and 1.5 (ties)", {0.0625f, 101}, {0.1875f, 7}, {0.125f, 128}},
      {"ratios 0.25 and 2 (ties)", {0.25f, 33}, {2.0f, 130}, {1.0f, 60}},
      {"ratios 0.5, 0.5 with other zero points (ties)", {0.5f, 0}, {0.5f, 255}, {1.0f, 127}},
      {"ratio 1, other zero point", {0.1f, 100}, {0.05f, 128}, {0.1f, 128}},
      {"bench's quantisations", {0.03137254901960784f, 128}, {0.0625f, 100}, {0.125f, 128}},
      {"ratios 1e-4 and 300", {1e-5f, 255}, {0.03f, 128}, {0.1f, 0}},
      {"ratio 1000 (beyond the affine program)", {1.0f, 128}, {0.002f, 90}, {0.001f, 128}},
      {"ratio 600, alike", {0.6f, 10}, {0.6f, 10}, {0.001f, 255}},
      {"a quantised as the output, b at ratio 1000", {0.001f, 128}, {1.0f, 3}, {0.001f, 128}},
  };
  std::mt19937 rng(22);
  std::uniform_real_distribution<float> log_ratio(-9.0f, 9.0f), log_scale(-12.0f, 2.0f);
  std::uniform_int_distribution<int32_t> zero(0, 255);
  for (int i = 0; i < 24; ++i) {
    const float y = std::exp2(log_scale(rng));
    const float a = y * std::exp2(log_ratio(rng)), b = y * std::exp2(log_ratio(rng));
    cases.push_back({"random set " + std::to_string(i), {a, zero(rng)}, {b, zero(rng)}, {y, zero(rng)}});
  }
  return cases;
}

// Which of the kernel's programs the quantisations take, by prepare's rule.
// kSharedTable: inputs quantised alike; kTables: unlike, where no affine map is exact.
enum class Program { kNoMap, kSharedTable, kAffine, kTables };

Program program_of(const Case& c) {
  namespace dsp = oprig::opsuite::dsp;
  dsp::CodeTable ta, tb;
  ta.build_requantize(c.a.scale, c.a.zero, c.y.scale, c.y.zero);
  tb.build_requantize(c.b.scale, c.b.zero, c.y.scale, c.y.zero);
  bool identities = true;
  for (size_t q = 0; q < 256; ++q) {
    const size_t at = oprig_dsp_lut256_position(q);
    identities = identities && ta.entries[at] == q && tb.entries[at] == q;
  }
  if (identities) return Program::kNoMap;
  if (ta.entries == tb.entries) return Program::kSharedTable;
  const dsp::LinearRequantizeInput a{&ta, c.a.scale, c.a.zero}, b{&tb, c.b.scale, c.b.zero};
  return dsp::plan_linear_requantize_pair(a, &b, c.y.scale, c.y.zero).a.usable ? Program::kAffine : Program::kTables;
}
#endif

TEST(ElementwiseBinaryDsp, MaxAndMinOfEveryPairOfCodesWhateverTheQuantisations) {
#ifndef OPRIG_TEST_HAS_DSP
  GTEST_SKIP() << "built without the dsp backend (OPRIG_BACKEND_DSP=OFF)";
#else
  TestDevice& d = test_device("dsp");
  if (!d.present()) GTEST_SKIP() << "dsp is absent: " << d.why;
  std::vector<uint8_t> column(256), row(256);
  for (size_t i = 0; i < 256; ++i) column[i] = row[i] = static_cast<uint8_t>(i);
  size_t affine = 0, tables = 0;
  for (const Case& c : sweep()) {
    const Program program = program_of(c);
    affine += program == Program::kAffine;
    tables += program == Program::kTables;
    for (const bool max : {true, false}) {
      for (const bool relu6 : {false, true}) {
        const std::string where = std::string(max ? "MAX" : "MIN") + (relu6 ? " RELU6, " : " NONE, ") + c.what + " (a " +
                                  std::to_string(c.a.scale) + " " + std::to_string(c.a.zero) + ", b " +
                                  std::to_string(c.b.scale) + " " + std::to_string(c.b.zero) + ", y " +
                                  std::to_string(c.y.scale) + " " + std::to_string(c.y.zero) + ")";
        const ParamList params = ParamList()
                                     .add_string("operation", max ? "MAX" : "MIN")
                                     .add_string("fused_activation", relu6 ? "RELU6" : "NONE");
        KernelSession s(*d.backend, *d.impl, "ElementwiseBinary", params,
                        {codes({256, 1}, column, c.a), codes({1, 256}, row, c.b)},
                        {[&] {
                          oprig_tensor out{};
                          out.dtype = OPRIG_DTYPE_UINT_8;
                          out.scale = c.y.scale;
                          out.zero_point = c.y.zero;
                          return out;
                        }()});
        ASSERT_TRUE(s.ok()) << where << ": " << s.error();
        ASSERT_EQ(s.run(), OPRIG_STATUS_OK) << where;
        const std::vector<uint8_t> got = s.output(0).as<uint8_t>();
        ASSERT_EQ(got.size(), 256u * 256u) << where;
        size_t wrong = 0;
        for (size_t i = 0; i < 256; ++i) {
          for (size_t j = 0; j < 256; ++j) {
            const double x = real_of(static_cast<uint8_t>(i), c.a), z = real_of(static_cast<uint8_t>(j), c.b);
            double r = max ? std::max(x, z) : std::min(x, z);
            if (relu6) r = std::clamp(r, 0.0, 6.0);
            if (got[i * 256 + j] != code_of(r, c.y) && wrong++ < 5)
              ADD_FAILURE() << where << ": a " << i << " b " << j << " gave " << int{got[i * 256 + j]}
                            << ", expected " << code_of(r, c.y);
          }
        }
        EXPECT_EQ(wrong, 0u) << where;
      }
    }
  }
  std::cout << affine << " quantisation sets by the affine program, " << tables
            << " by the code tables for unlike inputs\n";
  EXPECT_GT(affine, 20u);  // both of the kernel's programs for unlike inputs are exercised
  EXPECT_GT(tables, 0u);  // the unlike inputs' fallback, not only the alike ones' shared table
#endif
}

}  // namespace
}  // namespace oprig::harness
