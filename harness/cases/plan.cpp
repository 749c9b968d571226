#include "cases/plan.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

namespace oprig::harness {
namespace {

using nlohmann::json;

class PlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw PlanError(where + ": " + what);
}

// Keys of an object must be among `known`: a typo must not silently loosen a test.
void only_keys(const json& j, const std::string& where, std::initializer_list<const char*> known) {
  if (!j.is_object()) fail(where, "expected an object");
  for (const auto& item : j.items()) {
    const std::string& key = item.key();  // not a structured binding: clang 14 cannot capture those
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return key == k; })) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      fail(where, "unknown key \"" + key + "\" (known: " + list + ")");
    }
  }
}

template <class T>
T get(const json& j, const std::string& where) {
  try {
    return j.get<T>();
  } catch (const json::exception& e) {
    fail(where, std::string("wrong type (") + j.type_name() + ")");
  }
}

// A tolerance table (data type or output name -> tolerance) where every entry says why.
void check_tolerance_reasons(const json& table, const std::string& where) {
  if (!table.is_object()) fail(where, "expected an object: data type or output name -> tolerance");
  for (const auto& [key, tol] : table.items())
    if (!tol.is_object() || !tol.contains("reason") || !tol.at("reason").is_string() ||
        tol.at("reason").get<std::string>().empty())
      fail(where + "/" + key, "every tolerance needs a \"reason\"");
}

std::vector<int64_t> parse_dims(const json& j, const std::string& where) {
  const auto dims = get<std::vector<int64_t>>(j, where);
  for (int64_t d : dims)
    if (d < 0) fail(where, "negative dimension");
  return dims;
}

std::vector<Quantization> parse_quant(const json& list, const std::string& where) {
  if (!list.is_array()) fail(where, "expected an array");
  std::vector<Quantization> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = where + "/" + std::to_string(i);
    only_keys(list[i], at, {"scale", "zero_point", "reason"});
    Quantization q{get<double>(list[i].value("scale", json(0.0)), at + "/scale"),
                   get<int32_t>(list[i].value("zero_point", json(0)), at + "/zero_point")};
    if (!(q.scale > 0)) fail(at + "/scale", "must be positive");
    out.push_back(q);
  }
  return out;
}

// {"inputs": [q...], "outputs": [q...]}: the plan's, a shape entry's or a golden literal's.
void parse_quantization(const json& q, const std::string& where, std::vector<Quantization>& inputs,
                        std::vector<Quantization>& outputs) {
  only_keys(q, where, {"inputs", "outputs"});
  if (q.contains("inputs")) inputs = parse_quant(q.at("inputs"), where + "/inputs");
  if (q.contains("outputs")) outputs = parse_quant(q.at("outputs"), where + "/outputs");
}

ShapeEntry parse_shape_entry(const json& j, const std::string& where) {
  ShapeEntry e;
  if (j.is_array()) {
    e.every_input = true;
    e.inputs.push_back(parse_dims(j, where));
    return e;
  }
  only_keys(j, where, {"name", "inputs", "params", "num_outputs", "layout", "quantization", "reduction_length", "about"});
  if (!j.contains("inputs")) fail(where, "a shape entry needs \"inputs\" (one shape per input, null to leave one out)");
  e.name = get<std::string>(j.value("name", json("")), where + "/name");
  const json& inputs = j.at("inputs");
  if (!inputs.is_array()) fail(where + "/inputs", "expected an array of shapes");
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].is_null()) e.inputs.emplace_back(std::nullopt);
    else e.inputs.emplace_back(parse_dims(inputs[i], where + "/inputs/" + std::to_string(i)));
  }
  if (j.contains("params")) {
    e.params = j.at("params");
    if (!e.params.is_object()) fail(where + "/params", "expected an object");
  }
  if (j.contains("layout")) e.layout = get<std::string>(j.at("layout"), where + "/layout");
  if (j.contains("num_outputs")) {
    e.num_outputs = get<int>(j.at("num_outputs"), where + "/num_outputs");
    if (e.num_outputs < 1) fail(where + "/num_outputs", "must be at least 1");
  }
  if (j.contains("quantization"))
    parse_quantization(j.at("quantization"), where + "/quantization", e.input_quantization, e.output_quantization);
  if (j.contains("reduction_length")) {
    e.reduction_length = get<double>(j.at("reduction_length"), where + "/reduction_length");
    if (!(e.reduction_length >= 1)) fail(where + "/reduction_length", "must be at least 1");
  }
  return e;
}

