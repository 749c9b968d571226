// How close a kernel's output must be to the fp64 reference: one entry of an
// op's plan.json, per dtype. Examples of the JSON this parses:
//   {"ulp": 3, "reason": "OpenCL built-in accuracy for atan is 5 ulp; ours is better"}
//   {"atol": 1e-5, "rtol": 5.96e-7, "reason": "NNAPI's fp32 test tolerance"}
//   {"lsb": 1, "reason": "requantisation rounds once", "relaxed": {"lsb": 2}}
// Keys:
//   exactly one bound: "ulp" | "lsb" | "atol" and/or "rtol" (a missing one is 0)
//   "reason"   required, non-empty: every tolerance says why it is what it is
//   "relaxed"  optional second tier (a bound, same keys): failing the strict
//              bound but passing this one gives QUALITY_WARNING
//   "nan"      "must_match" (default): a NaN reference needs a NaN output and a
//              NaN output needs a NaN reference; "unchecked": elements whose
//              reference is NaN are not compared (a NaN output where the
//              reference is a number still fails)
//   "mistrust_zero_fraction"  default 0.3 (benchdnn's 30%): see comparator.hpp
//   "accumulation"  optional, beside a float bound (ulp or atol/rtol): the data
//              type sums are carried in ("FLOAT_32", "FLOAT_16", "FLOAT_64").
//              The bound then grows with the work behind each element:
//                + L * eps_A * |expected| + 4 * sqrt(L) * eps_A * rms(expected)
//              where L is the case's reduction length (terms summed into one
//              output element; CompareOptions::reduction_length, 1 when the
//              plan gives none), eps_A the accumulation type's machine epsilon
//              (2^-23, 2^-10, 2^-52) and rms the root mean square of the
//              output's finite expected values. Why these two terms: a sum of
//              L terms carried in type A errs by at most about L * eps_A times
//              the sum of the terms' magnitudes; where terms share a sign
//              (softmax's exponentials) that sum is |expected|, so the first
//              term holds for any summation order; where they cancel
//              (convolutions of signed data) rounding errors walk randomly,
//              about sqrt(L) * eps_A * rms(terms) * sqrt(L) / 2 = sqrt(L)/2 *
//              eps_A * rms(expected) at its typical size, so the second term
//              leaves 8 standard deviations of room. A kernel that carries
//              its sums in a narrower type than A (an fp16 accumulator for
//              eps_A = 2^-23) errs 2^13 times more and fails.
// Unknown keys are errors, so a typo cannot silently loosen a test.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "oprig/oprig_package.h"

namespace oprig::compare {

enum class BoundKind {
  kUlp,     // |got - expected| / ulp(expected) <= ulp (floats; for integers 1 ulp = 1 code)
  kAbsRel,  // |got - expected| <= atol + rtol * |expected|
  kLsb,     // |got_code - expected_code| <= lsb (integers and quantised codes)
};

struct Bound {
  BoundKind kind = BoundKind::kUlp;
  double ulp = 0;
  double atol = 0;
  double rtol = 0;
  double lsb = 0;
  // "accumulation": the machine epsilon of the type sums are carried in
  // (0: no term for the work behind an element); see above.
  double accumulation_eps = 0;
  std::string accumulation;  // its data type name, for messages
};

enum class NanRule { kMustMatch, kUnchecked };

struct Tolerance {
  Bound strict;
  std::optional<Bound> relaxed;
  NanRule nan = NanRule::kMustMatch;
  double mistrust_zero_fraction = 0.3;
  std::string reason;
};

// Thrown for a malformed tolerance; what() says which key is wrong and why.
class ToleranceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Tolerance parse_tolerance(const nlohmann::json& entry);
Tolerance parse_tolerance_text(std::string_view json_text);

// A map keyed by dtype name ("FLOAT_32" or "f32"), e.g. plan.json's
// "tolerance" object; each value is one entry as above.
std::map<oprig_dtype, Tolerance> parse_tolerances_by_dtype(const nlohmann::json& table);

// "ulp<=3", "atol<=1e-05 rtol<=5.96e-07", "lsb<=1"; with an accumulation
// term "ulp<=4 + work(L=576, FLOAT_32)" where reduction_length is L.
std::string bound_text(const Bound& bound, double reduction_length = 1);
// bound_text(strict), plus " (relaxed ulp<=8)" when there is a relaxed tier.
std::string tolerance_text(const Tolerance& tolerance, double reduction_length = 1);

// The machine epsilon of a float data type name (FLOAT_16/32/64, or f16/f32/f64); 0 for others.
double machine_epsilon(std::string_view dtype_name);

}  // namespace oprig::compare
