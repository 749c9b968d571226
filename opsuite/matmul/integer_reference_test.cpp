// MatMul's integer reference against values derived by hand from TFLite's
// rule (s_a s_w / s_out = 0.5 * 0.25 / 1 = 0.125: m = 2^30, right shift 2):
// A = [[12]] with z_a = 10 is 2; W = [5, 6, -6, 127] with z_w = 0, so
// acc = [10, 12, -12, 254] and acc / 8 = [1.25, 1.5, -1.5, 31.75]:
// srdhm then RoundingDivideByPOT give [1, 2, -2, 32] (halves away from zero),
// + z_out 240 = [241, 242, 238, 272], the last clamped to 255.
#include <gtest/gtest.h>

#include "common/integer_reference.hpp"

namespace oprig::opsuite {
namespace {

RefTensor codes(std::vector<int64_t> shape, std::vector<double> values, oprig_dtype dtype, double scale, int32_t zero) {
  RefTensor t;
  t.shape = std::move(shape);
  t.values = std::move(values);
  t.dtype = dtype;
  t.scale = scale;
  t.zero_point = zero;
  return t;
}

std::vector<RefTensor> output(oprig_dtype dtype, double scale, int32_t zero) {
  std::vector<RefTensor> out(1);
  out[0].dtype = dtype;
  out[0].scale = scale;
  out[0].zero_point = zero;
  return out;
}

TEST(MatMulIntegerReference, RoundsHalvesAwayAndClampsAsTfliteDoes) {
  const IntegerReferenceOp* ref = find_integer_reference("MatMul");
  ASSERT_NE(ref, nullptr);
  const RefTensor a = codes({1, 1}, {12}, OPRIG_DTYPE_UINT_8, 0.5, 10);
  for (const bool transpose_b : {false, true}) {
    const RefTensor w = codes(transpose_b ? std::vector<int64_t>{4, 1} : std::vector<int64_t>{1, 4}, {5, 6, -6, 127},
                              OPRIG_DTYPE_INT_8, 0.25, 0);
    std::vector<RefTensor> out = output(OPRIG_DTYPE_UINT_8, 1.0, 240);
    ASSERT_TRUE(ref->compute({a, w}, RefParams(nlohmann::json{{"transpose_b", transpose_b}}), out));
    EXPECT_EQ(out[0].shape, (std::vector<int64_t>{1, 4}));
    EXPECT_EQ(out[0].values, (std::vector<double>{241, 242, 238, 255})) << "transpose_b " << transpose_b;
  }
}

TEST(MatMulIntegerReference, LeavesFloatCasesToTheFp64Reference) {
  const IntegerReferenceOp* ref = find_integer_reference("MatMul");
  ASSERT_NE(ref, nullptr);
  const RefTensor a = codes({1, 1}, {1}, OPRIG_DTYPE_FLOAT_32, 0, 0);
  std::vector<RefTensor> out = output(OPRIG_DTYPE_FLOAT_32, 0, 0);
  EXPECT_FALSE(ref->compute({a, a}, RefParams(), out));
}

}  // namespace
}  // namespace oprig::opsuite
