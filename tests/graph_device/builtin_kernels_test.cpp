// Every built-in on every device, through the opsuite's map, against two
// oracles: hand-derived values for the edge cases (wrap-around, NaN, signed
// zero, denormals, rounding and saturation of CAST), and the runtime's host
// kernels (builtin_kernels.cpp, the reference semantics) over every pair of
// a set of edge values, bit for bit (NaN against NaN: any NaN). Each case
// also checks that the operation really ran on the device, so a fallback to
// the host cannot pass for it; the dsp has no float, and its float cases
// check the fallback instead.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/dtype.hpp"
#include "builtin_kernel_fixture.hpp"

namespace oprig::graph::device_test {
namespace {

constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
const float kDenormMin = std::numeric_limits<float>::denorm_min();
const float kMinNormal = std::numeric_limits<float>::min();
const float kMax = std::numeric_limits<float>::max();

std::string type_text(oprig_dtype t) { return std::string(dtype_name(t)); }

const std::vector<int32_t> kInts = {0, 1, -1, 7, -7, 46341, 65536, 123456789, -987654321, kIntMax, kIntMin};
const std::vector<float> kFloats = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, 1.0f / 3.0f, -2.5f, kDenormMin,
                                    -kDenormMin, 3 * kDenormMin, kMinNormal, kMinNormal / 2, kMax, -kMax, kInf,
                                    -kInf, kNaN, 16777217.0f, 3e9f, -3e9f, 300.7f, 254.9f, -128.5f};
const std::vector<uint8_t> kBools = {0, 1, 2, 255};

// ---- hand-derived ----------------------------------------------------------

TEST_P(BuiltinKernels, IntegerArithmeticWrapsAround) {
  const std::vector<int64_t> dims = {3};
  const HostTensor add = run(one_op("ADD", OPRIG_DTYPE_INT_32, OPRIG_DTYPE_INT_32, dims, &dims),
                             {tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {kIntMax, kIntMin, 5}),
                              tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {1, -1, -7})},
                             true);
  EXPECT_EQ(values<int32_t>(add), (std::vector<int32_t>{kIntMin, kIntMax, -2}));
  const HostTensor mul = run(one_op("MUL", OPRIG_DTYPE_INT_32, OPRIG_DTYPE_INT_32, dims, &dims),
                             {tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {65536, 46341, -3}),
                              tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {65536, 46341, 7})},
                             true);
  // 2^32 wraps to 0; 46341^2 = 2147488281 = 2^31 + 4633 wraps to -2^31 + 4633.
  EXPECT_EQ(values<int32_t>(mul), (std::vector<int32_t>{0, kIntMin + 4633, -21}));
}

TEST_P(BuiltinKernels, FloatArithmeticKeepsDenormals) {
  const std::vector<int64_t> dims = {3};
  const HostTensor add = run(one_op("ADD", OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_32, dims, &dims),
                             {tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {kDenormMin, kMinNormal, 1.0f}),
                              tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {kDenormMin, -kDenormMin, 0x1p-24f})},
                             has_float());
  // 2 * 2^-149 is the denormal with mantissa 2; 2^-126 - 2^-149 the largest
  // denormal; 1 + 2^-24 is a tie that rounds to even, 1.
  EXPECT_EQ(std::bit_cast<uint32_t>(values<float>(add)[0]), 2u);
  EXPECT_EQ(std::bit_cast<uint32_t>(values<float>(add)[1]), 0x007fffffu);
  EXPECT_EQ(values<float>(add)[2], 1.0f);
  const HostTensor mul = run(one_op("MUL", OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_32, dims, &dims),
                             {tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {kMinNormal, 3 * kDenormMin, kMax}),
                              tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {0.5f, 0.5f, 2.0f})},
                             has_float());
  // 2^-127 (mantissa 2^22); 1.5 * 2^-149 is a tie between 1 and 2 units: even, 2; max * 2 overflows.
  EXPECT_EQ(std::bit_cast<uint32_t>(values<float>(mul)[0]), 0x00400000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(values<float>(mul)[1]), 2u);
  EXPECT_EQ(values<float>(mul)[2], kInf);
}

