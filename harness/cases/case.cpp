#include "cases/case.hpp"

#include <algorithm>
#include <optional>
#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>

#include "cases/rng.hpp"
#include "core/dtype.hpp"
#include "spec/opdef.hpp"

namespace oprig::harness {
namespace {

using nlohmann::json;

bool spec_iequals(const std::string& a, const std::string& b) { return spec::iequals(a, b); }

std::string short_type(const TypeChoice& t) { return std::string(dtype_short_name(t.dtype)); }

// "f32" when every tensor has the primary type; else the distinct types in
// order of appearance, inputs first: "f32_i32" (ArgMax), "f32_u8" (Quantize).
std::string types_text_of(const Case& c) {
  std::vector<std::string> seen;
  auto add = [&](const CaseTensor& t) {
    if (!t.present) return;
    const std::string s = short_type(t.type);
    if (std::find(seen.begin(), seen.end(), s) == seen.end()) seen.push_back(s);
  };
  for (const CaseTensor& t : c.inputs) add(t);
  for (const CaseTensor& t : c.outputs) add(t);
  if (seen.size() <= 1) return std::string(dtype_short_name(c.dtype));
  std::string out;
  for (const std::string& s : seen) out += (out.empty() ? "" : "_") + s;
  return out;
}

void finish_ids(Case& c) {
  c.types_text = types_text_of(c);
  c.golden_id = c.types_text + "__" + c.shape_text + "__" + id_text(c.fill) + "__" + c.variant;
  c.id = op_key(c.op) + "__" + c.golden_id + "__" + c.backend;
  c.seed = seed_of(c.op, c.golden_id);
}

// A swept value as an id token: enumeration values by name ("max"), others
// as name and value ("axism1", "keepdims1", "k3", "epsilon0p001").
std::string value_token(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_string()) return id_text(v.get<std::string>());
  if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    return (i < 0 ? "m" : "") + std::to_string(i < 0 ? -i : i);
  }
  if (v.is_number()) {
    std::string s = v.dump();
    std::string out;
    for (char ch : s) out += ch == '-' ? 'm' : ch == '.' ? 'p' : ch == '+' ? 'p' : static_cast<char>(std::tolower(ch));
    return id_text(out);
  }
  if (v.is_array()) {
    std::string out;
    for (const json& e : v) out += (out.empty() ? "" : "x") + value_token(e);
    return out.empty() ? "empty" : out;
  }
  return "v";
}

std::string sweep_token(const std::string& name, const json& value, const OpCaseSpace& space) {
  const ParamSlot* slot = space.param(name);
  if (slot != nullptr && !slot->enumeration.empty() && value.is_string()) return id_text(value.get<std::string>());
  return id_text(name) + value_token(value);
}

bool is_integer_type(oprig_dtype d) {
  return dtype_is_signed_integer(d) || dtype_is_unsigned_integer(d) || d == OPRIG_DTYPE_BOOL_8;
}

// Random parameter values are drawn from the golden id's seed; integer
// parameters are rounded, float ones rounded to fp32 (the type they reach the
// kernel in), so reference and kernel agree.
json random_value(const ParamSweep& sweep, const ParamSlot* slot, SplitMix64& rng) {
  const double v = sweep.random_low + (sweep.random_high - sweep.random_low) * rng.unit();
  const bool integer = sweep.integer || (slot != nullptr && is_integer_type(slot->dtype));
  if (integer) return static_cast<int64_t>(std::llround(v));
  return static_cast<double>(static_cast<float>(v));
}

struct SweepChoice {
  std::string label;
  json params = json::object();
};

// The cartesian product of the swept parameter values, minus those the shape
// entry fixes.
std::vector<SweepChoice> sweep_choices(const OpCaseSpace& space, const TestPlan& plan, const ShapeEntry& entry) {
  std::vector<SweepChoice> choices(1);
  for (const ParamSweep& sweep : plan.params) {
    if (entry.params.contains(sweep.name)) continue;
    std::vector<json> values = sweep.values;
    if (sweep.every_enum_value) {
      const ParamSlot* slot = space.param(sweep.name);
      if (slot == nullptr || slot->enumeration.empty())
        throw std::runtime_error(plan.file.string() + ": /params/" + sweep.name +
                                 ": \"values\": \"all\" needs an Enumeration in the spec");
      for (const std::string& e : slot->enumeration) values.emplace_back(e);
    }
    if (values.empty()) continue;
    std::vector<SweepChoice> next;
    for (const SweepChoice& c : choices) {
      for (const json& v : values) {
        SweepChoice n = c;
        n.params[sweep.name] = v;
        n.label += (n.label.empty() ? "" : "_") + sweep_token(sweep.name, v, space);
        next.push_back(std::move(n));
      }
    }
    choices = std::move(next);
    if (choices.size() > 4096)
      throw std::runtime_error(plan.file.string() + ": /params: the sweeps multiply to more than 4096 variants");
  }
  return choices;
}

