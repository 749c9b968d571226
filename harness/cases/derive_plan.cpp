#include "cases/derive_plan.hpp"

#include <cmath>
#include <cctype>
#include <set>
#include <stdexcept>

#include "core/dtype.hpp"

namespace oprig::harness {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Shapes of one rank, small enough to run quickly everywhere.
std::vector<std::vector<int64_t>> shapes_of_rank(const std::string& rank) {
  if (rank == "SCALAR" || rank == "0D") return {{}};
  if (rank == "1D") return {{7}, {1}};
  if (rank == "2D") return {{3, 5}, {1, 1}};
  if (rank == "3D") return {{2, 3, 4}};
  if (rank == "4D") return {{1, 3, 5, 7}, {2, 4, 4, 3}};
  if (rank == "5D") return {{2, 1, 3, 2, 3}};
  return {{7}, {3, 5}, {2, 3, 4}, {1, 3, 5, 7}, {2, 1, 3, 2, 3}};  // ND or not given: a spread
}

int required_rank(const std::string& rank);

// 256 elements in the given Rank (ND: 2-D); empty for a scalar.
std::vector<int64_t> code_range_shape(const std::string& rank) {
  switch (required_rank(rank)) {
    case 0: return {};
    case 1: return {256};
    case 3: return {4, 8, 8};
    case 4: return {1, 4, 8, 8};
    case 5: return {1, 1, 4, 8, 8};
    default: return {16, 16};
  }
}

int required_rank(const std::string& rank) {
  if (rank == "SCALAR" || rank == "0D") return 0;
  if (rank.size() == 2 && rank[1] == 'D' && rank[0] >= '1' && rank[0] <= '5') return rank[0] - '0';
  return -1;  // any
}

std::string shape_label(const std::vector<int64_t>& s) { return shape_text(s); }

bool is_integer_dtype(oprig_dtype d) {
  return dtype_is_signed_integer(d) || dtype_is_unsigned_integer(d) || d == OPRIG_DTYPE_BOOL_8;
}

}  // namespace

std::optional<nlohmann::json> default_tolerance(const std::string& dtype_name) {
  if (dtype_name == "FLOAT_32")
    return json{{"atol", 1e-5}, {"rtol", 5.9604644775390625e-7},
                {"relaxed", {{"atol", 1e-5}, {"rtol", 1e-3}}},
                {"reason", "default: NNAPI's generated-test tolerance for fp32 (atol 1e-5, rtol 5*2^-23); relaxed tier "
                           "(QUALITY_WARNING): the ONNX backend tests' rtol 1e-3"}};
  if (dtype_name == "FLOAT_16")
    return json{{"atol", 0.0048828125}, {"rtol", 0.0048828125},
                {"reason", "default: NNAPI's generated-test tolerance for fp16 and relaxed fp32 (atol = rtol = 5*2^-10)"}};
  if (dtype_name == "FLOAT_64")
    return json{{"atol", 1e-7}, {"rtol", 1e-7}, {"reason", "default: torch.testing.assert_close for fp64 (rtol 1e-7, atol 1e-7)"}};
  if (dtype_name == "BOOL_8") return json{{"lsb", 0}, {"reason", "default: booleans are exact"}};
  const auto d = dtype_from_name(dtype_name);
  if (d && is_integer_dtype(*d))
    return json{{"lsb", 1}, {"reason", "default: NNAPI's generated-test tolerance for int32 and quant8 (within 1)"}};
  return std::nullopt;
}