TEST_P(BuiltinKernels, ComparisonsFollowIeee) {
  const std::vector<int64_t> dims = {5};
  const std::vector<HostTensor> in = {
      tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {kNaN, -0.0f, kDenormMin, -kInf, 1.0f}),
      tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {kNaN, 0.0f, 2 * kDenormMin, -kMax, 1.0f})};
  const HostTensor less = run(one_op("LESS", OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_BOOL_8, dims, &dims), in, has_float());
  EXPECT_EQ(values<uint8_t>(less), (std::vector<uint8_t>{0, 0, 1, 1, 0}));
  const HostTensor equal = run(one_op("EQUAL", OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_BOOL_8, dims, &dims), in, has_float());
  EXPECT_EQ(values<uint8_t>(equal), (std::vector<uint8_t>{0, 1, 0, 0, 1}));
  const HostTensor not_equal =
      run(one_op("NOT_EQUAL", OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_BOOL_8, dims, &dims), in, has_float());
  EXPECT_EQ(values<uint8_t>(not_equal), (std::vector<uint8_t>{1, 0, 1, 1, 0}));
}

TEST_P(BuiltinKernels, CastTruncatesSaturatesAndRounds) {
  const std::vector<int64_t> dims = {6};
  const HostTensor f = tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {-1.5f, 3e9f, kNaN, -3e9f, 300.7f, kDenormMin});
  EXPECT_EQ(values<int32_t>(run(one_op("CAST", OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_INT_32, dims, nullptr), {f},
                                has_float())),
            (std::vector<int32_t>{-1, kIntMax, 0, kIntMin, 300, 0}));
  EXPECT_EQ(values<uint8_t>(run(one_op("CAST", OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_UINT_8, dims, nullptr), {f},
                                has_float())),
            (std::vector<uint8_t>{0, 255, 0, 0, 255, 0}));
  EXPECT_EQ(values<uint8_t>(run(one_op("CAST", OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_BOOL_8, dims, nullptr), {f},
                                has_float())),
            (std::vector<uint8_t>{1, 1, 1, 1, 1, 1}));  // NaN and a denormal are non-zero
  const HostTensor i = tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {16777217, 16777219, 300, -1, -200, 0});
  // 2^24 + 1 is a tie: to even, 2^24; 2^24 + 3 likewise to 2^24 + 4.
  EXPECT_EQ(values<float>(run(one_op("CAST", OPRIG_DTYPE_INT_32, OPRIG_DTYPE_FLOAT_32, dims, nullptr), {i},
                              has_float())),
            (std::vector<float>{16777216.0f, 16777220.0f, 300.0f, -1.0f, -200.0f, 0.0f}));
  EXPECT_EQ(values<uint8_t>(run(one_op("CAST", OPRIG_DTYPE_INT_32, OPRIG_DTYPE_UINT_8, dims, nullptr), {i}, true)),
            (std::vector<uint8_t>{255, 255, 255, 0, 0, 0}));
  EXPECT_EQ(values<int8_t>(run(one_op("CAST", OPRIG_DTYPE_INT_32, OPRIG_DTYPE_INT_8, dims, nullptr), {i}, true)),
            (std::vector<int8_t>{127, 127, 127, -1, -128, 0}));
  EXPECT_EQ(values<uint8_t>(run(one_op("CAST", OPRIG_DTYPE_INT_32, OPRIG_DTYPE_BOOL_8, dims, nullptr), {i}, true)),
            (std::vector<uint8_t>{1, 1, 1, 1, 1, 0}));
}

