// TENSOR_FLOAT16 built-ins on every device: ADD/SUB/MUL (ElementwiseBinary,
// with each fused activation) and the comparisons (Compare) must compute
// what the host does, in fp32 rounded once to fp16 (round to nearest even:
// ties, subnormals, overflow to Inf), and compare by value (NaN unordered,
// -0 == +0). Hand-derived values, then every pair of FLOAT_16 edge values
// against the host kernels. The dsp has no float: its cases check the
// fallback.
#include "builtin_kernel_fixture.hpp"

namespace oprig::graph::device_test {
namespace {

constexpr oprig_dtype kF16 = OPRIG_DTYPE_FLOAT_16;

HostTensor f16(std::vector<int64_t> shape, const std::vector<uint16_t>& bits) {
  return tensor<uint16_t>(kF16, std::move(shape), bits);
}

std::string arith(const std::string& op, int32_t act, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  return single_op(op, {input_operand(kF16, a), input_operand(kF16, b), int32_scalar(act), output_operand(kF16)});
}

// Bits: 0, -0, the smallest and largest subnormals and their negatives, the
// smallest normal, 1, -1, 0.5, 3, 1/3 rounded, 2^-10, 65504 (the largest),
// -65504, Inf, -Inf, NaN, 2048 and 2050 (spacing 2), 6 and its neighbours,
// 1 + 2^-10, 1024.5 (spacing 1 above 1024: a tie), -2.5.
const std::vector<uint16_t> kEdge = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x3c00, 0xbc00,
                                     0x3800, 0x4200, 0x3555, 0x1400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
                                     0x6800, 0x6801, 0x4600, 0x45ff, 0x4601, 0x3c01, 0x6401, 0xc100};

TEST_P(BuiltinKernels, Float16ArithmeticRoundsOnceToNearestEven) {
  const std::vector<int64_t> dims = {6};
  // 2048 + 1 = 2049: a tie between 2048 and 2050, to even 2048 (0x6800);
  // 2050 + 1 = 2051: between 2050 (odd) and 2052, to 2052 (0x6802);
  // 65504 + 16 = 65520: the overflow threshold, Inf; 65504 + 8 = 65512: 65504;
  // 2^-24 + 2^-24 = 2^-23 (0x0002); -0 + -0 = -0.
  const HostTensor add = run(arith("ADD", 0, dims, dims),
                             {f16(dims, {0x6800, 0x6801, 0x7bff, 0x7bff, 0x0001, 0x8000}),
                              f16(dims, {0x3c00, 0x3c00, 0x4c00, 0x4800, 0x0001, 0x8000})},
                             has_float());
  EXPECT_EQ(values<uint16_t>(add), (std::vector<uint16_t>{0x6800, 0x6802, 0x7c00, 0x7bff, 0x0002, 0x8000}));
  // 2^-24 * 0.5 = 2^-25: a tie between 0 and 2^-24, to 0; 3 * 2^-24 * 0.5 =
  // 1.5 * 2^-24: to 2 * 2^-24; 65504 * 2 = Inf; -1 * 0 = -0; (1 + 2^-10)^2 =
  // 1 + 2^-9 + 2^-20: to 1 + 2^-9 (0x3c02); 3 * (1/3 as 0x3555 = 0.33325195) =
  // 0.99975586 = 1 - 2^-12: between 1 - 2^-11 and 1, a tie, to 1 (even).
  const HostTensor mul = run(arith("MUL", 0, dims, dims),
                             {f16(dims, {0x0001, 0x0003, 0x7bff, 0xbc00, 0x3c01, 0x4200}),
                              f16(dims, {0x3800, 0x3800, 0x4000, 0x0000, 0x3c01, 0x3555})},
                             has_float());
  EXPECT_EQ(values<uint16_t>(mul), (std::vector<uint16_t>{0x0000, 0x0002, 0x7c00, 0x8000, 0x3c02, 0x3c00}));
  // RELU6 after rounding: 5.5 + 1 = 6.5 -> 6; -3 - 1 = -4 -> 0 under RELU.
  const HostTensor relu6 = run(arith("ADD", 3, {2}, {2}), {f16({2}, {0x4580, 0x4200}), f16({2}, {0x3c00, 0x4400})},
                               has_float());
  EXPECT_EQ(values<uint16_t>(relu6), (std::vector<uint16_t>{0x4600, 0x4600}));  // 6.5 -> 6, 3 + 4 = 7 -> 6
  const HostTensor relu = run(arith("SUB", 1, {2}, {2}), {f16({2}, {0xc200, 0x8000}), f16({2}, {0x3c00, 0x0000})},
                              has_float());
  EXPECT_EQ(values<uint16_t>(relu), (std::vector<uint16_t>{0x0000, 0x8000}));  // -4 -> 0; -0 - 0 = -0 stays
}

TEST_P(BuiltinKernels, Float16ComparisonsAreByValue) {
  const std::vector<int64_t> dims = {6};
  // NaN vs NaN, -0 vs +0, the smallest subnormal vs 0, 65504 vs Inf, -Inf vs
  // -65504, 1 vs 1.
  const std::vector<HostTensor> in = {f16(dims, {0x7e00, 0x8000, 0x0001, 0x7bff, 0xfc00, 0x3c00}),
                                      f16(dims, {0x7e00, 0x0000, 0x0000, 0x7c00, 0xfbff, 0x3c00})};
  EXPECT_EQ(values<uint8_t>(run(one_op("LESS", kF16, OPRIG_DTYPE_BOOL_8, dims, &dims), in, has_float())),
            (std::vector<uint8_t>{0, 0, 0, 1, 1, 0}));
  EXPECT_EQ(values<uint8_t>(run(one_op("GREATER_EQUAL", kF16, OPRIG_DTYPE_BOOL_8, dims, &dims), in, has_float())),
            (std::vector<uint8_t>{0, 1, 1, 0, 0, 1}));
  EXPECT_EQ(values<uint8_t>(run(one_op("EQUAL", kF16, OPRIG_DTYPE_BOOL_8, dims, &dims), in, has_float())),
            (std::vector<uint8_t>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(values<uint8_t>(run(one_op("NOT_EQUAL", kF16, OPRIG_DTYPE_BOOL_8, dims, &dims), in, has_float())),
            (std::vector<uint8_t>{1, 0, 1, 1, 1, 0}));
}

TEST_P(BuiltinKernels, Float16OpsMatchTheHostOnEveryPair) {
  for (const char* op : {"ADD", "SUB", "MUL"})
    for (int32_t act = 0; act <= 3; ++act) {
      SCOPED_TRACE(std::string(op) + " activation " + std::to_string(act));
      all_pairs<uint16_t>([&](const std::vector<int64_t>& a,
                              const std::vector<int64_t>& b) { return arith(op, act, a, b); },
                          kF16, kEdge, has_float());
    }
  for (const char* op : {"LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL"}) {
    SCOPED_TRACE(op);
    all_pairs<uint16_t>(op, kF16, OPRIG_DTYPE_BOOL_8, kEdge, has_float());
  }
}

TEST_P(BuiltinKernels, Float16OddLengthKeepsTheLastHalfWord) {
  // Three elements: the second word of the output is half used.
  const std::vector<int64_t> dims = {3};
  const HostTensor y = run(arith("SUB", 0, dims, dims), {f16(dims, {0x4200, 0x3c00, 0x4400}),
                                                        f16(dims, {0x3c00, 0x3c00, 0x3c00})},
                           has_float());
  EXPECT_EQ(values<uint16_t>(y), (std::vector<uint16_t>{0x4000, 0x0000, 0x4200}));  // 3-1, 1-1, 4-1
}

}  // namespace
}  // namespace oprig::graph::device_test
