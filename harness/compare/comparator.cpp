#include "compare/comparator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "core/dtype.hpp"
#include "core/half.hpp"

namespace oprig::compare {
namespace {

// One element after the NaN/Inf rules: either "not judged" (NaN-matched or
// unchecked), a special mismatch that fails every bound, or distances.
struct Judged {
  bool excluded = false;  // NaN-matched or unchecked: no stats, never a mismatch
  bool special_mismatch = false;
  double abs = 0;
  double rel = 0;
  double ulp = 0;
  double reference = 0;  // the expected value the bound scales with (rtol)
  double ulp_unit = 0;   // one ulp of the type at the expected value (floats); 0 for codes
};

// The allowance for the work behind an element (Bound::accumulation_eps):
// L * eps * |e| + 4 * sqrt(L) * eps * rms (tolerance.hpp says why).
struct WorkScale {
  double length = 1;  // L
  double rms = 0;     // of the output's finite expected values
  double allowance(const Bound& bound, double reference) const {
    if (bound.accumulation_eps <= 0) return 0;
    return bound.accumulation_eps * (length * std::fabs(reference) + 4 * std::sqrt(length) * rms);
  }
};

Judged special_mismatch() {
  return {.excluded = false, .special_mismatch = true, .abs = INFINITY, .rel = INFINITY, .ulp = INFINITY};
}

double relative(double abs, double reference) { return reference != 0 ? abs / std::fabs(reference) : abs; }

Judged judge_float(double got, double expected, const FloatFormat& format, NanRule nan_rule) {
  if (std::isnan(expected)) {
    if (nan_rule == NanRule::kUnchecked || std::isnan(got)) return {.excluded = true};
    return special_mismatch();
  }
  if (std::isnan(got)) return special_mismatch();
  if (std::isinf(expected)) return got == expected ? Judged{} : special_mismatch();

  double expected_cmp = expected;
  double got_cmp = got;
  if (std::fabs(expected) > format.max_finite()) {
    // The reference overflows the type: judge against its rounding into the
    // type, with infinities standing for 2^(emax+1).
    if (std::isinf(got) && std::signbit(got) != std::signbit(expected)) return special_mismatch();
    const double expected_in_type = round_to_format(expected, format);
    if (std::isinf(expected_in_type)) expected_cmp = std::copysign(format.infinity_stand_in(), expected);
    if (std::isinf(got)) got_cmp = std::copysign(format.infinity_stand_in(), got);
  } else if (std::isinf(got)) {
    return special_mismatch();
  }
  Judged judged;
  judged.abs = std::fabs(got_cmp - expected_cmp);
  judged.rel = relative(judged.abs, expected_cmp);
  judged.ulp_unit = ulp_at(expected_cmp, format);
  judged.ulp = judged.abs / judged.ulp_unit;
  judged.reference = expected_cmp;
  return judged;
}

Judged judge_code(double got, double expected, NanRule nan_rule) {
  if (std::isnan(expected)) return nan_rule == NanRule::kUnchecked ? Judged{.excluded = true} : special_mismatch();
  if (std::isinf(expected)) return special_mismatch();
  Judged judged;
  judged.abs = std::fabs(got - expected);
  judged.rel = relative(judged.abs, expected);
  judged.ulp = judged.abs;
  judged.reference = expected;
  return judged;
}

bool within(const Judged& judged, const Bound& bound, const WorkScale& work) {
  if (judged.excluded) return true;
  if (judged.special_mismatch) return false;
  const double extra = work.allowance(bound, judged.reference);
  switch (bound.kind) {
    case BoundKind::kUlp:
      if (extra > 0 && judged.ulp_unit > 0) return judged.abs <= bound.ulp * judged.ulp_unit + extra;
      return judged.ulp <= bound.ulp;
    case BoundKind::kLsb: return judged.ulp <= bound.lsb;
    case BoundKind::kAbsRel: return judged.abs <= bound.atol + bound.rtol * std::fabs(judged.reference) + extra;
  }
  return false;
}

template <typename T>
T load(const std::byte* bytes, uint64_t index) {
  T value;
  std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
  return value;
}

// The element as a double: exact for floats, the code for integer types.
double load_element(oprig_dtype dtype, const std::byte* bytes, uint64_t i) {
  switch (dtype) {
    case OPRIG_DTYPE_FLOAT_16: return half_to_float(load<uint16_t>(bytes, i));
    case OPRIG_DTYPE_FLOAT_32: return load<float>(bytes, i);
    case OPRIG_DTYPE_FLOAT_64: return load<double>(bytes, i);
    case OPRIG_DTYPE_INT_8: return load<int8_t>(bytes, i);
    case OPRIG_DTYPE_INT_16: return load<int16_t>(bytes, i);
    case OPRIG_DTYPE_INT_32: return load<int32_t>(bytes, i);
    case OPRIG_DTYPE_INT_64: return static_cast<double>(load<int64_t>(bytes, i));
    case OPRIG_DTYPE_UINT_8:
    case OPRIG_DTYPE_BOOL_8: return load<uint8_t>(bytes, i);
    case OPRIG_DTYPE_UINT_16: return load<uint16_t>(bytes, i);
    case OPRIG_DTYPE_UINT_32: return load<uint32_t>(bytes, i);
    case OPRIG_DTYPE_UINT_64: return static_cast<double>(load<uint64_t>(bytes, i));
    default: throw std::invalid_argument("compare: dtype " + std::string(dtype_name(dtype)) + " cannot be compared");
  }
}

std::string number(double value, const char* format = "%.10g") {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string percent(double fraction) { return number(100 * fraction, "%.1f") + "%"; }

}  // namespace

std::vector<int64_t> unravel_index(uint64_t index, std::span<const int64_t> shape) {
  std::vector<int64_t> coords(shape.size(), 0);
  for (size_t axis = shape.size(); axis-- > 0;) {
    const auto dim = static_cast<uint64_t>(shape[axis]);
    if (dim == 0) break;
    coords[axis] = static_cast<int64_t>(index % dim);
    index /= dim;
  }
  return coords;
}

std::string coords_text(std::span<const int64_t> coords) {
  std::string text = "[";
  for (size_t i = 0; i < coords.size(); ++i) {
    if (i) text += ',';
    text += std::to_string(coords[i]);
  }
  return text + "]";
}

double ulp_distance(double got, double expected, const FloatFormat& format) {
  const Judged judged = judge_float(got, expected, format, NanRule::kMustMatch);
  return judged.excluded ? 0.0 : judged.ulp;
}

Comparison compare_output(const OutputTensor& got, std::span<const double> expected, const Tolerance& tolerance,
                          const CompareOptions& options) {
  const size_t element_size = dtype_size(got.dtype);
  if (element_size == 0)
    throw std::invalid_argument("compare: dtype " + std::string(dtype_name(got.dtype)) + " cannot be compared");
  const std::optional<FloatFormat> format = float_format_of(got.dtype);
  const bool uses_lsb = tolerance.strict.kind == BoundKind::kLsb ||
                        (tolerance.relaxed && tolerance.relaxed->kind == BoundKind::kLsb);
  if (format && uses_lsb)
    throw std::invalid_argument("compare: an lsb bound does not apply to " + std::string(dtype_name(got.dtype)) +
                                " output; use ulp or atol/rtol");
  uint64_t shape_count = 1;
  for (int64_t dim : got.shape) {
    if (dim < 0) throw std::invalid_argument("compare: negative dimension in the output shape");
    shape_count *= static_cast<uint64_t>(dim);
  }
  if (got.bytes.size() != shape_count * element_size || expected.size() != shape_count)
    throw std::invalid_argument("compare: output has " + std::to_string(got.bytes.size()) + " bytes and the reference " +
                                std::to_string(expected.size()) + " values, the shape " + coords_text(got.shape) +
                                " of " + std::string(dtype_name(got.dtype)) + " needs " +
                                std::to_string(shape_count) + " elements");

  Comparison result;
  CompareStats& stats = result.stats;
  stats.count = shape_count;
  stats.tolerance = tolerance_text(tolerance, options.reduction_length);
  WorkScale work;
  work.length = std::max(1.0, options.reduction_length);
  if (format && (tolerance.strict.accumulation_eps > 0 || (tolerance.relaxed && tolerance.relaxed->accumulation_eps > 0))) {
    double squares = 0;
    uint64_t finite = 0;
    for (const double e : expected)
      if (std::isfinite(e)) {
        squares += e * e;
        ++finite;
      }
    work.rms = finite ? std::sqrt(squares / static_cast<double>(finite)) : 0.0;
  }
  const bool strict_is_abs = tolerance.strict.kind == BoundKind::kAbsRel;
  const char* unit = tolerance.strict.kind == BoundKind::kLsb ? "LSB" : "ulp";
  uint64_t relaxed_mismatches = 0;
  uint64_t zero_sign_mismatches = 0;
  uint64_t first_zero_sign = 0;
  uint64_t zeros = 0;
  uint64_t worst_index = 0;
  double worst = -1;
  const double zero_code = static_cast<double>(got.zero_point);

  for (uint64_t i = 0; i < shape_count; ++i) {
    const double g = load_element(got.dtype, got.bytes.data(), i);
    const double e = expected[i];
    if (format ? e == 0.0 : e == zero_code) ++zeros;
    const Judged judged = format ? judge_float(g, e, *format, tolerance.nan) : judge_code(g, e, tolerance.nan);
    if (judged.excluded) continue;
    stats.max_abs = std::fmax(stats.max_abs, judged.abs);
    stats.max_rel = std::fmax(stats.max_rel, judged.rel);
    stats.max_ulp = std::fmax(stats.max_ulp, judged.ulp);
    const double badness = strict_is_abs ? judged.abs : judged.ulp;
    if (badness > worst) {
      worst = badness;
      worst_index = i;
    }
    const bool wrong_zero_sign = options.signed_zero && format && g == 0 && round_to_format(e, *format) == 0 &&
                                 std::signbit(g) != std::signbit(e);
    const bool outside_bound = !within(judged, tolerance.strict, work);
    if (wrong_zero_sign && !outside_bound && zero_sign_mismatches++ == 0) first_zero_sign = i;
    if (wrong_zero_sign || outside_bound) {
      ++stats.mismatches;
      if (stats.first_mismatches.size() < options.max_listed)
        stats.first_mismatches.push_back({i, unravel_index(i, got.shape), g, e, judged.ulp});
      if (tolerance.relaxed && (wrong_zero_sign || !within(judged, *tolerance.relaxed, work))) ++relaxed_mismatches;
    }
  }
  stats.zero_fraction = shape_count ? static_cast<double>(zeros) / static_cast<double>(shape_count) : 0.0;

  if (shape_count == 0) {
    result.message = "no elements to compare (empty output)";
    return result;
  }
  std::string worst_text;
  if (worst == 0) {
    worst_text = strict_is_abs ? "max abs 0" : std::string("max 0 ") + unit;
  } else if (worst > 0) {
    const double g = load_element(got.dtype, got.bytes.data(), worst_index);
    worst_text = strict_is_abs ? "max abs " + number(worst, "%.3g") : "max " + number(worst, "%.3g") + " " + unit;
    worst_text += " at " + coords_text(unravel_index(worst_index, got.shape)) + " (got " + number(g) + ", expected " +
                  number(expected[worst_index]) + ")";
  } else {
    worst_text = "no element judged (all NaN-matched or unchecked)";
  }
  // Elements of the wrong sign of zero are within every bound: said apart.
  const uint64_t value_mismatches = stats.mismatches - zero_sign_mismatches;
  std::string outside = std::to_string(value_mismatches) + " of " + std::to_string(shape_count) +
                        " elements outside " + bound_text(tolerance.strict, work.length);
  if (zero_sign_mismatches > 0)
    outside = (value_mismatches > 0 ? outside + "; " : std::string()) + std::to_string(zero_sign_mismatches) +
              " of " + std::to_string(shape_count) +
              " elements the wrong sign of zero (the plan's signed_zero is on), first at " +
              coords_text(unravel_index(first_zero_sign, got.shape)) + " (got " +
              (std::signbit(load_element(got.dtype, got.bytes.data(), first_zero_sign)) ? "-0" : "+0") +
              ", expected " + (std::signbit(expected[first_zero_sign]) ? "-0" : "+0") + ")";
  if (stats.mismatches == 0) {
    result.verdict = Verdict::kPassed;
    result.message = "all " + std::to_string(shape_count) + " elements within " + bound_text(tolerance.strict, work.length) +
                     "; " + worst_text;
  } else if (tolerance.relaxed && relaxed_mismatches == 0) {
    result.verdict = Verdict::kQualityWarning;
    result.message = outside + ", all within relaxed " + bound_text(*tolerance.relaxed, work.length) + "; " + worst_text;
  } else {
    result.verdict = Verdict::kFailed;
    result.message = outside;
    if (tolerance.relaxed && value_mismatches > 0)
      result.message += " (" + std::to_string(relaxed_mismatches - zero_sign_mismatches) + " outside relaxed " +
                        bound_text(*tolerance.relaxed, work.length) + ")";
    result.message += "; " + worst_text;
  }
  if (result.verdict != Verdict::kFailed && shape_count >= 10 &&
      stats.zero_fraction > tolerance.mistrust_zero_fraction) {
    result.verdict = Verdict::kMistrusted;
    result.message += "; but " + percent(stats.zero_fraction) + " of the reference output is zero (limit " +
                      percent(tolerance.mistrust_zero_fraction) + "), so the comparison proves little";
  }
  return result;
}

}  // namespace oprig::compare
