#include "compare/tolerance.hpp"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/dtype.hpp"

namespace oprig::compare {
namespace {

using nlohmann::json;

double non_negative_number(const json& object, const char* key) {
  const json& value = object.at(key);
  if (!value.is_number()) throw ToleranceError(std::string("tolerance: \"") + key + "\" must be a number");
  const double number = value.get<double>();
  if (!(number >= 0) || !std::isfinite(number))
    throw ToleranceError(std::string("tolerance: \"") + key + "\" must be a finite number >= 0, got " + value.dump());
  return number;
}

Bound parse_bound(const json& object, std::string_view where) {
  const bool has_ulp = object.contains("ulp");
  const bool has_lsb = object.contains("lsb");
  const bool has_abs_rel = object.contains("atol") || object.contains("rtol");
  const int kinds = int{has_ulp} + int{has_lsb} + int{has_abs_rel};
  if (kinds == 0)
    throw ToleranceError("tolerance" + std::string(where) + ": needs one of \"ulp\", \"lsb\", \"atol\"/\"rtol\"");
  if (kinds > 1)
    throw ToleranceError("tolerance" + std::string(where) +
                         ": give only one kind of bound (\"ulp\", \"lsb\" or \"atol\"/\"rtol\")");
  Bound bound;
  if (has_ulp) {
    bound.kind = BoundKind::kUlp;
    bound.ulp = non_negative_number(object, "ulp");
  } else if (has_lsb) {
    bound.kind = BoundKind::kLsb;
    bound.lsb = non_negative_number(object, "lsb");
  } else {
    bound.kind = BoundKind::kAbsRel;
    if (object.contains("atol")) bound.atol = non_negative_number(object, "atol");
    if (object.contains("rtol")) bound.rtol = non_negative_number(object, "rtol");
  }
  if (object.contains("accumulation")) {
    const json& a = object.at("accumulation");
    const double eps = a.is_string() ? machine_epsilon(a.get<std::string>()) : 0.0;
    if (eps == 0)
      throw ToleranceError("tolerance" + std::string(where) +
                           ": \"accumulation\" must name a float type (FLOAT_16, FLOAT_32, FLOAT_64), got " + a.dump());
    if (has_lsb) throw ToleranceError("tolerance" + std::string(where) + ": \"accumulation\" applies to float bounds, not lsb");
    bound.accumulation_eps = eps;
    bound.accumulation = std::string(dtype_name(*dtype_from_name(a.get<std::string>())));
  }
  return bound;
}

void reject_unknown_keys(const json& object, std::initializer_list<std::string_view> known, std::string_view where) {
  for (const auto& item : object.items()) {
    bool found = false;
    for (std::string_view key : known) found = found || item.key() == key;
    if (!found) throw ToleranceError("tolerance" + std::string(where) + ": unknown key \"" + item.key() + "\"");
  }
}

std::string number_text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

}  // namespace

Tolerance parse_tolerance(const json& entry) {
  if (!entry.is_object()) throw ToleranceError("tolerance: expected a JSON object, got " + entry.dump());
  reject_unknown_keys(entry,
                      {"ulp", "lsb", "atol", "rtol", "accumulation", "reason", "relaxed", "nan", "mistrust_zero_fraction"}, "");
  Tolerance tolerance;
  if (!entry.contains("reason") || !entry.at("reason").is_string() || entry.at("reason").get<std::string>().empty())
    throw ToleranceError("tolerance " + entry.dump() + ": a non-empty \"reason\" is required");
  tolerance.reason = entry.at("reason").get<std::string>();
  tolerance.strict = parse_bound(entry, "");
  if (entry.contains("relaxed")) {
    const json& relaxed = entry.at("relaxed");
    if (!relaxed.is_object()) throw ToleranceError("tolerance: \"relaxed\" must be an object");
    reject_unknown_keys(relaxed, {"ulp", "lsb", "atol", "rtol", "accumulation", "reason"}, ".relaxed");
    tolerance.relaxed = parse_bound(relaxed, ".relaxed");
  }
  if (entry.contains("nan")) {
    const json& nan = entry.at("nan");
    if (nan == "must_match") tolerance.nan = NanRule::kMustMatch;
    else if (nan == "unchecked") tolerance.nan = NanRule::kUnchecked;
    else throw ToleranceError("tolerance: \"nan\" must be \"must_match\" or \"unchecked\", got " + nan.dump());
  }
  if (entry.contains("mistrust_zero_fraction")) {
    tolerance.mistrust_zero_fraction = non_negative_number(entry, "mistrust_zero_fraction");
    if (tolerance.mistrust_zero_fraction > 1)
      throw ToleranceError("tolerance: \"mistrust_zero_fraction\" must lie in [0, 1]");
  }
  return tolerance;
}

Tolerance parse_tolerance_text(std::string_view json_text) {
  json entry;
  try {
    entry = json::parse(json_text);
  } catch (const json::exception& error) {  // parse_error, or out_of_range for 1e999
    throw ToleranceError(std::string("tolerance: not valid JSON: ") + error.what());
  }
  return parse_tolerance(entry);
}

std::map<oprig_dtype, Tolerance> parse_tolerances_by_dtype(const json& table) {
  if (!table.is_object()) throw ToleranceError("tolerances: expected an object keyed by dtype name");
  std::map<oprig_dtype, Tolerance> result;
  for (const auto& item : table.items()) {
    const std::optional<oprig_dtype> dtype = dtype_from_name(item.key());
    if (!dtype) throw ToleranceError("tolerances: unknown dtype \"" + item.key() + "\"");
    try {
      result[*dtype] = parse_tolerance(item.value());
    } catch (const ToleranceError& error) {
      throw ToleranceError(item.key() + ": " + error.what());
    }
  }
  return result;
}

std::string bound_text(const Bound& bound, double reduction_length) {
  std::string text = "?";
  switch (bound.kind) {
    case BoundKind::kUlp: text = "ulp<=" + number_text(bound.ulp); break;
    case BoundKind::kLsb: text = "lsb<=" + number_text(bound.lsb); break;
    case BoundKind::kAbsRel: text = "atol<=" + number_text(bound.atol) + " rtol<=" + number_text(bound.rtol); break;
  }
  if (bound.accumulation_eps > 0)
    text += " + work(L=" + number_text(reduction_length) + ", sums in " + bound.accumulation + ")";
  return text;
}

std::string tolerance_text(const Tolerance& tolerance, double reduction_length) {
  std::string text = bound_text(tolerance.strict, reduction_length);
  if (tolerance.relaxed) text += " (relaxed " + bound_text(*tolerance.relaxed, reduction_length) + ")";
  return text;
}

double machine_epsilon(std::string_view name) {
  const std::optional<oprig_dtype> d = dtype_from_name(std::string(name));
  if (!d) return 0;
  switch (*d) {
    case OPRIG_DTYPE_FLOAT_16: return 0x1p-10;
    case OPRIG_DTYPE_FLOAT_32: return 0x1p-23;
    case OPRIG_DTYPE_FLOAT_64: return 0x1p-52;
    default: return 0;
  }
}

}  // namespace oprig::compare