int max_random_variants(const TestPlan& plan) {
  int n = 0;
  for (const ParamSweep& sweep : plan.params) n = std::max(n, sweep.random_count);
  return n;
}

Quantization quant_at(const std::vector<Quantization>& list, size_t k, oprig_dtype dtype) {
  if (!list.empty()) return list[std::min(k, list.size() - 1)];
  // No plan figure (a plan derived from the spec): codes cover [-1, 1].
  const bool is_signed = dtype_is_signed_integer(dtype);
  const double bits = 8.0 * static_cast<double>(dtype_size(dtype));
  const double levels = std::ldexp(1.0, static_cast<int>(std::min(bits, 31.0))) - 1;
  Quantization q;
  q.scale = 2.0 / levels;
  q.zero_point = is_signed ? 0 : static_cast<int32_t>(std::ceil(levels / 2));
  return q;
}

// Inputs of one case from a shape entry: entry shapes onto the spec's input
// defs, a Repeated last def taking every remaining shape.
std::vector<CaseTensor> case_inputs(const OpCaseSpace& space, const TypeCombo& combo, const ShapeEntry& entry,
                                    const TestPlan& plan, const std::string& backend) {
  std::vector<CaseTensor> out;
  const size_t slots = space.inputs.size();
  auto tensor = [&](size_t slot) {
    CaseTensor t;
    t.name = space.inputs[slot].name;
    t.type = combo.inputs.at(slot);
    t.is_static = space.inputs[slot].is_static;
    t.layout = space.input_layout(slot, backend);
    return t;
  };
  if (entry.every_input) {
    for (size_t s = 0; s < slots; ++s) {
      CaseTensor t = tensor(s);
      if (space.inputs[s].mandatory) t.shape = *entry.inputs.at(0);
      else t.present = false;
      out.push_back(std::move(t));
    }
  } else {
    for (size_t k = 0; k < entry.inputs.size(); ++k) {
      const size_t s = std::min(k, slots == 0 ? 0 : slots - 1);
      if (slots == 0 || (k >= slots && !space.inputs[slots - 1].repeated))
        throw std::runtime_error(plan.file.string() + ": a shape entry gives " + std::to_string(entry.inputs.size()) +
                                 " inputs, but " + space.op + " has " + std::to_string(slots));
      CaseTensor t = tensor(s);
      if (entry.inputs[k]) t.shape = *entry.inputs[k];
      else if (space.inputs[s].mandatory)
        throw std::runtime_error(plan.file.string() + ": a shape entry leaves out mandatory input '" +
                                 space.inputs[s].name + "' of " + space.op);
      else t.present = false;
      out.push_back(std::move(t));
    }
    for (size_t s = entry.inputs.size(); s < slots; ++s) {
      if (space.inputs[s].mandatory)
        throw std::runtime_error(plan.file.string() + ": a shape entry gives no shape for mandatory input '" +
                                 space.inputs[s].name + "' of " + space.op);
      CaseTensor t = tensor(s);
      t.present = false;
      out.push_back(std::move(t));
    }
  }
  // Trailing absent inputs are left off the list; inner ones stay as placeholders.
  while (!out.empty() && !out.back().present) out.pop_back();
  const std::vector<Quantization>& quant =
      entry.input_quantization.empty() ? plan.input_quantization : entry.input_quantization;
  size_t k = 0;
  for (CaseTensor& t : out)
    if (t.type.quantized) t.quant = quant_at(quant, k++, t.type.dtype);
  return out;
}

