#include "cases/derive_plan.hpp"

#include <cmath>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

#include "cases/derive_nodes.hpp"
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

namespace {

// The plan from the Ranks alone: what oprig derives when no valid node can
// be found from the spec's texts and the op's judge (the notes say why).
ordered_json rank_plan(const OpCaseSpace& space, ordered_json plan) {
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
  return plan;
}

// Every data type some tensor of the op has on some backend.
std::set<std::string> data_types(const std::vector<TensorSlot>& slots) {
  std::set<std::string> out;
  for (const TensorSlot& s : slots)
    for (const auto& [backend, types] : s.types_by_backend)
      for (const TypeChoice& t : types) out.insert(std::string(dtype_name(t.dtype)));
  return out;
}

// The float type a fill that costs cases runs in: FLOAT_32 where the op has it.
std::vector<std::string> primary_float(const std::set<std::string>& types) {
  for (const char* t : {"FLOAT_32", "FLOAT_16", "FLOAT_64"})
    if (types.count(t)) return {t};
  return {};
}

ordered_json entry_json(const DerivedNode& n, const std::string& layout) {
  ordered_json e;
  e["name"] = n.name;
  ordered_json inputs = ordered_json::array();
  for (const auto& s : n.node.inputs) inputs.push_back(s ? ordered_json(*s) : ordered_json(nullptr));
  e["inputs"] = inputs;
  if (!n.node.params.empty()) e["params"] = n.node.params;
  if (n.reduction_length > 1) e["reduction_length"] = n.reduction_length;
  if (!layout.empty()) e["layout"] = layout;
  e["about"] = n.purpose;
  return e;
}

}  // namespace

ordered_json derived_tolerance(const std::string& dtype_name, bool quantized_or_integer_output) {
  (void)quantized_or_integer_output;
  if (dtype_name == "FLOAT_16" || dtype_name == "FLOAT_32" || dtype_name == "FLOAT_64") {
    const std::string sums = dtype_name == "FLOAT_64" ? "FLOAT_64" : "FLOAT_32";
    return {{"ulp", 4},
            {"accumulation", sums},
            {"reason", "derived: 4 ulp of the expected value (one rounding of each step of a short chain of "
                       "correctly rounded or near-correct functions) plus the work behind the element: L * eps * "
                       "|expected| + 4 * sqrt(L) * eps * rms(expected), eps of sums carried in " + sums +
                       " (fp16 data is summed in fp32), L the terms summed into one output element (the shape "
                       "entry's reduction_length: the sizes an input has that no output has, or the axis); a "
                       "narrower accumulator errs far more and fails (harness/README.md, derived plans)"}};
  }
  if (dtype_name == "BOOL_8") return {{"lsb", 0}, {"reason", "derived: booleans are exact"}};
  return {{"lsb", 1},
          {"reason", "derived: quantised codes within 1 (one requantisation may round either way at a tie)"}};
}