namespace {

// A plain number at text[i] (after blanks): sign, digits, fraction, exponent.
// No std::regex: GCC 12's <regex> trips -Wmaybe-uninitialized in the sanitizer build.
std::optional<double> number_at(const std::string& text, size_t& i) {
  while (i < text.size() && text[i] == ' ') ++i;
  const size_t start = i;
  size_t j = i;
  if (j < text.size() && (text[j] == '-' || text[j] == '+')) ++j;
  const size_t digits = j;
  while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.')) ++j;
  if (j == digits) return std::nullopt;
  if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
    size_t k = j + 1;
    if (k < text.size() && (text[k] == '-' || text[k] == '+')) ++k;
    if (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) {
      while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
      j = k;
    }
  }
  // A number glued to letters ("N-1", "2D") is not a bound.
  if (j < text.size() && (std::isalpha(static_cast<unsigned char>(text[j])) || text[j] == '_')) return std::nullopt;
  try {
    const double v = std::stod(text.substr(start, j - start));
    i = j;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<NumericRange> parse_constraint_range(const std::string& text) {
  NumericRange r;
  // "[a, b]", "(a, b]", ...
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '[' && text[i] != '(') continue;
    size_t j = i + 1;
    const auto a = number_at(text, j);
    while (j < text.size() && text[j] == ' ') ++j;
    if (!a || j >= text.size() || text[j] != ',') continue;
    ++j;
    const auto b = number_at(text, j);
    while (j < text.size() && text[j] == ' ') ++j;
    if (!b || j >= text.size() || (text[j] != ']' && text[j] != ')')) continue;
    r.low = *a;
    r.high = *b;
    r.low_open = text[i] == '(';
    r.high_open = text[j] == ')';
    return r;
  }
  // Comparison operators with a number on either side: "x >= 0", "0 <= x < 4", "> 0".
  bool found = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '<' && c != '>') continue;
    const bool or_equal = i + 1 < text.size() && text[i + 1] == '=';
    // number after the operator: a bound on the thing before it
    size_t j = i + (or_equal ? 2 : 1);
    if (const auto v = number_at(text, j)) {
      if (c == '>') {
        r.low = *v;
        r.low_open = !or_equal;
      } else {
        r.high = *v;
        r.high_open = !or_equal;
      }
      found = true;
      continue;
    }
    // number before the operator: "0 <= x" bounds x from below
    size_t k = i;
    while (k > 0 && text[k - 1] == ' ') --k;
    size_t b = k;
    while (b > 0 && (std::isdigit(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '.' ||
                     text[b - 1] == '-' || text[b - 1] == 'e' || text[b - 1] == 'E'))
      --b;
    if (b == k || (b > 0 && (std::isalpha(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '_'))) continue;
    size_t at = b;
    if (const auto v = number_at(text, at); v && at == k) {
      if (c == '<') {
        r.low = *v;
        r.low_open = !or_equal;
      } else {
        r.high = *v;
        r.high_open = !or_equal;
      }
      found = true;
    }
  }
  if (!found) return std::nullopt;
  return r;
}