std::vector<CaseTensor> case_outputs(const OpCaseSpace& space, const TypeCombo& combo, const ShapeEntry& entry,
                                     const TestPlan& plan) {
  const size_t slots = space.outputs.size();
  if (slots == 0) return {};
  size_t count = slots;
  if (entry.num_outputs > 0) {
    if (slots == 0 || (!space.outputs.back().repeated && static_cast<size_t>(entry.num_outputs) != slots))
      throw std::runtime_error(plan.file.string() + ": num_outputs " + std::to_string(entry.num_outputs) +
                               " needs a Repeated last output in the spec of " + space.op);
    // An optional (Mandatory false) Repeated last output may occur zero times.
    const bool last_optional = space.outputs.back().repeated && !space.outputs.back().mandatory;
    if (static_cast<size_t>(entry.num_outputs) + (last_optional ? 1 : 0) < slots)
      throw std::runtime_error(plan.file.string() + ": num_outputs is below the op's output count");
    count = static_cast<size_t>(entry.num_outputs);
  }
  const std::vector<Quantization>& quant =
      entry.output_quantization.empty() ? plan.output_quantization : entry.output_quantization;
  std::vector<CaseTensor> out;
  size_t k = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t s = std::min(i, slots - 1);
    CaseTensor t;
    t.name = space.outputs[s].name;
    t.type = combo.outputs.at(s);
    if (t.type.quantized) t.quant = quant_at(quant, k++, t.type.dtype);
    out.push_back(std::move(t));
  }
  return out;
}

std::string entry_shape_text(const ShapeEntry& entry, const std::vector<CaseTensor>& inputs) {
  // A layout-specific entry names its layout: the same dims mean different
  // things in NHWC and NCHW, so they must not share a golden id.
  const std::string layout = entry.layout.empty() ? "" : id_text(entry.layout) + "_";
  if (!entry.name.empty()) return layout + id_text(entry.name);
  if (entry.every_input) return layout + shape_text(*entry.inputs.at(0));
  std::string out;
  for (size_t k = 0; k < inputs.size(); ++k)
    out += (k ? "_" : "") + (inputs[k].present ? shape_text(inputs[k].shape) : std::string("none"));
  return layout + (out.empty() ? "noinputs" : out);
}

bool any_quantized_input(const TypeCombo& combo) {
  return std::any_of(combo.inputs.begin(), combo.inputs.end(), [](const TypeChoice& t) { return t.quantized; });
}

void add_variants(std::vector<Case>& out, const Case& base, const OpCaseSpace& space, const TestPlan& plan,
                  const ShapeEntry& entry) {
  const int randoms = max_random_variants(plan);
  for (const SweepChoice& choice : sweep_choices(space, plan, entry)) {
    for (int k = 0; k <= randoms; ++k) {
      Case c = base;
      c.variant = (choice.label.empty() ? "" : choice.label + "_") + "p" + std::to_string(k);
      finish_ids(c);  // golden id first: the params' seed derives from it
      c.params = entry.params;
      for (const auto& [name, value] : choice.params.items()) c.params[name] = value;
      if (k > 0) {
        SplitMix64 rng(seed_of(c.op, c.golden_id + "__params"));
        for (const ParamSweep& sweep : plan.params) {
          if (sweep.random_count == 0) continue;
          const json v = random_value(sweep, space.param(sweep.name), rng);
          if (!entry.params.contains(sweep.name) && !choice.params.contains(sweep.name)) c.params[sweep.name] = v;
        }
      }
      out.push_back(std::move(c));
    }
  }
}

