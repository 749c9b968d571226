// The comparator: judges one output tensor of a kernel against the fp64
// reference under an op's Tolerance, and suggests the case's verdict.
//
// Float outputs (FLOAT_16/32/64), element by element, with e = the exact fp64
// expected value and g = the kernel's value (exact in fp64):
//   * e NaN: g must be NaN (any payload, any sign); such a pair is "NaN-matched"
//     and left out of max_abs/max_rel/max_ulp. With NanRule::kUnchecked the
//     element is not judged at all.
//   * g NaN while e is not: mismatch, abs = rel = ulp = +inf.
//   * e ±Inf: g must be the same infinity (then abs = rel = ulp = 0), else
//     mismatch with +inf.
//   * e finite within the type's range (|e| <= max finite): g = ±Inf is a
//     mismatch with +inf; otherwise abs = |g - e|, ulp = abs / ulp_T(e) with
//     ulp_T(x) = 2^(max(floor(log2|x|), emin) - p) (float_format.hpp; fp32:
//     emin = -126, p = 23, so 2^-149 for subnormals and zero; fp16: -14, 10).
//     The ulp is that of the EXPECTED value: a correctly rounded result is
//     within 0.5 ulp; one step below a power of two counts 0.5 ulp.
//   * e finite beyond the type's max finite (an fp64 reference that overflows
//     fp32): the kernel is judged against expected_in_type = e rounded to the
//     type. Infinities on both sides stand for ±2^(emax+1) (one ulp above max
//     finite): so g = +Inf for an e that rounds to +Inf is 0 ulp, g = FLT_MAX
//     there is 1 ulp, and g = +Inf for an e that rounds to FLT_MAX is about
//     1 ulp. An infinity of the wrong sign is +inf.
//   * rel = abs / |e|, or abs itself when e == 0 (relative to 1, as benchdnn).
//   Bounds: ulp mode passes ulp <= bound; atol/rtol mode passes
//   abs <= atol + rtol * |e|; the NaN/Inf mismatches above fail every bound.
//   An lsb bound on a float output is a plan error (std::invalid_argument).
//
// Integer outputs (INT_*, UINT_*, BOOL_8), quantised or not: got and expected
// are CODES (the reference hands the expected integer codes as doubles), and
// abs = ulp = |got_code - expected_code| (1 LSB = 1 ulp = one code step).
// lsb and ulp modes pass diff <= bound, atol/rtol mode compares the codes.
// Integers beyond 2^53 lose precision in the double arithmetic.
//
// With CompareOptions::signed_zero, a float element whose expected value
// rounds to a zero in the type and whose got is the zero of the other sign is
// a mismatch of every tier (0 ulp apart, but the wrong sign).
//
// Verdict suggestion:
//   no strict mismatch                         -> Passed
//   strict mismatches, none against relaxed    -> QualityWarning
//   otherwise                                  -> Failed
//   Passed or QualityWarning become Mistrusted when count >= 10 and
//   zero_fraction > tolerance.mistrust_zero_fraction, where zero_fraction is
//   the share of EXPECTED elements that are exactly zero (±0; for integer
//   outputs: code == zero_point). An output that is mostly zero proves little
//   (benchdnn's MISTRUSTED); tiny outputs (< 10 elements) are exempt because a
//   scalar 0 is often the right answer. An empty output is Passed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compare/float_format.hpp"
#include "compare/tolerance.hpp"
#include "oprig/oprig_package.h"
#include "oprig/verdict.hpp"

namespace oprig::compare {

struct Mismatch {
  uint64_t index;               // flat, C order
  std::vector<int64_t> coords;  // index unravelled over the shape
  double got;
  double expected;
  double ulp;
};

struct CompareStats {
  uint64_t count = 0;       // elements in the output
  uint64_t mismatches = 0;  // elements outside the strict bound
  double max_abs = 0, max_rel = 0, max_ulp = 0;  // over judged, non-NaN-matched elements; +inf possible
  double zero_fraction = 0;                      // of the expected output
  std::string tolerance;                         // tolerance_text()
  std::vector<Mismatch> first_mismatches;        // the first CompareOptions::max_listed, in index order
};

struct Comparison {
  CompareStats stats;
  Verdict verdict = Verdict::kPassed;
  std::string message;  // one line, e.g. "412 of 1048576 elements outside ulp<=3; max 7.2 ulp at [0,3,1,5] ..."
};

// The kernel's output as raw bytes in its own dtype.
struct OutputTensor {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  std::span<const std::byte> bytes;
  std::span<const int64_t> shape;  // empty: a scalar
  float scale = 0;                 // != 0: quantised (integer dtypes); informational, codes are compared
  int32_t zero_point = 0;          // the code of real 0 (for zero_fraction)
};

struct CompareOptions {
  size_t max_listed = 10;  // how many mismatches first_mismatches keeps
  // Float outputs: a zero of the wrong sign is a mismatch (plan.json
  // "signed_zero"), judged against the sign of the expected value rounded to
  // the type. Off by default: +0 == -0, as most users compare.
  bool signed_zero = false;
  // Terms summed into one output element (a tolerance's "accumulation" term
  // grows with it, tolerance.hpp); 1 when the case says nothing.
  double reduction_length = 1;
};

// Throws std::invalid_argument when bytes, shape and expected disagree in
// size, the dtype is not comparable (STRING, INVALID), or the bound does not
// apply to the dtype (lsb on floats).
Comparison compare_output(const OutputTensor& got, std::span<const double> expected, const Tolerance& tolerance,
                          const CompareOptions& options = {});

// The ulp distance of the float rules above for one element: 0 for matching
// NaNs and matching infinities, +inf for the special mismatches.
double ulp_distance(double got, double expected, const FloatFormat& format);

// Flat C-order index -> coordinates; "[0,3,1,5]" text for messages.
std::vector<int64_t> unravel_index(uint64_t index, std::span<const int64_t> shape);
std::string coords_text(std::span<const int64_t> coords);

}  // namespace oprig::compare