OrderInsensitive parse_order_insensitive(const json& j, const std::string& where) {
  only_keys(j, where, {"outputs", "axis", "when", "reason"});
  OrderInsensitive o;
  if (!j.contains("outputs") || !j.contains("axis") || !j.contains("reason"))
    fail(where, "needs \"outputs\", \"axis\" and \"reason\"");
  o.outputs = get<std::vector<std::string>>(j.at("outputs"), where + "/outputs");
  if (o.outputs.empty()) fail(where + "/outputs", "name at least one output");
  o.axis = j.at("axis");
  if (!o.axis.is_number_integer() && !o.axis.is_string())
    fail(where + "/axis", "an integer, or the name of the parameter holding the axis");
  if (j.contains("when")) {
    o.when = j.at("when");
    if (!o.when.is_object()) fail(where + "/when", "expected an object: parameter -> value");
  }
  o.reason = get<std::string>(j.at("reason"), where + "/reason");
  if (o.reason.empty()) fail(where + "/reason", "must say why the order is open");
  return o;
}

std::vector<ShapeEntry> parse_shapes(const json& j, const std::string& where) {
  if (!j.is_array()) fail(where, "expected an array of shape entries");
  std::vector<ShapeEntry> out;
  for (size_t i = 0; i < j.size(); ++i) out.push_back(parse_shape_entry(j[i], where + "/" + std::to_string(i)));
  return out;
}

FillSpec parse_fill_spec(const json& j, const std::string& where) {
  only_keys(j, where, {"kind", "low", "high", "zero_share", "value", "levels", "exclude_zero", "values", "inputs",
                       "shapes", "types", "about"});
  FillSpec f;
  if (!j.contains("kind")) fail(where, "a fill needs a \"kind\"");
  f.kind = get<std::string>(j.at("kind"), where + "/kind");
  f.low = get<double>(j.value("low", json(0.0)), where + "/low");
  f.high = get<double>(j.value("high", json(0.0)), where + "/high");
  f.zero_share = get<double>(j.value("zero_share", json(0.0)), where + "/zero_share");
  f.value = get<double>(j.value("value", json(0.0)), where + "/value");
  f.levels = get<int>(j.value("levels", json(4)), where + "/levels");
  f.exclude_zero = get<bool>(j.value("exclude_zero", json(false)), where + "/exclude_zero");
  const bool needs_range = f.kind == "uniform" || f.kind == "small_int" || f.kind == "distinct" ||
                           f.kind == "ties" || f.kind == "boxes";
  if (needs_range && !(f.low < f.high)) fail(where, "low must be below high");
  if (f.kind == "edge") {
    if (!j.contains("values")) fail(where, "an edge fill needs \"values\"");
    f.edge_values = get<std::vector<std::string>>(j.at("values"), where + "/values");
    if (f.edge_values.empty()) fail(where, "an edge fill needs values");
  } else if (f.kind == "small_int") {
    if (f.zero_share < 0 || f.zero_share >= 1) fail(where + "/zero_share", "must be in [0, 1)");
  } else if (f.kind == "ties") {
    if (f.levels < 1) fail(where + "/levels", "must be at least 1");
  } else if (f.kind == "boxes") {
    if (f.value < 0 || f.value >= 1) fail(where + "/value", "the share of repeated boxes must be in [0, 1)");
  } else if (f.kind == "specials") {
    if (!j.contains("values")) fail(where, "a specials fill needs \"values\" (edge values to scatter)");
    f.edge_values = get<std::vector<std::string>>(j.at("values"), where + "/values");
    if (f.edge_values.empty()) fail(where, "a specials fill needs values");
    if (!(f.low < f.high)) fail(where, "low must be below high");
    if (!(f.value > 0 && f.value <= 1)) fail(where + "/value", "the share of special elements must be in (0, 1]");
  } else if (!needs_range && f.kind != "all_codes" && f.kind != "constant") {
    fail(where, "unknown fill kind '" + f.kind +
                    "' (uniform, small_int, edge, specials, all_codes, constant, distinct, ties, boxes)");
  }
  return f;
}