TEST_P(BuiltinKernels, LogicalOpsTakeAnyNonZeroByteAsTrue) {
  const std::vector<int64_t> dims = {4};
  const std::vector<HostTensor> in = {tensor<uint8_t>(OPRIG_DTYPE_BOOL_8, dims, {2, 255, 0, 7}),
                                      tensor<uint8_t>(OPRIG_DTYPE_BOOL_8, dims, {255, 0, 0, 1})};
  EXPECT_EQ(values<uint8_t>(run(one_op("LOGICAL_AND", OPRIG_DTYPE_BOOL_8, OPRIG_DTYPE_BOOL_8, dims, &dims), in, true)),
            (std::vector<uint8_t>{1, 0, 0, 1}));
  EXPECT_EQ(values<uint8_t>(run(one_op("LOGICAL_OR", OPRIG_DTYPE_BOOL_8, OPRIG_DTYPE_BOOL_8, dims, &dims), in, true)),
            (std::vector<uint8_t>{1, 1, 0, 1}));
  EXPECT_EQ(values<uint8_t>(run(one_op("LOGICAL_NOT", OPRIG_DTYPE_BOOL_8, OPRIG_DTYPE_BOOL_8, dims, nullptr),
                                {in[0]}, true)),
            (std::vector<uint8_t>{0, 0, 1, 0}));
}

// ---- against the host kernels, every pair of edge values -------------------

TEST_P(BuiltinKernels, IntegerOpsMatchTheHostOnEveryPair) {
  for (const char* op : {"ADD", "SUB", "MUL"}) all_pairs<int32_t>(op, OPRIG_DTYPE_INT_32, OPRIG_DTYPE_INT_32, kInts, true);
  for (const char* op : {"LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL"})
    all_pairs<int32_t>(op, OPRIG_DTYPE_INT_32, OPRIG_DTYPE_BOOL_8, kInts, true);
}

TEST_P(BuiltinKernels, FloatOpsMatchTheHostOnEveryPair) {
  for (const char* op : {"ADD", "SUB", "MUL"})
    all_pairs<float>(op, OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_32, kFloats, has_float());
  for (const char* op : {"LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL"})
    all_pairs<float>(op, OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_BOOL_8, kFloats, has_float());
}

TEST_P(BuiltinKernels, BooleanOpsMatchTheHostOnEveryPair) {
  for (const char* op : {"EQUAL", "NOT_EQUAL"}) all_pairs<uint8_t>(op, OPRIG_DTYPE_BOOL_8, OPRIG_DTYPE_BOOL_8, kBools, true);
  for (const char* op : {"LOGICAL_AND", "LOGICAL_OR"})
    all_pairs<uint8_t>(op, OPRIG_DTYPE_BOOL_8, OPRIG_DTYPE_BOOL_8, kBools, true);
}

TEST_P(BuiltinKernels, EveryCastMatchesTheHost) {
  const std::vector<oprig_dtype> types = {OPRIG_DTYPE_INT_32, OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_UINT_8, OPRIG_DTYPE_INT_8,
                                          OPRIG_DTYPE_BOOL_8};
  for (oprig_dtype from : types) {
    HostTensor x;
    switch (from) {
      case OPRIG_DTYPE_INT_32: x = tensor<int32_t>(from, {static_cast<int64_t>(kInts.size())}, kInts); break;
      case OPRIG_DTYPE_FLOAT_32: x = tensor<float>(from, {static_cast<int64_t>(kFloats.size())}, kFloats); break;
      case OPRIG_DTYPE_UINT_8: x = tensor<uint8_t>(from, {6}, {0, 1, 127, 128, 200, 255}); break;
      case OPRIG_DTYPE_INT_8: x = tensor<int8_t>(from, {6}, {-128, -100, -1, 0, 1, 127}); break;
      default: x = tensor<uint8_t>(from, {4}, kBools); break;
    }
    for (oprig_dtype to : types) {
      SCOPED_TRACE(type_text(from) + " -> " + type_text(to));
      const bool float_involved = from == OPRIG_DTYPE_FLOAT_32 || to == OPRIG_DTYPE_FLOAT_32;
      run(one_op("CAST", from, to, x.shape, nullptr), {x}, has_float() || !float_involved);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, BuiltinKernels, ::testing::ValuesIn(kDevices),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace oprig::graph::device_test
