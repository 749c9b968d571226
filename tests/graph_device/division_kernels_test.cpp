// DIV on every device through ElementwiseBinary: TENSOR_INT32 is NNAPI's
// floor division (integer_division FLOOR; x / 0 = 0 and INT32_MIN / -1
// wrapping, as the host does), floats divide as IEEE (correctly rounded;
// FLOAT_16 in fp32 rounded once), each with its fused activation. The dsp
// divides INT_32 (long division in vector code); it has no float, so float
// DIV stays on the host there, with a note.
#include <cmath>
#include <limits>

#include "builtin_kernel_fixture.hpp"

namespace oprig::graph::device_test {
namespace {

constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();

std::string div(oprig_dtype type, int32_t act, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  return single_op("DIV", {input_operand(type, a), input_operand(type, b), int32_scalar(act), output_operand(type)});
}

bool divides_here(const std::string& backend, oprig_dtype type) {
  return backend != "dsp" || type == OPRIG_DTYPE_INT_32;
}

TEST_P(BuiltinKernels, IntegerDivisionFloors) {
  const std::vector<int64_t> dims = {10};
  // Floor, as Python's //: 7 // 2 = 3, -7 // 2 = -4, 7 // -2 = -4, -7 // -2 = 3,
  // 0 // 5 = 0, 1 // -3 = -1; INT32_MIN // -1 wraps to INT32_MIN; 5 // 0 is 0
  // (NNAPI's reference); INT32_MIN // 2 = -2^30; INT32_MAX // -7 = -306783379
  // (2147483647 = 7 * 306783378 + 1, so the quotient -306783378.14 floors).
  const HostTensor y =
      run(div(OPRIG_DTYPE_INT_32, 0, dims, dims),
          {tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {7, -7, 7, -7, 0, 1, kIntMin, 5, kIntMin, kIntMax}),
           tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {2, 2, -2, -2, 5, -3, -1, 0, 2, -7})},
          divides_here(GetParam(), OPRIG_DTYPE_INT_32));
  EXPECT_EQ(values<int32_t>(y),
            (std::vector<int32_t>{3, -4, -4, 3, 0, -1, kIntMin, 0, -(1 << 30), -306783379}));
  // A one-element divisor, as the collatz model's n / 2.
  const HostTensor half = run(div(OPRIG_DTYPE_INT_32, 0, {4}, {1}),
                              {tensor<int32_t>(OPRIG_DTYPE_INT_32, {4}, {27, -27, 82, -1}), i32(2)}, true);
  EXPECT_EQ(values<int32_t>(half), (std::vector<int32_t>{13, -14, 41, -1}));
}

TEST_P(BuiltinKernels, FloatDivisionIsIeeeWithItsActivation) {
  const std::vector<int64_t> dims = {5};
  // 1 / 3 rounds to 0x3eaaaaab; -1 / 0 = -inf; 0 / 0 = NaN; 1 / -0 = -inf;
  // 6 / 4 = 1.5 then RELU1 clamps it to 1 (and -inf to -1).
  const HostTensor y = run(div(OPRIG_DTYPE_FLOAT_32, 0, dims, dims),
                           {tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {1, -1, 0, 1, 6}),
                            tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {3, 0, 0, -0.0f, 4})},
                           divides_here(GetParam(), OPRIG_DTYPE_FLOAT_32));
  const std::vector<float> v = values<float>(y);
  EXPECT_EQ(v[0], 1.0f / 3.0f);
  EXPECT_EQ(v[1], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[4], 1.5f);
  const HostTensor relu1 = run(div(OPRIG_DTYPE_FLOAT_32, 2, dims, dims),
                               {tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {1, -1, 0, 1, 6}),
                                tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {3, 0, 1, -0.0f, 4})},
                               divides_here(GetParam(), OPRIG_DTYPE_FLOAT_32));
  EXPECT_EQ(values<float>(relu1), (std::vector<float>{1.0f / 3.0f, -1, 0, -1, 1}));
}

TEST_P(BuiltinKernels, DivisionMatchesTheHostOnEveryPair) {
  const std::string backend = GetParam();
  const std::vector<int32_t> ints = {0, 1, -1, 2, -2, 3, -3, 7, -7, 46341, 65536, 123456789, -987654321, kIntMax,
                                     kIntMin};
  all_pairs<int32_t>([&](const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    return div(OPRIG_DTYPE_INT_32, 0, a, b);
  }, OPRIG_DTYPE_INT_32, ints, divides_here(backend, OPRIG_DTYPE_INT_32));
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> floats = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, 0.1f, -2.5f, 7.0f,
                                     std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                                     std::numeric_limits<float>::max(), inf, -inf,
                                     std::numeric_limits<float>::quiet_NaN(), 1e-30f, 3e30f};
  for (int32_t act = 0; act <= 3; ++act)
    all_pairs<float>([&](const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
      return div(OPRIG_DTYPE_FLOAT_32, act, a, b);
    }, OPRIG_DTYPE_FLOAT_32, floats, divides_here(backend, OPRIG_DTYPE_FLOAT_32));
  const std::vector<uint16_t> halves = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x4200, 0x3555,
                                        0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x1400, 0x6801};
  all_pairs<uint16_t>([&](const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    return div(OPRIG_DTYPE_FLOAT_16, 0, a, b);
  }, OPRIG_DTYPE_FLOAT_16, halves, divides_here(backend, OPRIG_DTYPE_FLOAT_16));
}

TEST_P(BuiltinKernels, FloatDivisionWithoutFloatOnTheDspSaysSo) {
  if (GetParam() != "dsp") GTEST_SKIP() << "only the dsp lacks float";
  const PreparedModel p = prepare_on(*target_, parse(div(OPRIG_DTYPE_FLOAT_32, 0, {2}, {2})));
  EXPECT_EQ(p.placements().at(0).backend, "cpu");
  ASSERT_EQ(p.placement_notes().size(), 1u);
  EXPECT_NE(p.placement_notes()[0].find("dsp has no FLOAT_32 kernels"),
            std::string::npos)
      << p.placement_notes()[0];
}

}  // namespace
}  // namespace oprig::graph::device_test