ordered_json derive_plan_json(const OpCaseSpace& space, const std::string& spec_file) {
  ordered_json plan;
  plan["op"] = space.op;
  plan["spec"] = spec_file;
  plan["about"] =
      "Derived from the spec by oprig (no plan.json): shapes from each input's Rank, every enumeration value, "
      "defaults plus one random variant inside each constraint range that parses, and default tolerances. Edit it "
      "to fit the op (shapes that relate to each other, fills of the valid domain, tolerances of its math).";

  // Shapes: every mandatory input the same shape (elementwise), ranks from the
  // first input's Rank; other inputs keep their own Rank where it is fixed.
  ordered_json shapes = ordered_json::array();
  const std::string rank0 = space.inputs.empty() ? "" : space.inputs.front().rank;
  bool any_optional = false;
  for (const TensorSlot& s : space.inputs) any_optional |= !s.mandatory;
  for (const std::vector<int64_t>& base : shapes_of_rank(rank0)) {
    for (int with_optional = 0; with_optional <= (any_optional ? 1 : 0); ++with_optional) {
      ordered_json entry;
      ordered_json inputs = ordered_json::array();
      std::string name;
      for (const TensorSlot& s : space.inputs) {
        if (!s.mandatory && !with_optional) {
          inputs.push_back(nullptr);
          continue;
        }
        const int r = required_rank(s.rank);
        std::vector<int64_t> shape = base;
        if (r >= 0 && static_cast<int>(shape.size()) != r) shape = shapes_of_rank(s.rank).front();
        inputs.push_back(shape);
        name += (name.empty() ? "" : "_") + shape_label(shape);
      }
      if (any_optional) name += with_optional ? "_optional" : "_no_optional";
      entry["name"] = name.empty() ? "noinputs" : name;
      entry["inputs"] = inputs;
      shapes.push_back(entry);
    }
  }
  plan["shapes"] = shapes;

  plan["fills"] = {{"uniform", {{"kind", "uniform"}, {"low", -1}, {"high", 1},
                                {"about", "[-1, 1]: a domain most ops accept; widen or narrow it to the op's"}}},
                   {"small_int", {{"kind", "small_int"}, {"low", -4}, {"high", 4}, {"zero_share", 0.1},
                                  {"about", "exact integers: sums do not cancel"}}}};
  // all_codes gives consecutive codes, so a tensor of 256 elements holds every
  // 8-bit code once; the plan's small shapes would hold a handful. 16-bit
  // types get 256 consecutive codes from a seeded start, not all 65536.
  ordered_json codes = {{"kind", "all_codes"}, {"about", "every code of an 8-bit type: 256 elements"}};
  if (const std::vector<int64_t> shape = code_range_shape(rank0); !shape.empty())
    codes["shapes"] = ordered_json::array({shape});
  plan["quantized_fills"] = {{"codes", codes}};

  ordered_json params = ordered_json::object();
  for (const ParamSlot& p : space.params) {
    if (!p.enumeration.empty()) {
      params[p.name] = {{"values", "all"}};
      continue;
    }
    std::optional<NumericRange> range;
    for (const std::string& c : p.constraints)
      if ((range = parse_constraint_range(c))) break;
    const bool integer = is_integer_dtype(p.dtype);
    if (p.tensor) {
      if (p.mandatory && p.default_value.is_null())
        params[p.name] = {{"values", {ordered_json::array({1})}},
                          {"reason", "mandatory tensor parameter without a Default: a guess, edit it"}};
      continue;
    }
    if (p.dtype == OPRIG_DTYPE_BOOL_8) {
      params[p.name] = {{"values", {false, true}}};
      continue;
    }
    if (range && (range->low || range->high)) {
      double lo = range->low.value_or(*range->high - 10), hi = range->high.value_or(*range->low + 10);
      if (integer) {
        lo = range->low_open ? std::floor(lo) + 1 : std::ceil(lo);
        hi = range->high_open ? std::ceil(hi) - 1 : std::floor(hi);
      } else {
        const double inset = (hi - lo) * 1e-3;  // open ends: stay inside
        if (range->low_open) lo += inset;
        if (range->high_open) hi -= inset;
      }
      if (lo <= hi) {
        ordered_json sweep = {{"random_low", lo}, {"random_high", hi}, {"random_count", 1}, {"integer", integer}};
        if (p.mandatory && p.default_value.is_null()) sweep["values"] = {integer ? json(std::llround((lo + hi) / 2)) : json((lo + hi) / 2)};
        params[p.name] = sweep;
        continue;
      }
    }
    if (p.mandatory && p.default_value.is_null())
      params[p.name] = {{"values", {integer ? json(1) : json(1.0)}},
                        {"reason", "mandatory parameter without a Default or a range: a guess, edit it"}};
  }
  if (!params.empty()) plan["params"] = params;

  std::set<std::string> dtypes;
  for (const std::vector<TensorSlot>* slots : {&space.inputs, &space.outputs})
    for (const TensorSlot& s : *slots)
      for (const auto& [backend, types] : s.types_by_backend)
        for (const TypeChoice& t : types) dtypes.insert(std::string(dtype_name(t.dtype)));
  ordered_json tolerance = ordered_json::object();
  for (const std::string& d : dtypes)
    if (const auto t = default_tolerance(d)) tolerance[d] = *t;
  plan["tolerance"] = tolerance;
  plan["golden"] = {{"max_elements", 256}};
  return plan;
}

void check_plan_ranks(const OpCaseSpace& space, const TestPlan& plan) {
  auto check = [&](const ShapeEntry& e, const std::string& where) {
    for (size_t k = 0; k < e.inputs.size() && !space.inputs.empty(); ++k) {
      const TensorSlot& slot = space.inputs[std::min(k, space.inputs.size() - 1)];
      if (!e.inputs[k]) continue;
      if (e.every_input && !slot.mandatory) continue;
      const int r = required_rank(slot.rank);
      const size_t given = e.inputs[k]->size();
      if (r >= 0 && static_cast<int>(given) != r)
        throw std::runtime_error(plan.file.string() + ": " + where + " gives input '" + slot.name + "' rank " +
                                 std::to_string(given) + " (" + shape_text(*e.inputs[k]) + "), but the spec says Rank " +
                                 slot.rank);
      if (e.every_input)  // a plain array is every mandatory input's shape
        for (const TensorSlot& s : space.inputs) {
          const int rs = required_rank(s.rank);
          if (s.mandatory && rs >= 0 && static_cast<int>(given) != rs)
            throw std::runtime_error(plan.file.string() + ": " + where + " gives input '" + s.name + "' rank " +
                                     std::to_string(given) + ", but the spec says Rank " + s.rank);
        }
    }
  };
  for (size_t i = 0; i < plan.shapes.size(); ++i) check(plan.shapes[i], "/shapes/" + std::to_string(i));
  for (const Fill& f : plan.fills)
    for (size_t i = 0; i < f.shapes.size(); ++i) check(f.shapes[i], "/fills/" + f.name + "/shapes/" + std::to_string(i));
  for (size_t i = 0; i < plan.bench_shapes.size(); ++i) check(plan.bench_shapes[i], "/bench/shapes/" + std::to_string(i));
}

}  // namespace oprig::harness