Fill parse_fill(const std::string& name, const json& j, const std::string& where) {
  Fill fill;
  fill.name = name;
  if (!j.is_object()) fail(where, "expected an object");
  if (j.contains("inputs")) {
    const json& per = j.at("inputs");
    if (!per.is_object()) fail(where + "/inputs", "expected an object: input name -> fill");
    for (const auto& [input, spec] : per.items())
      fill.by_input[input] = parse_fill_spec(spec, where + "/inputs/" + input);
    // "kind" beside "inputs" is the fill of the remaining inputs.
    if (j.contains("kind")) {
      json rest = j;
      rest.erase("inputs");
      rest.erase("shapes");
      rest.erase("types");
      rest.erase("tolerance");
      fill.all = parse_fill_spec(rest, where);
    }
  } else {
    json rest = j;
    rest.erase("shapes");
    rest.erase("types");
    rest.erase("tolerance");
    fill.all = parse_fill_spec(rest, where);
  }
  if (j.contains("shapes")) fill.shapes = parse_shapes(j.at("shapes"), where + "/shapes");
  if (j.contains("types")) fill.types = get<std::vector<std::string>>(j.at("types"), where + "/types");
  if (j.contains("tolerance")) {
    fill.tolerance = j.at("tolerance");
    check_tolerance_reasons(fill.tolerance, where + "/tolerance");
  }
  return fill;
}

std::vector<Fill> parse_fills(const json& j, const std::string& where) {
  if (!j.is_object()) fail(where, "expected an object: fill name -> fill");
  std::vector<Fill> out;
  for (const auto& [name, f] : j.items()) out.push_back(parse_fill(name, f, where + "/" + name));
  return out;
}

ParamSweep parse_sweep(const std::string& name, const json& p, const std::string& where) {
  only_keys(p, where, {"values", "random_low", "random_high", "random_count", "integer", "reason"});
  ParamSweep sweep;
  sweep.name = name;
  if (p.contains("values")) {
    const json& v = p.at("values");
    if (v.is_string() && v.get<std::string>() == "all") sweep.every_enum_value = true;
    else if (v.is_array() && !v.empty()) sweep.values.assign(v.begin(), v.end());
    else fail(where + "/values", "expected \"all\" (every enumeration value) or a non-empty array");
  }
  sweep.random_low = get<double>(p.value("random_low", json(0.0)), where + "/random_low");
  sweep.random_high = get<double>(p.value("random_high", json(0.0)), where + "/random_high");
  sweep.random_count = get<int>(p.value("random_count", json(0)), where + "/random_count");
  sweep.integer = get<bool>(p.value("integer", json(false)), where + "/integer");
  if (sweep.random_count < 0) fail(where + "/random_count", "must not be negative");
  if (sweep.random_count > 0 && !(sweep.random_low <= sweep.random_high))
    fail(where, "random_low must not exceed random_high");
  return sweep;
}

