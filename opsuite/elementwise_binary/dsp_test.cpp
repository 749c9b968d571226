// The dsp ElementwiseBinary kernel's UINT_8 MAX and MIN through the package
// ABI, where the plan's cases do not reach: the plan quantises both inputs
// alike (the kernel's shared-table program), so the programs for inputs
// quantised unlike each other, or like the output (no lookup), run here.
// Every pair of codes (a [256, 1] against b [1, 256]) must give the code of
// the larger (smaller) real value, quantised to the output in fp64 with
// ties away from zero and clamped to the fused activation's bounds: the
// definition, written here without the kernel's tables. Skipped where the
// dsp backend is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_device.hpp"
#include "runner/kernel_session.hpp"

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

TEST(ElementwiseBinaryDsp, MaxAndMinOfEveryPairOfCodesWhateverTheQuantisations) {
  TestDevice& d = test_device("dsp");
  if (!d.present()) GTEST_SKIP() << "dsp is absent: " << d.why;
  struct Case {
    const char* what;
    Quantisation a, b, y;
  };
  const Case cases[] = {
      {"inputs quantised unlike each other", {0.05f, 120}, {0.02f, 3}, {0.1f, 128}},
      {"a quantised as the output", {0.1f, 128}, {0.02f, 3}, {0.1f, 128}},
      {"b quantised as the output", {0.05f, 120}, {0.1f, 128}, {0.1f, 128}},
      {"both quantised as the output", {0.1f, 128}, {0.1f, 128}, {0.1f, 128}},
      {"both alike, unlike the output", {0.03f, 200}, {0.03f, 200}, {0.125f, 10}},
  };
  std::vector<uint8_t> column(256), row(256);
  for (size_t i = 0; i < 256; ++i) column[i] = row[i] = static_cast<uint8_t>(i);
  for (const Case& c : cases) {
    for (const char* op : {"MAX", "MIN"}) {
      for (const char* act : {"NONE", "RELU6"}) {
        const std::string where = std::string(op) + " " + act + ", " + c.what;
        const ParamList params = ParamList().add_string("operation", op).add_string("fused_activation", act);
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
            double r = std::string(op) == "MAX" ? std::max(x, z) : std::min(x, z);
            if (std::string(act) == "RELU6") r = std::clamp(r, 0.0, 6.0);
            if (got[i * 256 + j] != code_of(r, c.y) && wrong++ < 5)
              ADD_FAILURE() << where << ": a " << i << " b " << j << " gave " << int{got[i * 256 + j]}
                            << ", expected " << code_of(r, c.y);
          }
        }
        EXPECT_EQ(wrong, 0u) << where;
      }
    }
  }
}

}  // namespace
}  // namespace oprig::harness
