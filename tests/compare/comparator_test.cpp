// compare_output: bounds, statistics, coordinates, messages and verdicts.
#include "compare/comparator.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "core/half.hpp"

namespace oprig::compare {
namespace {

template <typename T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

Tolerance ulp_tolerance(double ulp) { return parse_tolerance_text(R"({"ulp": )" + std::to_string(ulp) + R"(, "reason": "test"})"); }

struct Case {
  oprig_dtype dtype;
  std::vector<std::byte> bytes;
  std::vector<int64_t> shape;
  int32_t zero_point = 0;

  Comparison run(const std::vector<double>& expected, const Tolerance& tolerance, size_t max_listed = 10) const {
    OutputTensor out{dtype, bytes, shape, zero_point != 0 ? 0.5f : 0.0f, zero_point};
    return compare_output(out, expected, tolerance, CompareOptions{max_listed});
  }
};

Case f32(const std::vector<float>& values, std::vector<int64_t> shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(values.size())};
  return {OPRIG_DTYPE_FLOAT_32, bytes_of(values), shape};
}

TEST(Compare, PassesWithinUlpAndReportsStats) {
  const Comparison c = f32({1.0f + 0x1p-23f, 2.0f, -4.0f - 0x1p-20f}).run({1.0, 2.0, -4.0}, ulp_tolerance(3));
  EXPECT_EQ(c.verdict, Verdict::kPassed);
  EXPECT_EQ(c.stats.count, 3u);
  EXPECT_EQ(c.stats.mismatches, 0u);
  EXPECT_EQ(c.stats.max_ulp, 2.0);  // 2^-20 at -4 where ulp = 2^-21
  EXPECT_EQ(c.stats.max_abs, 0x1p-20);
  EXPECT_EQ(c.stats.max_rel, 0x1p-22);
  EXPECT_EQ(c.stats.tolerance, "ulp<=3");
  EXPECT_EQ(c.message.rfind("all 3 elements within ulp<=3; max 2 ulp at [2]", 0), 0u) << c.message;
}

TEST(Compare, MismatchCoordinatesIn2x3x4) {
  std::vector<float> got(24);
  std::vector<double> expected(24);
  for (size_t i = 0; i < 24; ++i) got[i] = static_cast<float>(expected[i] = 1.0 + static_cast<double>(i));
  got[5] = 6.0f + 4 * 0x1p-21f;    // 4 ulp at 6 (ulp 2^-21): index 5 = [0,1,1]
  // 18 lies in [16, 32): ulp = 2^(4-23) = 2^-19. With the inexact reference
  // 18 + 2^-21, got 18 + 4 * 2^-19 is 4 - 0.25 = 3.75 ulp away. Index 17 = [1,1,1].
  expected[17] = 18.0 + 0x1p-21;
  got[17] = 18.0f + 4 * 0x1p-19f;
  got[23] = 24.0f + 5 * 0x1p-19f;  // 24 in [16, 32): 5 ulp; index 23 = [1,2,3]
  const Comparison c = f32(got, {2, 3, 4}).run(expected, ulp_tolerance(3));
  EXPECT_EQ(c.verdict, Verdict::kFailed);
  EXPECT_EQ(c.stats.mismatches, 3u);
  ASSERT_EQ(c.stats.first_mismatches.size(), 3u);
  EXPECT_EQ(c.stats.first_mismatches[0].index, 5u);
  EXPECT_EQ(c.stats.first_mismatches[0].coords, (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(c.stats.first_mismatches[0].ulp, 4.0);
  EXPECT_EQ(c.stats.first_mismatches[0].expected, 6.0);
  EXPECT_EQ(c.stats.first_mismatches[1].coords, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(c.stats.first_mismatches[1].ulp, 3.75);
  EXPECT_EQ(c.stats.first_mismatches[2].coords, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(c.stats.max_ulp, 5.0);
  EXPECT_EQ(c.message.rfind("3 of 24 elements outside ulp<=3; max 5 ulp at [1,2,3]", 0), 0u) << c.message;
}

TEST(Compare, ListsAtMostMaxListedMismatches) {
  const Comparison c = f32({1, 2, 3, 4, 5}).run({0, 0, 0, 0, 0}, ulp_tolerance(0), 2);
  EXPECT_EQ(c.stats.mismatches, 5u);
  ASSERT_EQ(c.stats.first_mismatches.size(), 2u);
  EXPECT_EQ(c.stats.first_mismatches[1].index, 1u);
}

TEST(Compare, UnravelIndex) {
  const std::vector<int64_t> shape = {2, 3, 4};
  EXPECT_EQ(unravel_index(0, shape), (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(unravel_index(13, shape), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(unravel_index(23, shape), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(unravel_index(0, std::vector<int64_t>{}), std::vector<int64_t>{});
  EXPECT_EQ(coords_text(std::vector<int64_t>{0, 3, 1, 5}), "[0,3,1,5]");
}

TEST(Compare, NanAndInfinityRules) {
  const std::vector<double> expected = {NAN, NAN, 1.0, INFINITY, -INFINITY, INFINITY};
  const Comparison c = f32({NAN, 0.0f, NAN, INFINITY, -INFINITY, -INFINITY}).run(expected, ulp_tolerance(3));
  EXPECT_EQ(c.verdict, Verdict::kFailed);
  EXPECT_EQ(c.stats.mismatches, 3u);  // NaN expected got 0; got NaN for 1; -Inf for +Inf
  ASSERT_EQ(c.stats.first_mismatches.size(), 3u);
  EXPECT_EQ(c.stats.first_mismatches[0].index, 1u);
  EXPECT_EQ(c.stats.first_mismatches[1].index, 2u);
  EXPECT_EQ(c.stats.first_mismatches[2].index, 5u);
  EXPECT_EQ(c.stats.first_mismatches[2].ulp, INFINITY);
  EXPECT_EQ(c.stats.max_ulp, INFINITY);

  // Matching NaNs and infinities alone: a pass with max 0.
  const Comparison ok = f32({NAN, INFINITY, -INFINITY}).run({NAN, INFINITY, -INFINITY}, ulp_tolerance(0));
  EXPECT_EQ(ok.verdict, Verdict::kPassed);
  EXPECT_EQ(ok.stats.max_ulp, 0.0);
}

// plan.json "signed_zero": a zero of the wrong sign is a mismatch of every
// tier (0 ulp apart, the wrong sign), judged against the sign the expected
// value has once rounded to the type; off, +0 == -0.
Comparison signed_zero_run(const std::vector<float>& got, const std::vector<double>& expected, bool on) {
  const std::vector<std::byte> bytes = bytes_of(got);
  const std::vector<int64_t> shape = {static_cast<int64_t>(got.size())};
  CompareOptions options;
  options.signed_zero = on;
  const Tolerance tolerance =
      parse_tolerance_text(R"({"ulp": 1, "relaxed": {"ulp": 100}, "reason": "test"})");
  return compare_output(OutputTensor{OPRIG_DTYPE_FLOAT_32, bytes, shape, 0.0f, 0}, expected, tolerance, options);
}

TEST(Compare, SignedZeroIsOptIn) {
  const std::vector<float> got = {0.0f, -0.0f, 1.0f, 0.0f};
  // -1e-50 rounds to -0 in fp32: its zero is negative.
  const std::vector<double> expected = {-0.0, 0.0, 1.0, -1e-50};
  EXPECT_EQ(signed_zero_run(got, expected, false).verdict, Verdict::kPassed);

  const Comparison on = signed_zero_run(got, expected, true);
  EXPECT_EQ(on.verdict, Verdict::kFailed);  // not a quality warning: the relaxed tier fails it too
  EXPECT_EQ(on.stats.mismatches, 3u);
  ASSERT_EQ(on.stats.first_mismatches.size(), 3u);
  EXPECT_EQ(on.stats.first_mismatches[0].index, 0u);
  EXPECT_EQ(on.stats.first_mismatches[1].index, 1u);
  EXPECT_EQ(on.stats.first_mismatches[2].index, 3u);
  EXPECT_NE(on.message.find("3 of 4 elements the wrong sign of zero (the plan's signed_zero is on), first at [0] "
                            "(got +0, expected -0)"),
            std::string::npos)
      << on.message;
  EXPECT_EQ(on.message.find("outside"), std::string::npos) << "no element is outside the bound: " << on.message;

  // Right signs pass; a wrong value next to a wrong sign is said apart.
  EXPECT_EQ(signed_zero_run({-0.0f, 0.0f}, {-0.0, 0.0}, true).verdict, Verdict::kPassed);
  const Comparison both = signed_zero_run({2.0f, 0.0f}, {1.0, -0.0}, true);
  EXPECT_NE(both.message.find("1 of 2 elements outside ulp<=1"), std::string::npos) << both.message;
  EXPECT_NE(both.message.find("1 of 2 elements the wrong sign of zero"), std::string::npos) << both.message;
}

TEST(Compare, NanUncheckedSkipsOnlyNanReferences) {
  const Tolerance tolerance = parse_tolerance_text(R"({"ulp": 1, "nan": "unchecked", "reason": "t"})");
  EXPECT_EQ(f32({5.0f, 1.0f}).run({NAN, 1.0}, tolerance).verdict, Verdict::kPassed);
  EXPECT_EQ(f32({NAN, NAN}).run({NAN, 1.0}, tolerance).stats.mismatches, 1u);
}

TEST(Compare, AbsRelBoundary) {
  // atol = rtol = 2^-10: at expected 2 the bound is 2^-10 + 2^-9 = 3 * 2^-10,
  // exact in fp32, so the boundary is tested without rounding.
  const Tolerance tolerance = parse_tolerance_text(R"({"atol": 0.0009765625, "rtol": 0.0009765625, "reason": "t"})");
  const float at_bound = 2.0f + 3 * 0x1p-10f;
  EXPECT_EQ(f32({at_bound}).run({2.0}, tolerance).verdict, Verdict::kPassed);
  EXPECT_EQ(f32({-at_bound}).run({-2.0}, tolerance).verdict, Verdict::kPassed);
  EXPECT_EQ(f32({std::nextafter(at_bound, 3.0f)}).run({2.0}, tolerance).verdict, Verdict::kFailed);
  // At expected 0 only atol applies.
  EXPECT_EQ(f32({0x1p-10f}).run({0.0}, tolerance).verdict, Verdict::kPassed);
  const Comparison fail = f32({0x1p-9f}).run({0.0}, tolerance);
  EXPECT_EQ(fail.verdict, Verdict::kFailed);
  EXPECT_EQ(fail.message.rfind("1 of 1 elements outside atol<=0.000976562 rtol<=0.000976562; max abs 0.00195", 0), 0u)
      << fail.message;
  // NaN rules hold in atol/rtol mode too, however loose the bound.
  const Tolerance loose = parse_tolerance_text(R"({"atol": 1e30, "reason": "t"})");
  EXPECT_EQ(f32({NAN}).run({1.0}, loose).verdict, Verdict::kFailed);
  EXPECT_EQ(f32({INFINITY}).run({1.0}, loose).verdict, Verdict::kFailed);
}

TEST(Compare, Fp16Output) {
  const std::vector<uint16_t> bits = {0x3c01, 0x3c04, 0x7c00};  // 1+2^-10, 1+4*2^-10, +Inf
  const Case c{OPRIG_DTYPE_FLOAT_16, bytes_of(bits), {3}};
  const Comparison result = c.run({1.0, 1.0, 70000.0}, ulp_tolerance(3));
  EXPECT_EQ(result.stats.mismatches, 1u);
  EXPECT_EQ(result.stats.first_mismatches.at(0).index, 1u);
  EXPECT_EQ(result.stats.first_mismatches.at(0).ulp, 4.0);
}

TEST(Compare, Fp32OverflowingReference) {
  // The fp64 reference of exp(89) is 4.49e38: fp32 rounds it to +Inf.
  EXPECT_EQ(f32({INFINITY}).run({4.4896128191743455e38}, ulp_tolerance(0)).verdict, Verdict::kPassed);
  EXPECT_EQ(f32({FLT_MAX}).run({4.4896128191743455e38}, ulp_tolerance(1)).verdict, Verdict::kPassed);
  EXPECT_EQ(f32({FLT_MAX}).run({4.4896128191743455e38}, ulp_tolerance(0.5)).verdict, Verdict::kFailed);
}

TEST(Compare, LsbForQuantisedCodes) {
  const Tolerance tolerance = parse_tolerance_text(R"({"lsb": 1, "reason": "one rounding"})");
  const Case u8{OPRIG_DTYPE_UINT_8, bytes_of(std::vector<uint8_t>{11, 9, 12, 255}), {4}, 128};
  const Comparison c = u8.run({10, 10, 10, 255}, tolerance);
  EXPECT_EQ(c.verdict, Verdict::kFailed);
  EXPECT_EQ(c.stats.mismatches, 1u);
  EXPECT_EQ(c.stats.first_mismatches.at(0).index, 2u);
  EXPECT_EQ(c.stats.first_mismatches.at(0).got, 12.0);
  EXPECT_EQ(c.stats.max_abs, 2.0);
  EXPECT_EQ(c.stats.max_ulp, 2.0);
  EXPECT_EQ(c.stats.tolerance, "lsb<=1");
  EXPECT_EQ(c.message.rfind("1 of 4 elements outside lsb<=1; max 2 LSB at [2] (got 12, expected 10)", 0), 0u)
      << c.message;

  const Case i8{OPRIG_DTYPE_INT_8, bytes_of(std::vector<int8_t>{-128, 127}), {2}};
  EXPECT_EQ(i8.run({-127, 126}, tolerance).verdict, Verdict::kPassed);
  EXPECT_EQ(i8.run({-126, 126}, tolerance).verdict, Verdict::kFailed);

  const Case i32{OPRIG_DTYPE_INT_32, bytes_of(std::vector<int32_t>{-100000, 7}), {2}};
  EXPECT_EQ(i32.run({-100000, 8}, tolerance).stats.max_abs, 1.0);
}

TEST(Compare, ZeroFractionCountsZeroPointCodes) {
  const Tolerance tolerance = parse_tolerance_text(R"({"lsb": 0, "reason": "t"})");
  const Case u8{OPRIG_DTYPE_UINT_8, bytes_of(std::vector<uint8_t>{128, 128, 0, 3}), {4}, 128};
  EXPECT_EQ(u8.run({128, 128, 0, 3}, tolerance).stats.zero_fraction, 0.5);
}

TEST(Compare, MistrustedWhenMostlyZero) {
  const Tolerance tolerance = ulp_tolerance(3);
  // 10 elements, 4 exact zeros expected: 40% > 30%.
  std::vector<float> got = {0, 0, 0, 0, 1, 2, 3, 4, 5, 6};
  std::vector<double> expected(got.begin(), got.end());
  const Comparison c = f32(got).run(expected, tolerance);
  EXPECT_EQ(c.verdict, Verdict::kMistrusted);
  EXPECT_EQ(c.stats.zero_fraction, 0.4);
  EXPECT_NE(c.message.find("40.0% of the reference output is zero (limit 30.0%)"), std::string::npos) << c.message;

  // Exactly 30% is not more than 30%.
  got[3] = 9;
  expected[3] = 9;
  EXPECT_EQ(f32(got).run(expected, tolerance).verdict, Verdict::kPassed);

  // Fewer than 10 elements are never mistrusted.
  EXPECT_EQ(f32(std::vector<float>(9, 0.0f)).run(std::vector<double>(9, 0.0), tolerance).verdict, Verdict::kPassed);

  // A failure stays a failure.
  std::vector<float> bad(10, 0.0f);
  bad[9] = 1;
  EXPECT_EQ(f32(bad).run(std::vector<double>(10, 0.0), tolerance).verdict, Verdict::kFailed);

  // The threshold comes from the plan.
  const Tolerance tolerant = parse_tolerance_text(R"({"ulp": 3, "mistrust_zero_fraction": 1.0, "reason": "relu"})");
  EXPECT_EQ(f32(std::vector<float>(10, 0.0f)).run(std::vector<double>(10, 0.0), tolerant).verdict,
            Verdict::kPassed);
}

TEST(Compare, RelaxedTierGivesQualityWarning) {
  const Tolerance tolerance = parse_tolerance_text(R"({"ulp": 3, "relaxed": {"ulp": 8}, "reason": "t"})");
  const Comparison warn = f32({1.0f + 5 * 0x1p-23f, 1.0f}).run({1.0, 1.0}, tolerance);
  EXPECT_EQ(warn.verdict, Verdict::kQualityWarning);
  EXPECT_EQ(warn.stats.mismatches, 1u);
  EXPECT_EQ(warn.stats.tolerance, "ulp<=3 (relaxed ulp<=8)");
  EXPECT_EQ(warn.message.rfind("1 of 2 elements outside ulp<=3, all within relaxed ulp<=8; max 5 ulp at [0]", 0), 0u)
      << warn.message;
  const Comparison fail = f32({1.0f + 9 * 0x1p-23f, 1.0f + 5 * 0x1p-23f}).run({1.0, 1.0}, tolerance);
  EXPECT_EQ(fail.verdict, Verdict::kFailed);
  EXPECT_EQ(fail.stats.mismatches, 2u);
  EXPECT_NE(fail.message.find("(1 outside relaxed ulp<=8)"), std::string::npos) << fail.message;
}

TEST(Compare, EmptyAndScalarOutputs) {
  const Comparison empty = Case{OPRIG_DTYPE_FLOAT_32, {}, {2, 0}}.run({}, ulp_tolerance(3));
  EXPECT_EQ(empty.verdict, Verdict::kPassed);
  EXPECT_EQ(empty.stats.count, 0u);
  const Comparison scalar = Case{OPRIG_DTYPE_FLOAT_32, bytes_of(std::vector<float>{3.0f}), {}}.run({2.0}, ulp_tolerance(3));
  EXPECT_EQ(scalar.verdict, Verdict::kFailed);
  EXPECT_EQ(scalar.stats.first_mismatches.at(0).coords, std::vector<int64_t>{});
  EXPECT_NE(scalar.message.find("at []"), std::string::npos) << scalar.message;
}

TEST(Compare, RejectsMisuse) {
  EXPECT_THROW(f32({1, 2}).run({1.0}, ulp_tolerance(1)), std::invalid_argument);
  EXPECT_THROW((Case{OPRIG_DTYPE_FLOAT_32, bytes_of(std::vector<float>{1, 2}), {3}}.run({1, 2, 3}, ulp_tolerance(1))),
               std::invalid_argument);
  EXPECT_THROW(f32({1}).run({1.0}, parse_tolerance_text(R"({"lsb": 1, "reason": "t"})")), std::invalid_argument);
  EXPECT_THROW((Case{OPRIG_DTYPE_STRING, {}, {0}}.run({}, ulp_tolerance(1))), std::invalid_argument);
}

}  // namespace
}  // namespace oprig::compare