GoldenLiteral parse_literal(const json& c, const std::string& where) {
  only_keys(c, where, {"name", "dtype", "inputs", "params", "num_outputs", "quantization", "about"});
  GoldenLiteral lit;
  lit.name = get<std::string>(c.value("name", json("")), where + "/name");
  if (lit.name.empty()) fail(where, "a golden case needs a \"name\"");
  lit.dtype = get<std::string>(c.value("dtype", json("")), where + "/dtype");
  if (!c.contains("inputs") || !c.at("inputs").is_array()) fail(where, "a golden case needs \"inputs\"");
  const json& inputs = c.at("inputs");
  for (size_t k = 0; k < inputs.size(); ++k) {
    const std::string at = where + "/inputs/" + std::to_string(k);
    const json& in = inputs[k];
    if (in.is_null()) {
      lit.inputs.emplace_back(std::nullopt);
    } else if (in.is_array()) {  // a 1-D list of values
      GoldenLiteralTensor t;
      t.values = get<std::vector<double>>(in, at);
      t.shape = {static_cast<int64_t>(t.values.size())};
      lit.inputs.emplace_back(std::move(t));
    } else {
      only_keys(in, at, {"shape", "values"});
      GoldenLiteralTensor t;
      t.shape = parse_dims(in.value("shape", json::array()), at + "/shape");
      t.values = get<std::vector<double>>(in.value("values", json::array()), at + "/values");
      size_t n = 1;
      for (int64_t d : t.shape) n *= static_cast<size_t>(d);
      if (n != t.values.size())
        fail(at, "shape holds " + std::to_string(n) + " elements but " + std::to_string(t.values.size()) +
                     " values are given");
      lit.inputs.emplace_back(std::move(t));
    }
  }
  if (c.contains("params")) {
    lit.params = c.at("params");
    if (!lit.params.is_object()) fail(where + "/params", "expected an object");
  }
  if (c.contains("num_outputs")) {
    lit.num_outputs = get<int>(c.at("num_outputs"), where + "/num_outputs");
    if (lit.num_outputs < 1) fail(where + "/num_outputs", "must be at least 1");
  }
  if (c.contains("quantization"))
    parse_quantization(c.at("quantization"), where + "/quantization", lit.input_quantization,
                       lit.output_quantization);
  return lit;
}

}  // namespace

const FillSpec& Fill::for_input(const std::string& input_name) const {
  const auto it = by_input.find(input_name);
  return it == by_input.end() ? all : it->second;
}