std::vector<Case> cases_for(const OpCaseSpace& space, const TestPlan& plan, const std::string& backend,
                            const TypeCombo& combo) {
  std::vector<Case> out;
  Case base;
  base.op = space.op;
  base.package = space.package;
  base.backend = backend;
  base.dtype = combo.primary.dtype;
  base.quantized = combo.primary.quantized;

  std::vector<const Fill*> usable;
  if (any_quantized_input(combo)) {
    for (const Fill& f : plan.quantized_fills) usable.push_back(&f);
    for (const Fill& f : plan.fills)  // random codes over the whole range too
      if (f.name == "uniform") usable.push_back(&f);
  } else {
    for (const Fill& f : plan.fills) usable.push_back(&f);
  }
  for (const Fill* fill : usable) {
    if (!fill->types.empty() &&
        std::none_of(fill->types.begin(), fill->types.end(), [&](const std::string& t) {
          return dtype_from_name(t) == combo.primary.dtype;
        }))
      continue;
    std::vector<ShapeEntry> shapes = fill->shapes;
    if (shapes.empty() && fill->all.kind == "edge") {  // one element per edge value
      ShapeEntry e;
      e.every_input = true;
      e.inputs.push_back(std::vector<int64_t>{static_cast<int64_t>(fill->all.edge_values.size())});
      shapes.push_back(std::move(e));
    }
    if (shapes.empty()) shapes = plan.shapes;
    for (const ShapeEntry& entry : shapes) {
      if (!entry.layout.empty() && !spec_iequals(entry.layout, space.input_layout(0, backend))) continue;
      Case c = base;
      c.fill = fill->name;
      c.inputs = case_inputs(space, combo, entry, plan, backend);
      c.outputs = case_outputs(space, combo, entry, plan);
      c.shape_text = entry_shape_text(entry, c.inputs);
      c.reduction_length = entry.reduction_length;
      add_variants(out, c, space, plan, entry);
    }
  }
  for (size_t i = 0; i < plan.golden_literals.size(); ++i) {
    const GoldenLiteral& lit = plan.golden_literals[i];
    if (dtype_from_name(lit.dtype) != combo.primary.dtype || any_quantized_input(combo)) continue;
    ShapeEntry entry;
    entry.input_quantization = lit.input_quantization;
    entry.output_quantization = lit.output_quantization;
    for (const auto& t : lit.inputs)
      entry.inputs.push_back(t ? std::optional<std::vector<int64_t>>(t->shape) : std::nullopt);
    entry.num_outputs = lit.num_outputs;
    Case c = base;
    c.fill = lit.name;
    c.variant = "lit";
    c.literal = static_cast<int>(i);
    c.inputs = case_inputs(space, combo, entry, plan, backend);
    c.outputs = case_outputs(space, combo, entry, plan);
    c.shape_text = entry_shape_text(entry, c.inputs);
    finish_ids(c);
    c.params = lit.params;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

std::string OpCaseSpace::input_layout(size_t index, const std::string& backend) const {
  if (index >= inputs.size()) return "";
  const TensorSlot& slot = inputs[index];
  const auto it = slot.layout_by_backend.find(backend);
  return it != slot.layout_by_backend.end() && !it->second.empty() ? it->second : slot.layout;
}

const ParamSlot* OpCaseSpace::param(const std::string& name) const {
  for (const ParamSlot& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<TypeCombo> OpCaseSpace::type_combos(const std::string& backend, const TestPlan& plan) const {
  std::vector<const std::vector<TypeChoice>*> allowed;
  for (const TensorSlot& s : inputs) {
    const auto it = s.types_by_backend.find(backend);
    if (it == s.types_by_backend.end() || it->second.empty()) return {};
    allowed.push_back(&it->second);
  }
  for (const TensorSlot& s : outputs) {
    const auto it = s.types_by_backend.find(backend);
    if (it == s.types_by_backend.end() || it->second.empty()) return {};
    allowed.push_back(&it->second);
  }
  if (allowed.empty()) return {};
  auto contains = [](const std::vector<TypeChoice>& list, const TypeChoice& t) {
    return std::find(list.begin(), list.end(), t) != list.end();
  };
  std::vector<TypeCombo> out;
  if (!plan.types.empty()) {
    for (const TypeCombination& tc : plan.types) {
      if (tc.inputs.size() != inputs.size() || tc.outputs.size() != outputs.size())
        throw std::runtime_error(plan.file.string() + ": /types: each entry needs one type per input (" +
                                 std::to_string(inputs.size()) + ") and per output (" +
                                 std::to_string(outputs.size()) + ")");
      TypeCombo combo;
      bool fits = true;
      size_t i = 0, most = 0, driving = 0;
      auto choice = [&](const std::string& name) {
        const auto type = spec::parse_data_type(name);
        std::string why;
        const auto rt = type ? spec::runtime_type(*type, &why) : std::nullopt;
        if (!rt) throw std::runtime_error(plan.file.string() + ": /types: '" + name + "' is not a data type oprig runs");
        TypeChoice t{rt->dtype, rt->quantized};
        if (!contains(*allowed[i], t)) fits = false;
        if (allowed[i]->size() > most) {
          most = allowed[i]->size();
          driving = i;
        }
        ++i;
        return t;
      };
      for (const std::string& n : tc.inputs) combo.inputs.push_back(choice(n));
      for (const std::string& n : tc.outputs) combo.outputs.push_back(choice(n));
      combo.primary = driving < combo.inputs.size() ? combo.inputs[driving] : combo.outputs[driving - combo.inputs.size()];
      if (fits) out.push_back(std::move(combo));
    }
    return out;
  }
  size_t driving = 0;
  for (size_t i = 1; i < allowed.size(); ++i)
    if (allowed[i]->size() > allowed[driving]->size()) driving = i;
  // A def that does not allow t takes the first of its types in t's family
  // (a quantised activation with quantised weights and an integer bias, a
  // float one with floats), else its first type: quantised activations with
  // float weights are a combination no kernel takes.
  const auto is_float = [](oprig_dtype d) {
    return d == OPRIG_DTYPE_FLOAT_16 || d == OPRIG_DTYPE_FLOAT_32 || d == OPRIG_DTYPE_FLOAT_64;
  };
  const auto kin = [&](const std::vector<TypeChoice>& list, const TypeChoice& t) {
    const auto first = [&](auto&& pred) {
      const auto it = std::find_if(list.begin(), list.end(), pred);
      return it == list.end() ? std::nullopt : std::optional<TypeChoice>(*it);
    };
    if (t.quantized)
      if (auto q = first([](const TypeChoice& c) { return c.quantized; })) return *q;
    if (!is_float(t.dtype))
      if (auto i = first([&](const TypeChoice& c) { return !c.quantized && !is_float(c.dtype); })) return *i;
    if (is_float(t.dtype))
      if (auto f = first([&](const TypeChoice& c) { return is_float(c.dtype); })) return *f;
    return list.front();
  };
  for (const TypeChoice& t : *allowed[driving]) {
    TypeCombo combo;
    combo.primary = t;
    for (size_t i = 0; i < allowed.size(); ++i) {
      const TypeChoice pick = contains(*allowed[i], t) ? t : kin(*allowed[i], t);
      (i < inputs.size() ? combo.inputs : combo.outputs).push_back(pick);
    }
    const bool duplicate = std::any_of(out.begin(), out.end(), [&](const TypeCombo& o) {
      return o.inputs == combo.inputs && o.outputs == combo.outputs;
    });
    if (!duplicate) out.push_back(std::move(combo));
  }
  return out;
}

std::vector<int64_t> Case::shape() const {
  for (const CaseTensor& t : inputs)
    if (t.present) return t.shape;
  return {};
}

size_t Case::element_count() const {
  size_t most = 0;
  for (const CaseTensor& t : inputs) {
    if (!t.present) continue;
    size_t n = 1;
    for (int64_t d : t.shape) n *= static_cast<size_t>(d);
    most = std::max(most, n);
  }
  return most;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  if (shape.empty()) return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(shape[i]);
  }
  return s;
}

std::string id_text(const std::string& text) {
  std::string out;
  for (char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    out += std::isalnum(c) && c < 0x80 ? static_cast<char>(std::tolower(c)) : '_';
  }
  return out;
}

std::string op_key(const std::string& op) { return id_text(op); }

uint64_t seed_of(const std::string& op, const std::string& golden_id) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char ch : op_key(op) + "/" + golden_id) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::vector<Case> generate_cases(const OpCaseSpace& space, const TestPlan& plan,
                                 const std::vector<std::string>& backends) {
  std::vector<Case> out;
  for (const std::string& backend : backends) {
    for (const TypeCombo& combo : space.type_combos(backend, plan)) {
      std::vector<Case> more = cases_for(space, plan, backend, combo);
      out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
  }
  return out;
}

std::vector<Case> golden_cases(const OpCaseSpace& space, const TestPlan& plan) {
  std::vector<Case> out;
  std::set<std::string> seen;
  std::map<std::string, size_t> shapes_of_variant;  // "types/fill/variant" -> shapes taken
  for (const std::string& backend : space.backends) {
    for (const TypeCombo& combo : space.type_combos(backend, plan)) {
      for (Case& c : cases_for(space, plan, backend, combo)) {
        if (c.element_count() > plan.golden_max_elements) continue;
        if (seen.count(c.golden_id)) continue;
        if (plan.golden_shapes_per_variant > 0 && c.literal < 0 &&
            ++shapes_of_variant[c.types_text + "/" + c.fill + "/" + c.variant] > plan.golden_shapes_per_variant)
          continue;
        seen.insert(c.golden_id);
        c.backend.clear();
        c.id.clear();
        out.push_back(std::move(c));
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.golden_id < b.golden_id; });
  return out;
}

const Fill* find_fill(const TestPlan& plan, const Case& c) {
  const bool quantized_inputs =
      std::any_of(c.inputs.begin(), c.inputs.end(), [](const CaseTensor& t) { return t.type.quantized; });
  for (const Fill& f : plan.fills)
    if (f.name == c.fill && (!quantized_inputs || f.name == "uniform")) return &f;
  for (const Fill& f : plan.quantized_fills)
    if (f.name == c.fill) return &f;
  return nullptr;
}

json reference_params(const Case& c, const OpCaseSpace& space) {
  json params = c.params.is_object() ? c.params : json::object();
  for (const ParamSlot& slot : space.params)
    if (!params.contains(slot.name) && !slot.default_value.is_null()) params[slot.name] = slot.default_value;
  return params;
}

}  // namespace oprig::harness