ordered_json derive_plan_json(const OpCaseSpace& space, const std::string& spec_file,
                              const std::vector<LayoutJudge>& judges) {
  ordered_json plan;
  plan["op"] = space.op;
  plan["spec"] = spec_file;
  std::vector<std::pair<std::string, Derivation>> derivations;
  std::vector<LayoutJudge> order = judges;
  if (order.empty()) order.push_back({"", nullptr});
  for (const LayoutJudge& j : order)
    if (auto d = derive_nodes(space, j.judge)) derivations.emplace_back(j.layout, std::move(*d));
  const std::set<std::string> in_types = data_types(space.inputs);
  const std::set<std::string> out_types = data_types(space.outputs);
  std::set<std::string> all_types = in_types;
  all_types.insert(out_types.begin(), out_types.end());

  if (derivations.empty()) {
    plan["about"] =
        "Derived from the spec by oprig (no plan.json), from the Ranks alone: no valid node could be built from the "
        "spec's shape texts" + std::string(judges.empty() || judges.front().judge == nullptr ? "" : " and the op's judge") +
        ". Edit the shapes to valid nodes of the op.";
    plan = rank_plan(space, plan);
  } else {
    const Derivation& first = derivations.front().second;
    plan["about"] =
        "Derived from the spec by oprig (no plan.json): valid nodes by construction (" +
        (first.judge.empty() ? std::string("the spec's constraints") : first.judge) +
        " accepted each), every parameter's domain swept, sizes around vector widths, one-element, empty and large "
        "tensors, random nodes, hostile fills, tolerances from the types and the work (harness/README.md, derived "
        "plans). Edit it to fit the op.";
    ordered_json derivation = ordered_json::object();
    derivation["judge"] = first.judge.empty() ? "none: the spec's constraints alone (no reference to ask)" : first.judge;
    size_t tried = 0, rejected = 0, nodes = 0;
    ordered_json examples = ordered_json::array(), notes = ordered_json::array();
    for (const auto& [layout, d] : derivations) {
      tried += d.tried;
      rejected += d.rejected;
      nodes += d.nodes.size();
      for (const std::string& r : d.rejections) examples.push_back((layout.empty() ? "" : layout + ": ") + r);
      for (const std::string& n : d.notes) notes.push_back((layout.empty() ? "" : layout + ": ") + n);
    }
    derivation["nodes"] = nodes;
    derivation["candidates_judged"] = tried;
    derivation["candidates_rejected"] = rejected;
    if (!examples.empty()) derivation["rejected_examples"] = examples;
    if (!notes.empty()) derivation["notes"] = notes;
    plan["derivation"] = derivation;

    ordered_json shapes = ordered_json::array();
    std::map<std::string, ordered_json> by_fill;
    for (const char* f : {"small_int", "huge", "specials", "ties"}) by_fill[f] = ordered_json::array();
    ordered_json code_shapes = ordered_json::array();
    size_t code_best = 0;
    for (const auto& [layout, d] : derivations)
      for (const DerivedNode& n : d.nodes) {
        const ordered_json e = entry_json(n, layout);
        shapes.push_back(e);
        for (const std::string& f : n.fills)
          if (by_fill.count(f)) by_fill[f].push_back(e);
        size_t count = 1;
        if (!n.node.inputs.empty() && n.node.inputs[0])
          for (int64_t x : *n.node.inputs[0]) count *= static_cast<size_t>(x);
        if (count >= 16 && (code_best == 0 || (count >= 256 && (code_best < 256 || count < code_best)) ||
                            (code_best < 256 && count > code_best))) {
          code_best = count;
          code_shapes = ordered_json::array({e});
        }
      }
    plan["shapes"] = shapes;
    const std::string input0 = space.inputs.front().name;
    const std::vector<std::string> floats = primary_float(in_types);
    std::vector<std::string> float_types;
    for (const char* t : {"FLOAT_16", "FLOAT_32", "FLOAT_64"})
      if (in_types.count(t)) float_types.push_back(t);
    ordered_json fills = ordered_json::object();
    fills["uniform"] = {{"kind", "uniform"}, {"low", -1}, {"high", 1},
                        {"about", "[-1, 1] on every input: every node, every type"}};
    if (!by_fill["small_int"].empty()) {
      ordered_json f = {{"kind", "small_int"}, {"low", -4}, {"high", 4}, {"zero_share", 0.1},
                        {"about", "exact small integers (the opsuite's cancellation-safe fill): products and sums "
                                  "are exact in every float type, so no order of summation may differ"}};
      // A selection's winners of a fill with zeros are mostly zeros: no zeros there.
      if (first.selection) {
        f["zero_share"] = 0;
        f["exclude_zero"] = true;
      }
      f["shapes"] = by_fill["small_int"];
      std::vector<std::string> types = floats;
      for (const std::string& t : in_types)
        if (t != "FLOAT_16" && t != "FLOAT_32" && t != "FLOAT_64") types.push_back(t);
      if (!types.empty()) f["types"] = types;
      fills["small_int"] = f;
    }
    if (!float_types.empty() && !by_fill["huge"].empty()) {
      ordered_json f = {{"inputs", {{input0, {{"kind", "uniform"}, {"low", -1e30}, {"high", 1e30}}}}},
                        {"kind", "uniform"}, {"low", -1}, {"high", 1},
                        {"about", "huge values in " + input0 + " (up to 1e30, the type's largest finite for "
                                  "FLOAT_16): what overflows without care (an exponential without its maximum "
                                  "subtracted) overflows here; the other inputs stay in [-1, 1], so sums of "
                                  "products stay finite in fp32 whatever their order"}};
      f["shapes"] = by_fill["huge"];
      f["types"] = floats;
      ordered_json tol = ordered_json::object();
      for (const std::string& t : float_types) {
        ordered_json entry = derived_tolerance(t, false);
        entry["mistrust_zero_fraction"] = 1.0;
        entry["reason"] = entry["reason"].get<std::string>() +
                          "; huge values make many results exactly zero (one-hot slices), which is right here";
        tol[t] = entry;
      }
      f["tolerance"] = tol;
      fills["huge"] = f;
    }
    if (!float_types.empty() && !by_fill["specials"].empty()) {
      ordered_json f = {{"inputs",
                         {{input0,
                           {{"kind", "specials"},
                            {"values", {"nan", "inf", "-inf", "-0", "+0", "huge", "-huge", "denorm_min", "-denorm_min",
                                        "lowest_normal"}},
                            {"value", 0.125},
                            {"low", -1},
                            {"high", 1}}}}},
                        {"kind", "uniform"}, {"low", -1}, {"high", 1},
                        {"about", "one element in 8 of " + input0 + " a special value (NaN, +-inf, -0, +0, +-huge, "
                                  "denormals, the smallest normal) among values in [-1, 1]: NaN and infinities "
                                  "propagate where the reference says, and stay in their own slices"}};
      f["shapes"] = by_fill["specials"];
      f["types"] = float_types;
      fills["specials"] = f;
    }
    if (first.selection && !by_fill["ties"].empty()) {
      ordered_json f = {{"kind", "ties"}, {"levels", 4}, {"low", -1.5}, {"high", 1.5},
                        {"about", "values from four levels only (+-0.5, +-1.5, no zero, so the comparison is not "
                                  "mistrusted): ties for selections, which the reference breaks its own way (an "
                                  "unstable order shows)"}};
      f["shapes"] = by_fill["ties"];
      if (!floats.empty()) f["types"] = floats;
      fills["ties"] = f;
    }
    plan["fills"] = fills;
    if (!code_shapes.empty())
      plan["quantized_fills"] = {{"codes", {{"kind", "all_codes"}, {"shapes", code_shapes},
                                            {"about", "consecutive codes of the quantised types"}}}};
    std::set<std::string> zero_sign;
    ordered_json unordered = ordered_json::array();
    for (const auto& [layout, d] : derivations) {
      zero_sign.insert(d.signed_zero_outputs.begin(), d.signed_zero_outputs.end());
      if (unordered.empty()) unordered = d.order_insensitive;
    }
    if (!zero_sign.empty()) plan["signed_zero"] = zero_sign;
    if (!unordered.empty()) plan["order_insensitive"] = unordered;
  }
  if (!plan.contains("quantized_fills")) {
    // all_codes gives consecutive codes, so a tensor of 256 elements holds every
    // 8-bit code once; 16-bit types get 256 consecutive codes from a seeded start.
    ordered_json codes = {{"kind", "all_codes"}, {"about", "every code of an 8-bit type: 256 elements"}};
    const std::string rank0 = space.inputs.empty() ? "" : space.inputs.front().rank;
    if (const std::vector<int64_t> shape = code_range_shape(rank0); !shape.empty())
      codes["shapes"] = ordered_json::array({shape});
    plan["quantized_fills"] = {{"codes", codes}};
  }

  // Tolerances: floats from their type and the work; integer outputs (indices, counts) exact.
  ordered_json tolerance = ordered_json::object();
  for (const std::string& d : all_types) tolerance[d] = derived_tolerance(d, false);
  for (const TensorSlot& o : space.outputs) {
    bool plain_integer = false, other = false;
    for (const auto& [backend, types] : o.types_by_backend)
      for (const TypeChoice& t : types) {
        if (!t.quantized && is_integer_dtype(t.dtype) && t.dtype != OPRIG_DTYPE_BOOL_8) plain_integer = true;
        else other = true;
      }
    if (plain_integer && !other)
      tolerance[o.name] = {{"lsb", 0}, {"mistrust_zero_fraction", 1.0},
                           {"reason", "derived: integer outputs (indices, counts) are exact; index 0 is as good an "
                                      "answer as any, so zeros are no reason to mistrust"}};
  }
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