TestPlan parse_plan(const json& j, const std::filesystem::path& path) {
  const std::string file = path.string();
  TestPlan plan;
  plan.file = path;
  plan.dir = path.parent_path();
  try {
    only_keys(j, file, {"op", "spec", "about", "shapes", "fills", "quantized_fills", "params", "types",
                        "quantization", "tolerance", "golden", "bench", "signed_zero", "order_insensitive",
                        "derivation", "integer_reference"});
    for (const char* key : {"op", "spec", "shapes", "fills", "tolerance"})
      if (!j.contains(key)) fail(file, std::string("missing required key \"") + key + "\"");
    plan.op = get<std::string>(j.at("op"), file + ": /op");
    plan.spec = get<std::string>(j.at("spec"), file + ": /spec");
    plan.shapes = parse_shapes(j.at("shapes"), file + ": /shapes");
    plan.fills = parse_fills(j.at("fills"), file + ": /fills");
    if (j.contains("quantized_fills")) plan.quantized_fills = parse_fills(j.at("quantized_fills"), file + ": /quantized_fills");
    if (j.contains("params")) {
      if (!j.at("params").is_object()) fail(file + ": /params", "expected an object: parameter name -> sweep");
      for (const auto& [name, p] : j.at("params").items())
        plan.params.push_back(parse_sweep(name, p, file + ": /params/" + name));
    }
    if (j.contains("types")) {
      const json& types = j.at("types");
      if (!types.is_array()) fail(file + ": /types", "expected an array of {inputs, outputs}");
      for (size_t i = 0; i < types.size(); ++i) {
        const std::string at = file + ": /types/" + std::to_string(i);
        only_keys(types[i], at, {"inputs", "outputs"});
        plan.types.push_back({get<std::vector<std::string>>(types[i].value("inputs", json::array()), at + "/inputs"),
                              get<std::vector<std::string>>(types[i].value("outputs", json::array()), at + "/outputs")});
      }
    }
    if (j.contains("quantization"))
      parse_quantization(j.at("quantization"), file + ": /quantization", plan.input_quantization,
                         plan.output_quantization);
    plan.tolerance = j.at("tolerance");
    check_tolerance_reasons(plan.tolerance, file + ": /tolerance");
    if (j.contains("integer_reference")) {
      const std::string at = file + ": /integer_reference";
      only_keys(j.at("integer_reference"), at, {"rule", "about"});
      plan.integer_rule = get<std::string>(j.at("integer_reference").value("rule", json("")), at + "/rule");
      if (plan.integer_rule.empty()) fail(at, "\"rule\" must state the integer rule the reference implements");
    }
    if (j.contains("signed_zero")) {
      const json& z = j.at("signed_zero");
      if (z.is_boolean()) plan.signed_zero_all = z.get<bool>();
      else if (z.is_array()) plan.signed_zero_outputs = get<std::vector<std::string>>(z, file + ": /signed_zero");
      else fail(file + ": /signed_zero", "expected true, false or a list of output names");
    }
    if (j.contains("order_insensitive")) {
      const json& list = j.at("order_insensitive");
      if (!list.is_array()) fail(file + ": /order_insensitive", "expected an array");
      for (size_t i = 0; i < list.size(); ++i)
        plan.order_insensitive.push_back(
            parse_order_insensitive(list[i], file + ": /order_insensitive/" + std::to_string(i)));
    }
    if (j.contains("golden")) {
      const json& g = j.at("golden");
      only_keys(g, file + ": /golden", {"max_elements", "shapes_per_variant", "cases", "about"});
      plan.golden_max_elements = get<size_t>(g.value("max_elements", json(4096)), file + ": /golden/max_elements");
      plan.golden_shapes_per_variant =
          get<size_t>(g.value("shapes_per_variant", json(0)), file + ": /golden/shapes_per_variant");
      const json cases = g.value("cases", json::array());
      for (size_t i = 0; i < cases.size(); ++i)
        plan.golden_literals.push_back(parse_literal(cases[i], file + ": /golden/cases/" + std::to_string(i)));
    }
    if (j.contains("bench")) {
      const json& b = j.at("bench");
      only_keys(b, file + ": /bench", {"shapes", "repetitions", "about"});
      if (b.contains("shapes")) plan.bench_shapes = parse_shapes(b.at("shapes"), file + ": /bench/shapes");
      plan.bench_repetitions = get<int>(b.value("repetitions", json(9)), file + ": /bench/repetitions");
    }
  } catch (const PlanError&) {
    throw;
  } catch (const json::exception& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
  std::set<std::string> names;
  for (const Fill& f : plan.fills)
    if (!names.insert(f.name).second) throw std::runtime_error(file + ": /fills: duplicate fill " + f.name);
  return plan;
}

TestPlan load_plan(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot open test plan");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
    throw std::runtime_error(path.string() + ": not valid JSON: " + e.what());
  }
  return parse_plan(j, path);
}

std::vector<std::filesystem::path> find_plans(const std::filesystem::path& suite_dir) {
  std::vector<std::filesystem::path> plans;
  if (!std::filesystem::is_directory(suite_dir))
    throw std::runtime_error(suite_dir.string() + ": not a directory");
  for (const auto& entry : std::filesystem::directory_iterator(suite_dir)) {
    const auto plan = entry.path() / "plan.json";
    if (entry.is_directory() && std::filesystem::exists(plan)) plans.push_back(plan);
  }
  std::sort(plans.begin(), plans.end());
  return plans;
}

}  // namespace oprig::harness
