#include "cases/derive_nodes.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include "cases/node_model.hpp"
#include "cases/rng.hpp"
#include "core/dtype.hpp"
#include "spec/expression.hpp"

namespace oprig::harness {
namespace {

using nlohmann::json;

constexpr size_t kLargeElements = size_t{1} << 18;  // above most kernels' threading thresholds
constexpr size_t kMaxElements = size_t{1} << 21;    // no derived input larger
constexpr size_t kMaxLifecycleElements = 16384;     // lifecycle_plan.hpp's anchor limit
constexpr int kRandomNodes = 6;
constexpr size_t kRejectionExamples = 6;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_integer_type(oprig_dtype d) { return dtype_is_signed_integer(d) || dtype_is_unsigned_integer(d); }

size_t elements(const std::vector<int64_t>& s) {
  size_t n = 1;
  for (int64_t d : s) n *= static_cast<size_t>(d);
  return n;
}

std::string shape_label(const std::optional<std::vector<int64_t>>& s) {
  if (!s) return "none";
  return shape_text(*s);
}

// A value as an id token: -2 -> m2, 0.5 -> 0p5, [1, 2] -> 1x2, "SAME_UPPER" -> same_upper.
std::string token(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_string()) return id_text(v.get<std::string>());
  if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    return (i < 0 ? "m" : "") + std::to_string(i < 0 ? -i : i);
  }
  if (v.is_number()) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v.get<double>());
    std::string out;
    for (const char* c = buffer; *c; ++c) out += *c == '-' ? 'm' : (*c == '.' || *c == '+') ? 'p' : *c;
    return id_text(out);
  }
  if (v.is_array()) {
    std::string out;
    for (const json& e : v) out += (out.empty() ? "" : "x") + token(e);
    return out;
  }
  return "v";
}

void flatten(const json& v, std::vector<double>& out) {
  if (v.is_array())
    for (const json& e : v) flatten(e, out);
  else if (v.is_boolean()) out.push_back(v.get<bool>() ? 1 : 0);
  else if (v.is_number()) out.push_back(v.get<double>());
}

// The element count of a tensor parameter: from its Shape text ("[2]", "[2, 2]") or its Default.
std::vector<size_t> param_dims(const ParamSlot& p) {
  if (auto dims = spec::parse_shape_text(p.shape_text)) {
    std::vector<size_t> out;
    bool ok = true;
    for (const spec::ShapeDim& d : *dims) {
      if (d.ellipsis || d.expr.kind != spec::Expr::Kind::kNumber || d.expr.number < 1) ok = false;
      else out.push_back(static_cast<size_t>(d.expr.number));
    }
    if (ok && !out.empty()) return out;
  }
  if (p.default_value.is_array()) {
    if (!p.default_value.empty() && p.default_value[0].is_array())
      return {p.default_value.size(), p.default_value[0].size()};
    return {p.default_value.size()};
  }
  if (p.rank == "2D") return {2, 2};
  return {2};
}

json shaped(const std::vector<double>& flat, const std::vector<size_t>& dims, bool integer) {
  auto value = [&](double v) { return integer ? json(static_cast<int64_t>(std::llround(v))) : json(v); };
  if (dims.size() == 2) {
    json rows = json::array();
    for (size_t r = 0; r < dims[0]; ++r) {
      json row = json::array();
      for (size_t c = 0; c < dims[1]; ++c) row.push_back(value(flat.at(r * dims[1] + c)));
      rows.push_back(row);
    }
    return rows;
  }
  json list = json::array();
  for (double v : flat) list.push_back(value(v));
  return list;
}

enum class ParamKind { kEnum, kBool, kInt, kIntTensor, kFloat, kFloatTensor, kOther };

ParamKind kind_of(const ParamSlot& p) {
  if (!p.enumeration.empty()) return ParamKind::kEnum;
  if (p.dtype == OPRIG_DTYPE_BOOL_8) return ParamKind::kBool;
  if (p.dtype == OPRIG_DTYPE_STRING) return ParamKind::kOther;
  const bool integer = is_integer_type(p.dtype);
  if (p.tensor) return integer ? ParamKind::kIntTensor : ParamKind::kFloatTensor;
  return integer ? ParamKind::kInt : ParamKind::kFloat;
}

bool axis_named(const std::string& name) {
  const std::string l = lower(name);
  return l == "axis" || l == "dim" || l == "axes" || l.find("axis") != std::string::npos;
}

bool order_param(const std::string& name) {
  const std::string l = lower(name);
  return l == "sorted" || l == "sort" || l == "ordered" || l == "is_sorted" || l == "sort_output" || l == "sort_result";
}

// What one parameter's sweep is made of, found on the base node.
struct ParamSweepPlan {
  const ParamSlot* slot = nullptr;
  ParamKind kind = ParamKind::kOther;
  std::vector<json> values;  // every value to sweep on the base node (domain)
  bool axis_like = false;    // selects a dimension of input 0
  bool dim_bounded = false;  // its upper end is a size of input 0 (k of a top-k)
  std::vector<int64_t> domain;  // integers: every accepted value on the base node
};

class Deriver {
 public:
  Deriver(const OpCaseSpace& space, NodeJudge* judge) : space_(space), judge_(judge), model_(build_model(space)) {
    out_.judge = judge == nullptr ? "" : judge->name();
    for (const TensorModel& t : model_.inputs)
      if (t.known && !t.dims.empty() && std::any_of(t.dims.begin(), t.dims.end(), [](const DimTerm& d) {
            return !d.ellipsis && d.expr.kind == spec::Expr::Kind::kName && d.expr.name[0] != '#';
          }))
        out_.derived_from_texts = true;
    for (const TensorSlot& o : space.outputs)
      for (const auto& [backend, types] : o.types_by_backend)
        for (const TypeChoice& t : types)
          if (is_integer_type(t.dtype) && !t.quantized) out_.selection = true;
  }

  std::optional<Derivation> run();

 private:
  // ---- asking -------------------------------------------------------------
  std::optional<Node> node_of(const Assignment& a) const {
    const auto shapes = model_.shapes(a, space_);
    if (!shapes) return std::nullopt;
    for (const auto& s : *shapes)
      if (s && elements(*s) > kMaxElements) return std::nullopt;
    Node n;
    n.inputs = *shapes;
    n.params = a.params;
    return n;
  }

  // Relations of the parameters' constraint texts that can be evaluated.
  std::string constraint_problem(const Assignment& a, const Node& n) const {
    const spec::Scope base = scope_for(model_, a, space_, &n.inputs);
    for (const ParamSlot& p : space_.params) {
      const json value = param_value(p, a);
      if (value.is_null() || value.is_string()) continue;
      std::vector<double> elements_of;
      flatten(value, elements_of);
      for (const std::string& text : p.constraints)
        for (const spec::Comparison& c : spec::parse_relations(text)) {
          std::set<std::string> names;
          spec::collect_names(c.lhs, names);
          spec::collect_names(c.rhs, names);
          const bool about_self = names.count(spec::kSelf) > 0;
          if (!about_self && !names.count(p.name)) continue;  // about other things: judged by the reference
          for (double element : elements_of) {
            spec::Scope scope = base;
            const auto outer = base.value;
            const bool whole = elements_of.size() == 1;
            scope.value = [outer, element, whole, &p](const std::string& name) -> std::optional<spec::ExprValue> {
              if (name == spec::kSelf || (whole && name == p.name)) {
                spec::ExprValue v;
                v.number = element;
                return v;
              }
              return outer(name);
            };
            if (spec::holds(c, scope) == std::optional<bool>(false))
              return "the spec's constraint '" + text + "' of " + p.name + " does not hold";
          }
        }
    }
    return "";
  }

  NodeAnswer ask(const Assignment& a) {
    const auto node = node_of(a);
    if (!node) return {false, "sizes do not come out whole", {}};
    const std::string key = json{{"i", json(node->inputs.size())}, {"p", node->params}}.dump() + key_of(*node);
    if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
    ++out_.tried;
    NodeAnswer answer;
    if (const std::string problem = constraint_problem(a, *node); !problem.empty()) {
      answer = {false, problem, {}};
    } else if (judge_ != nullptr) {
      answer = judge_->judge(*node);
    } else {
      answer.valid = true;
    }
    if (!answer.valid) {
      ++out_.rejected;
      if (out_.rejections.size() < kRejectionExamples)
        out_.rejections.push_back(describe(*node) + ": " + answer.reason);
    }
    cache_[key] = answer;
    return answer;
  }

  static std::string key_of(const Node& n) {
    std::string k;
    for (const auto& s : n.inputs) k += shape_label(s) + ";";
    return k;
  }

  static std::string describe(const Node& n) {
    std::string text = "inputs ";
    for (size_t k = 0; k < n.inputs.size(); ++k) text += (k ? ", " : "") + shape_label(n.inputs[k]);
    if (!n.params.empty()) text += " params " + n.params.dump();
    return text;
  }

  bool valid(const Assignment& a) { return ask(a).valid; }

  // ---- sizes ----------------------------------------------------------------
  std::vector<std::string> input0_names(const Assignment& a) const {
    std::vector<std::string> out;
    for (const std::string& n : model_.input0_dim_names(a))
      if (!n.empty()) out.push_back(resolve(n));
    return out;
  }

  std::string resolve(std::string n) const {
    for (int hops = 0; hops < 8; ++hops) {
      const auto it = model_.aliases.find(n);
      if (it == model_.aliases.end()) break;
      n = it->second;
    }
    return n;
  }

  std::vector<std::string> all_names(const Assignment& a) const {
    std::vector<std::string> out;
    for (size_t j = 0; j < a.lead; ++j) out.push_back("#e" + std::to_string(j));
    for (const std::string& n : model_.free_names)
      if (!model_.aliases.count(n)) out.push_back(n);
    return out;
  }

  size_t input0_elements(const Assignment& a) const {
    const auto s = model_.input_shape(0, a, space_);
    return s ? elements(*s) : 0;
  }

  // Base sizes: by role, all different where possible (a wrong axis shows).
  int64_t base_size(const std::string& name, std::set<int64_t>& used) const {
    static const std::map<DimRole, std::vector<int64_t>> kPools = {
        {DimRole::kBatch, {2, 3, 1}},        {DimRole::kChannel, {6, 4, 5, 3, 8}},
        {DimRole::kKernel, {3, 2, 1}},       {DimRole::kSpatial, {7, 9, 5, 8, 6}},
        {DimRole::kOther, {3, 5, 7, 2, 4, 6, 9}}};
    const std::vector<int64_t>& pool = kPools.at(role_of(name));
    for (int64_t v : pool)
      if (!used.count(v) || role_of(name) == DimRole::kKernel) {
        used.insert(v);
        return v;
      }
    return pool.front();
  }

  // ---- the search -----------------------------------------------------------
  bool find_base();
  bool find_templates(Assignment& a);
  std::optional<Assignment> repaired(const Assignment& a, const std::set<std::string>& keep);
  void plan_params();
  void add(const Assignment& a, const std::string& token_text, const std::string& purpose,
           std::set<std::string> fills, bool lifecycle = false);
  bool try_add(const Assignment& a, const std::string& token_text, const std::string& purpose,
               const std::set<std::string>& fills, const std::set<std::string>& keep = {});
  std::optional<int64_t> axis_dim(const Assignment& a, const ParamSweepPlan& p) const;
  double reduction_length(const Assignment& a, const NodeAnswer& answer) const;
  std::vector<int64_t> probe_ints(const Assignment& a, const ParamSweepPlan& p, int64_t lo, int64_t hi);
  std::pair<int64_t, int64_t> int_window(const Assignment& a, const ParamSweepPlan& p) const;

  void sweep_params();
  void sweep_ranks();
  void sweep_sizes();
  void special_nodes();
  void random_nodes();
  void finish();

  const OpCaseSpace& space_;
  NodeJudge* judge_;
  OpModel model_;
  Derivation out_;
  std::map<std::string, NodeAnswer> cache_;
  std::set<std::string> kept_keys_;
  std::set<std::string> names_used_;
  Assignment base_;
  std::vector<ParamSweepPlan> params_;
  SplitMix64 rng_{0x6f70726967ull};
  int lead_hint_ = -1;  // find_base: how many leading dimensions "..." stands for; -1 its own choice
};

std::optional<Assignment> Deriver::repaired(const Assignment& a, const std::set<std::string>& keep) {
  std::vector<Assignment> attempts;
  // A parameter bounded by a size that shrank (k above the axis): its largest valid value below.
  for (const ParamSweepPlan& p : params_) {
    if (!p.dim_bounded) continue;
    const json current = param_value(*p.slot, a);  // passed, else the Default (k = 6 above an axis of 3)
    if (!current.is_number_integer()) continue;
    Assignment b = a;
    const int64_t v = current.get<int64_t>();
    for (int64_t w = v - 1; w >= std::max<int64_t>(1, v - 64); --w) {
      b.params[p.slot->name] = w;
      if (valid(b)) return b;
    }
  }
  // Divisibility: channels a multiple of each integer parameter above 1 (groups).
  Assignment divisible = a;
  bool changed = false;
  for (const ParamSweepPlan& p : params_) {
    if (p.kind != ParamKind::kInt || p.axis_like || p.dim_bounded) continue;
    const json v = param_value(*p.slot, a);
    if (!v.is_number_integer() || v.get<int64_t>() <= 1) continue;
    const int64_t g = v.get<int64_t>();
    for (const std::string& n : all_names(a)) {
      if (keep.count(n) || role_of(n) != DimRole::kChannel) continue;
      int64_t& d = divisible.dims[n];
      const int64_t up = ((d + g - 1) / g) * g;
      if (up != d) {
        d = up;
        changed = true;
      }
    }
  }
  if (changed) attempts.push_back(divisible);
  // Growth: sizes other than channels and kernels, x2 and x3 (a dilated kernel needs room).
  for (int64_t factor : {2, 3, 5}) {
    for (const Assignment* from : {&a, changed ? static_cast<const Assignment*>(&divisible) : nullptr}) {
      if (from == nullptr) continue;
      Assignment g = *from;
      bool grew = false;
      for (const std::string& n : input0_names(g)) {
        const DimRole r = role_of(n);
        if (keep.count(n) || r == DimRole::kKernel || r == DimRole::kChannel || r == DimRole::kBatch) continue;
        g.dims[n] = std::max<int64_t>(g.dims[n], 1) * factor;
        grew = true;
      }
      if (grew) attempts.push_back(g);
    }
  }
  for (const Assignment& t : attempts)
    if (valid(t)) return t;
  return std::nullopt;
}

bool Deriver::find_templates(Assignment& a) {
  // Inputs without a text: the same shape as input 0, or assembled from its
  // sizes, 1 and fresh sizes, whichever the judge accepts first.
  std::vector<size_t> unknown;
  for (size_t k = 1; k < model_.inputs.size(); ++k)
    if (!model_.inputs[k].known) unknown.push_back(k);
  if (unknown.empty()) return valid(a);
  if (valid(a)) return true;  // same as input 0 fits
  const std::vector<std::string> first = input0_names(a);
  std::set<size_t> settled;
  for (size_t k : unknown) {
    if (settled.count(k)) continue;
    // Inputs described alike (gamma and beta: "in.shape[axis:]") take the same template together.
    std::vector<size_t> siblings;
    for (size_t j : unknown)
      if (j > k && !space_.inputs[k].shape_text.empty() && space_.inputs[j].shape_text == space_.inputs[k].shape_text &&
          model_.inputs[j].required_rank == model_.inputs[k].required_rank)
        siblings.push_back(j);
    const int rank = model_.inputs[k].required_rank;
    std::vector<std::vector<DimTerm>> options;
    auto name_term = [](const std::string& n) {
      DimTerm t;
      t.expr.kind = spec::Expr::Kind::kName;
      t.expr.name = n;
      return t;
    };
    auto one = [] {
      DimTerm t;
      t.constant = true;
      t.expr.kind = spec::Expr::Kind::kNumber;
      t.expr.number = 1;
      return t;
    };
    if (rank < 0 || rank == static_cast<int>(first.size())) {
      // broadcast forms of input 0: the last size alone, ones elsewhere
      if (!first.empty()) options.push_back({name_term(first.back())});
      std::vector<DimTerm> ones;
      for (size_t d = 0; d < first.size(); ++d) ones.push_back(d + 1 == first.size() ? name_term(first[d]) : one());
      options.push_back(ones);
    }
    if (rank == 0) options.push_back({});
    if (rank == 1)
      for (const std::string& n : first) options.push_back({name_term(n)});
    if (rank >= 2 && rank <= 5) {
      // Each position from input 0's sizes or a fresh one: judged in order, fewest fresh first.
      std::vector<std::string> pool = first;
      const std::string fresh_prefix = "#k" + std::to_string(k) + "_";
      std::vector<std::vector<DimTerm>> all;
      const size_t choices = pool.size() + 1;
      size_t total = 1;
      for (int d = 0; d < rank; ++d) total *= choices;
      for (size_t code = 0; code < total && code < 20000; ++code) {
        std::vector<DimTerm> terms;
        size_t c = code;
        for (int d = 0; d < rank; ++d) {
          const size_t pick = c % choices;
          c /= choices;
          terms.push_back(pick < pool.size() ? name_term(pool[pick]) : name_term(fresh_prefix + std::to_string(d)));
        }
        all.push_back(std::move(terms));
      }
      std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) {
        auto fresh = [](const std::vector<DimTerm>& t) {
          return std::count_if(t.begin(), t.end(), [](const DimTerm& d) { return d.expr.name.rfind("#k", 0) == 0; });
        };
        return fresh(x) > fresh(y);  // fresh sizes are free to be what the op needs
      });
      for (auto& t : all) options.push_back(std::move(t));
    }
    bool found = false;
    for (const std::vector<DimTerm>& option : options) {
      model_.templates[k] = option;
      for (size_t j : siblings) model_.templates[j] = option;
      Assignment b = a;
      std::set<int64_t> used;
      for (const DimTerm& t : option)
        if (!t.constant && t.expr.name.rfind("#k", 0) == 0 && !b.dims.count(t.expr.name))
          b.dims[t.expr.name] = 3 - static_cast<int64_t>(b.dims.size() % 2);  // 3 or 2
      if (valid(b)) {
        a = b;
        found = true;
        break;
      }
    }
    if (!found) {
      model_.templates.erase(k);
      for (size_t j : siblings) model_.templates.erase(j);
      return false;
    }
    settled.insert(siblings.begin(), siblings.end());
  }
  return valid(a);
}

bool Deriver::find_base() {
  Assignment a;
  std::set<int64_t> used;
  const TensorModel& in0 = model_.inputs.empty() ? TensorModel{} : model_.inputs[0];
  if (in0.has_ellipsis()) {
    size_t named = 0;
    for (const DimTerm& d : in0.dims) named += d.ellipsis ? 0 : 1;
    a.lead = named >= 3 ? 0 : 3 - named;
    if (a.lead == 0 && named == 0) a.lead = 3;
    if (lead_hint_ >= 0) a.lead = static_cast<size_t>(lead_hint_);
    for (size_t j = 0; j < a.lead; ++j) a.dims["#e" + std::to_string(j)] = base_size("#", used);
  }
  for (const std::string& n : model_.free_names) a.dims[n] = base_size(n, used);
  // Mandatory parameters without a Default need a value.
  for (const ParamSlot& p : space_.params) {
    if (!p.mandatory || !p.default_value.is_null()) continue;
    switch (kind_of(p)) {
      case ParamKind::kEnum: a.params[p.name] = p.enumeration.front(); break;
      case ParamKind::kBool: a.params[p.name] = false; break;
      case ParamKind::kInt: a.params[p.name] = 1; break;
      case ParamKind::kFloat: a.params[p.name] = 1.0; break;
      case ParamKind::kIntTensor: {
        const std::vector<size_t> dims = param_dims(p);
        size_t count = 1;
        for (size_t d : dims) count *= d;
        a.params[p.name] = shaped(std::vector<double>(count, 1.0), dims, true);
        break;
      }
      case ParamKind::kFloatTensor: {
        const std::vector<size_t> dims = param_dims(p);
        size_t count = 1;
        for (size_t d : dims) count *= d;
        a.params[p.name] = shaped(std::vector<double>(count, 1.0), dims, false);
        break;
      }
      case ParamKind::kOther: break;
    }
  }
  if (find_templates(a)) {
    base_ = a;
    return true;
  }
  // Names only the other inputs use may be sizes of input 0 (channels of an
  // activation without a text): try each pairing, fewest first.
  std::vector<std::string> others;
  std::set<std::string> in0_names;
  for (const std::string& n : input0_names(a)) in0_names.insert(n);
  for (const std::string& n : model_.free_names)
    if (!in0_names.count(n)) others.push_back(n);
  const std::vector<std::string> first = input0_names(a);
  auto try_aliases = [&](const std::map<std::string, std::string>& alias) {
    model_.aliases = alias;
    Assignment b = a;
    for (const auto& [from, to] : alias) b.dims.erase(from);
    if (find_templates(b)) {
      base_ = b;
      return true;
    }
    if (auto r = repaired(b, {})) {
      base_ = *r;
      return true;
    }
    return false;
  };
  for (const std::string& n : others)
    for (const std::string& f : first)
      if (try_aliases({{n, f}})) return true;
  for (size_t i = 0; i < others.size(); ++i)
    for (size_t j = i + 1; j < others.size(); ++j)
      for (const std::string& f : first)
        for (const std::string& g : first)
          if (f != g && try_aliases({{others[i], f}, {others[j], g}})) return true;
  model_.aliases.clear();
  if (auto r = repaired(a, {})) {
    base_ = *r;
    return true;
  }
  // Mandatory integer parameters: other starting values.
  for (int64_t start : {0, 2, 3}) {
    Assignment b = a;
    bool any = false;
    for (const ParamSlot& p : space_.params)
      if (p.mandatory && p.default_value.is_null() && kind_of(p) == ParamKind::kInt) {
        b.params[p.name] = start;
        any = true;
      } else if (p.mandatory && p.default_value.is_null() && kind_of(p) == ParamKind::kIntTensor) {
        const std::vector<size_t> dims = param_dims(p);
        size_t count = 1;
        for (size_t d : dims) count *= d;
        b.params[p.name] = shaped(std::vector<double>(count, static_cast<double>(start)), dims, true);
        any = true;
      }
    if (any && find_templates(b)) {
      base_ = b;
      return true;
    }
  }
  return false;
}

std::optional<int64_t> Deriver::axis_dim(const Assignment& a, const ParamSweepPlan& p) const {
  const auto shape = model_.input_shape(0, a, space_);
  if (!shape || shape->empty()) return std::nullopt;
  json v = param_value(*p.slot, a);
  double axis = 0;
  if (v.is_number()) {
    axis = v.get<double>();
  } else if (v.is_string()) {
    const auto e = spec::parse_expression(v.get<std::string>());
    std::vector<std::optional<std::vector<int64_t>>> shapes = {*shape};
    const auto value = e ? spec::evaluate(*e, scope_for(model_, a, space_, &shapes)) : std::nullopt;
    if (!value) return std::nullopt;
    axis = *value;
  } else {
    return std::nullopt;
  }
  auto i = static_cast<int64_t>(axis);
  const auto rank = static_cast<int64_t>(shape->size());
  if (i < 0) i += rank;
  if (i < 0 || i >= rank) return std::nullopt;
  return i;
}

std::pair<int64_t, int64_t> Deriver::int_window(const Assignment& a, const ParamSweepPlan& p) const {
  const auto shapes = model_.shapes(a, space_);
  const auto shape0 = model_.input_shape(0, a, space_);
  const int64_t rank = shape0 ? static_cast<int64_t>(shape0->size()) : 4;
  int64_t biggest = 1;
  if (shapes)
    for (const auto& s : *shapes)
      if (s)
        for (int64_t d : *s) biggest = std::max(biggest, d);
  const json def = param_value(*p.slot, a);
  const int64_t d = def.is_number() ? static_cast<int64_t>(def.get<double>()) : 0;
  int64_t lo = (axis_named(p.slot->name) || d < 0) ? -(rank + 2) : std::min<int64_t>(0, d);
  int64_t hi = std::max<int64_t>({rank + 2, 2 * biggest + 2, d + 3, 8});
  // Constraint bounds that evaluate here narrow the window.
  if (shapes) {
    const spec::Scope scope = scope_for(model_, a, space_, &*shapes);
    for (const std::string& text : p.slot->constraints)
      for (const spec::Comparison& c : spec::parse_relations(text)) {
        auto is_self = [&](const spec::Expr& e) {
          return e.kind == spec::Expr::Kind::kName && (e.name == spec::kSelf || e.name == p.slot->name);
        };
        const bool left = is_self(c.lhs), right = is_self(c.rhs);
        if (left == right) continue;
        const auto bound = spec::evaluate(left ? c.rhs : c.lhs, scope);
        if (!bound) continue;
        spec::Relation op = c.op;
        if (right) {  // flip "b <= x" into "x >= b"
          if (op == spec::Relation::kLess) op = spec::Relation::kGreater;
          else if (op == spec::Relation::kLessEqual) op = spec::Relation::kGreaterEqual;
          else if (op == spec::Relation::kGreater) op = spec::Relation::kLess;
          else if (op == spec::Relation::kGreaterEqual) op = spec::Relation::kLessEqual;
        }
        const auto b = static_cast<int64_t>(std::floor(*bound));
        switch (op) {
          case spec::Relation::kGreaterEqual: lo = std::max(lo, static_cast<int64_t>(std::ceil(*bound))); break;
          case spec::Relation::kGreater: lo = std::max(lo, b + 1); break;
          case spec::Relation::kLessEqual: hi = std::min(hi, b); break;
          case spec::Relation::kLess: hi = std::min(hi, static_cast<int64_t>(std::ceil(*bound)) - 1); break;
          default: break;
        }
      }
  }
  return {lo, hi};
}

std::vector<int64_t> Deriver::probe_ints(const Assignment& a, const ParamSweepPlan& p, int64_t lo, int64_t hi) {
  std::vector<int64_t> candidates;
  if (hi - lo <= 96) {
    for (int64_t v = lo; v <= hi; ++v) candidates.push_back(v);
  } else {
    for (int64_t v = lo; v <= lo + 40; ++v) candidates.push_back(v);
    for (int64_t v = hi - 40; v <= hi; ++v) candidates.push_back(v);
    for (int64_t v = lo + 41; v < hi - 40; v += (hi - lo) / 16 + 1) candidates.push_back(v);
  }
  std::vector<int64_t> accepted;
  for (int64_t v : candidates) {
    Assignment b = a;
    b.params[p.slot->name] = v;
    if (valid(b)) accepted.push_back(v);
  }
  return accepted;
}

void Deriver::plan_params() {
  const auto shape0 = model_.input_shape(0, base_, space_);
  const int64_t rank = shape0 ? static_cast<int64_t>(shape0->size()) : 0;
  for (const ParamSlot& slot : space_.params) {
    ParamSweepPlan p;
    p.slot = &slot;
    p.kind = kind_of(slot);
    switch (p.kind) {
      case ParamKind::kEnum:
        for (const std::string& e : slot.enumeration) p.values.emplace_back(e);
        break;
      case ParamKind::kBool: p.values = {json(false), json(true)}; break;
      case ParamKind::kInt: {
        const auto [lo, hi] = int_window(base_, p);
        p.domain = probe_ints(base_, p, lo, hi);
        std::vector<int64_t> picks;
        if (p.domain.size() <= 12) {
          picks = p.domain;
        } else if (!p.domain.empty()) {
          const size_t n = p.domain.size();
          for (size_t i : {size_t{0}, size_t{1}, n / 2, n - 2, n - 1}) picks.push_back(p.domain[i]);
        }
        for (int64_t v : picks) p.values.emplace_back(v);
        // Selects a dimension: accepted exactly on [-rank, rank - 1] or [0, rank - 1].
        const bool full = !p.domain.empty() && p.domain.back() == rank - 1 &&
                          (p.domain.front() == -rank || p.domain.front() == 0) &&
                          static_cast<int64_t>(p.domain.size()) == rank - p.domain.front();
        p.axis_like = rank > 0 && (axis_named(slot.name) || (full && rank >= 2));
        if (!p.axis_like && !p.domain.empty() && shape0 && p.domain.front() >= 0) {
          const int64_t top = p.domain.back();
          // Bounded by that size when the window goes on above it, or when the
          // size grown by one takes the value grown by one ("k <= in.shape[axis]").
          bool bounded = std::find(shape0->begin(), shape0->end(), top) != shape0->end();
          if (bounded && top >= int_window(base_, p).second) {
            Assignment grown = base_;
            bool found = false;
            for (const std::string& n : input0_names(grown))
              if (!found && grown.dims[n] == top) {
                grown.dims[n] = top + 1;
                found = true;
              }
            grown.params[slot.name] = top + 1;
            bounded = found && valid(grown);
          }
          p.dim_bounded = bounded;
        }
        break;
      }
      case ParamKind::kFloat: {
        const json def = param_value(slot, base_);
        const double d = def.is_number() ? def.get<double>() : 1.0;
        double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
        bool lo_open = false, hi_open = false;
        for (const std::string& text : slot.constraints)
          for (const spec::Comparison& c : spec::parse_relations(text)) {
            const bool left = c.lhs.kind == spec::Expr::Kind::kName &&
                              (c.lhs.name == spec::kSelf || c.lhs.name == slot.name);
            const bool right = c.rhs.kind == spec::Expr::Kind::kName &&
                               (c.rhs.name == spec::kSelf || c.rhs.name == slot.name);
            if (left == right) continue;
            const spec::Expr& other = left ? c.rhs : c.lhs;
            if (other.kind != spec::Expr::Kind::kNumber) continue;
            const double b = other.number;
            spec::Relation op = c.op;
            if (right) op = op == spec::Relation::kLess ? spec::Relation::kGreater
                          : op == spec::Relation::kLessEqual ? spec::Relation::kGreaterEqual
                          : op == spec::Relation::kGreater ? spec::Relation::kLess
                          : op == spec::Relation::kGreaterEqual ? spec::Relation::kLessEqual : op;
            if (op == spec::Relation::kGreater || op == spec::Relation::kGreaterEqual) {
              if (b >= lo) {
                lo = b;
                lo_open = op == spec::Relation::kGreater;
              }
            } else if (op == spec::Relation::kLess || op == spec::Relation::kLessEqual) {
              if (b <= hi) {
                hi = b;
                hi_open = op == spec::Relation::kLess;
              }
            }
          }
        std::vector<double> picks;
        if (std::isfinite(lo) && std::isfinite(hi) && lo < hi) {
          const double inset = (hi - lo) * 1e-3;
          picks = {lo_open ? lo + inset : lo, hi_open ? hi - inset : hi, lo + (hi - lo) * 0.37};
        } else if (std::isfinite(lo)) {
          picks = {lo_open ? lo + std::max(1e-3, std::fabs(lo) * 1e-3) : lo, std::max(lo, d) * 2 + 0.5};
          if (d * 0.5 > lo) picks.push_back(d * 0.5);
        } else if (std::isfinite(hi)) {
          picks = {hi_open ? hi - std::max(1e-3, std::fabs(hi) * 1e-3) : hi, std::min(hi, d) - 1.5};
        } else {
          picks = {d == 0 ? 0.5 : d * 0.5, d == 0 ? -0.5 : d * 2};
        }
        for (double v : picks) {
          const double rounded = static_cast<double>(static_cast<float>(v));  // the kernel gets fp32
          if (rounded != d || !def.is_number()) p.values.emplace_back(rounded);
        }
        // -0 where 0 is allowed: x + (-0) keeps the sign of a zero x, x + 0 does not.
        if ((lo < 0 || (lo == 0 && !lo_open)) && (hi > 0 || (hi == 0 && !hi_open))) p.values.emplace_back(-0.0);
        break;
      }
      case ParamKind::kIntTensor: {
        const std::vector<size_t> dims = param_dims(slot);
        std::vector<double> base;
        flatten(param_value(slot, base_), base);
        size_t count = 1;
        for (size_t d : dims) count *= d;
        if (base.size() != count) break;
        // Per element: one more and two more than the default (stride 2, dilation 2, a pad of 1),
        // 0 where the default is above it; every element at once; and an asymmetric mix.
        for (size_t e = 0; e < count; ++e)
          for (double delta : {1.0, 2.0, -1.0}) {
            std::vector<double> v = base;
            v[e] += delta;
            if (v[e] < 0) continue;
            p.values.push_back(shaped(v, dims, true));
          }
        std::vector<double> all = base;
        for (double& x : all) x += 1;
        p.values.push_back(shaped(all, dims, true));
        std::vector<double> mixed = base;
        for (size_t e = 0; e < count; ++e) mixed[e] += static_cast<double>((e * 2 + 1) % 3);  // 1, 0, 2, 1, ...
        p.values.push_back(shaped(mixed, dims, true));
        break;
      }
      case ParamKind::kFloatTensor:
      case ParamKind::kOther: break;
    }
    params_.push_back(std::move(p));
  }
}

double Deriver::reduction_length(const Assignment& a, const NodeAnswer& answer) const {
  (void)answer;
  const auto shapes = model_.shapes(a, space_);
  if (!shapes) return 1;
  double length = 0;
  const std::set<std::string> out_names = model_.output_names();
  const bool outputs_have_ellipsis = std::any_of(model_.outputs.begin(), model_.outputs.end(),
                                                 [](const TensorModel& t) { return t.known && t.has_ellipsis(); });
  if (!out_names.empty()) {
    // Per input with a text: the sizes it has that no output has; the least such product.
    double best = std::numeric_limits<double>::infinity();
    const spec::Scope scope = scope_for(model_, a, space_, &*shapes);
    for (size_t k = 0; k < model_.inputs.size(); ++k) {
      const TensorModel& t = model_.inputs[k];
      if (!t.known || a.absent.count(k)) continue;
      bool shared = false, reduced = false;
      double product = 1;
      for (const DimTerm& d : t.dims) {
        if (d.ellipsis) {
          shared |= outputs_have_ellipsis;
          continue;
        }
        std::set<std::string> names;
        spec::collect_names(d.expr, names);
        bool in_output = false;
        for (const std::string& n : names) in_output |= out_names.count(n) > 0 || out_names.count(resolve(n)) > 0;
        if (in_output) {
          shared = true;
          continue;
        }
        if (d.constant) continue;
        const auto v = spec::evaluate(d.expr, scope);
        if (v && *v >= 1) {
          product *= *v;
          reduced = true;
        }
      }
      if (shared && reduced) best = std::min(best, product);
    }
    if (std::isfinite(best)) length = best;
  }
  if (length == 0) {
    // No output text: the largest other input of rank >= 2 (a weight) bounds the terms per element.
    length = 1;
    for (size_t k = 1; k < shapes->size(); ++k)
      if ((*shapes)[k] && (*shapes)[k]->size() >= 2) length = std::max(length, static_cast<double>(elements(*(*shapes)[k])));
  }
  for (const ParamSweepPlan& p : params_)
    if (p.axis_like)
      if (const auto d = axis_dim(a, p); d && (*shapes)[0])
        length = std::max(length, static_cast<double>((*(*shapes)[0])[static_cast<size_t>(*d)]));
  return std::max(1.0, length);
}

void Deriver::add(const Assignment& a, const std::string& token_text, const std::string& purpose,
                  std::set<std::string> fills, bool lifecycle) {
  const auto node = node_of(a);
  if (!node) return;
  const std::string key = key_of(*node) + node->params.dump();
  if (kept_keys_.count(key)) return;
  kept_keys_.insert(key);
  DerivedNode d;
  d.node = *node;
  d.purpose = purpose;
  d.lifecycle = lifecycle;
  d.fills = std::move(fills);
  d.fills.insert("uniform");
  d.reduction_length = reduction_length(a, ask(a));
  std::string name = id_text(token_text) + "_" + shape_label(node->inputs.empty() ? std::nullopt : node->inputs[0]);
  if (names_used_.count(name)) {
    int n = 2;
    while (names_used_.count(name + "_" + std::to_string(n))) ++n;
    name += "_" + std::to_string(n);
  }
  names_used_.insert(name);
  d.name = name;
  out_.nodes.push_back(std::move(d));
}

bool Deriver::try_add(const Assignment& a, const std::string& token_text, const std::string& purpose,
                      const std::set<std::string>& fills, const std::set<std::string>& keep) {
  if (valid(a)) {
    add(a, token_text, purpose, fills);
    return true;
  }
  if (auto r = repaired(a, keep)) {
    add(*r, token_text, purpose, fills);
    return true;
  }
  return false;
}

void Deriver::sweep_params() {
  for (const ParamSweepPlan& p : params_) {
    size_t kept = 0;
    for (const json& v : p.values) {
      Assignment a = base_;
      a.params[p.slot->name] = v;
      const std::string what = p.slot->name + " " + (v.is_string() ? v.get<std::string>() : v.dump());
      std::set<std::string> fills = {"small_int", "ties"};
      if (p.axis_like) fills.insert({"huge", "specials"});
      // A parameter at -0 is there for the sign of zero: the specials fill holds -0 inputs.
      if (v.is_number_float() && v.get<double>() == 0 && std::signbit(v.get<double>())) fills.insert("specials");
      if (try_add(a, p.slot->name + token(v), "parameter " + what, fills)) ++kept;
    }
    // Integer values the base node refuses but a repaired one takes (a group of 3 with channels of 6).
    if (p.kind == ParamKind::kInt && !p.axis_like && !p.dim_bounded) {
      const auto [lo, hi] = int_window(base_, p);
      int extra = 0;
      for (int64_t v = std::max<int64_t>(lo, 2); v <= std::min<int64_t>(hi, 12) && extra < 4; ++v) {
        if (std::find(p.domain.begin(), p.domain.end(), v) != p.domain.end()) continue;
        Assignment a = base_;
        a.params[p.slot->name] = v;
        if (auto r = repaired(a, {})) {
          add(*r, p.slot->name + token(json(v)), "parameter " + p.slot->name + " " + std::to_string(v) +
                  " (sizes made to fit)", {"small_int", "ties"});
          ++extra;
        }
      }
    }
    if (!p.values.empty() && kept == 0)
      out_.notes.push_back("parameter " + p.slot->name + ": no value besides the default gave a valid node");
    // A parameter whose top is a size (k): from 1 to the size, on longer axes too.
    if (p.dim_bounded)
      for (int64_t size : {33, 257}) {
        Assignment a = base_;
        std::string hot;
        for (const std::string& n : input0_names(a))
          if (a.dims[n] == p.domain.back()) hot = n;
        if (hot.empty()) break;
        a.dims[hot] = size;
        for (int64_t v : {int64_t{1}, int64_t{2}, size / 2, size - 1, size}) {
          Assignment b = a;
          b.params[p.slot->name] = v;
          try_add(b, p.slot->name + std::to_string(v), "parameter " + p.slot->name + " " + std::to_string(v) +
                         " of a size " + std::to_string(size), {"ties"}, {hot});
        }
      }
  }
}

void Deriver::sweep_ranks() {
  const TensorModel& in0 = model_.inputs.at(0);
  if (!in0.has_ellipsis()) return;
  size_t named = 0;
  for (const DimTerm& d : in0.dims) named += d.ellipsis ? 0 : 1;
  static const int64_t kPool[] = {2, 3, 5, 7, 4};
  for (size_t rank = 1; rank <= 5; ++rank) {
    if (rank < named) continue;
    const size_t lead = rank - named;
    Assignment a = base_;
    for (size_t j = 0; j < std::max(lead, base_.lead); ++j) a.dims.erase("#e" + std::to_string(j));
    a.lead = lead;
    for (size_t j = 0; j < lead; ++j) a.dims["#e" + std::to_string(j)] = kPool[j % 5];
    if (lead == base_.lead) continue;
    if (!try_add(a, "rank" + std::to_string(rank), "rank " + std::to_string(rank), {"small_int", "specials", "ties"}))
      continue;
    // Parameters whose domain moves with the rank (axes): swept on this rank as well.
    for (const ParamSweepPlan& p : params_) {
      if (!p.axis_like) continue;
      const int64_t r = static_cast<int64_t>(rank);
      std::vector<int64_t> values;
      for (int64_t v = -r; v < r; ++v) values.push_back(v);
      if (rank == 5) values = {-5, -2, 0, 4};
      for (int64_t v : values) {
        Assignment b = a;
        b.params[p.slot->name] = v;
        try_add(b, p.slot->name + token(json(v)) + "_r" + std::to_string(rank),
                p.slot->name + " " + std::to_string(v) + " on rank " + std::to_string(rank), {"huge", "specials"});
      }
    }
  }
}

void Deriver::sweep_sizes() {
  // The sizes where kernels break: the axis, the last dimension, channels.
  std::vector<std::string> hot;
  const std::vector<std::string> first = input0_names(base_);
  for (const ParamSweepPlan& p : params_)
    if (p.axis_like)
      if (const auto d = axis_dim(base_, p); d && static_cast<size_t>(*d) < first.size()) hot.push_back(first[*d]);
  if (!first.empty()) hot.push_back(first.back());
  for (const std::string& n : all_names(base_))
    if (role_of(n) == DimRole::kChannel) hot.push_back(n);
  std::vector<std::string> unique;
  for (const std::string& n : hot)
    if (!n.empty() && std::find(unique.begin(), unique.end(), n) == unique.end()) unique.push_back(n);
  static const std::vector<int64_t> kLengths = {1, 2, 3, 5, 8, 9, 12, 15, 17, 22, 31, 33, 65, 257, 1025};
  static const std::vector<int64_t> kChannels = {1, 2, 3, 5, 7, 8, 9, 12, 15, 17, 33, 43, 171};
  for (const std::string& n : unique) {
    const std::vector<int64_t>& sizes = role_of(n) == DimRole::kChannel ? kChannels : kLengths;
    for (int64_t size : sizes) {
      if (size == base_.dims.at(n)) continue;
      Assignment a = base_;
      a.dims[n] = size;
      std::set<std::string> fills = {"small_int", "ties"};
      if (size <= 17) fills.insert("specials");
      if (size >= 65) fills.insert("huge");
      const std::string label = (n[0] == '#' ? std::string("dim") : n) + "_" + std::to_string(size);
      try_add(a, label, "size " + std::to_string(size) + " of " + (n[0] == '#' ? "dimension " + n.substr(1) : n) +
                            " (" + role_name(role_of(n)) + ")", fills, {n});
    }
  }
  // The same tails along an axis other than the default one.
  for (const ParamSweepPlan& p : params_) {
    if (!p.axis_like) continue;
    const auto def = axis_dim(base_, p);
    for (int64_t axis : {int64_t{0}, int64_t{-2}}) {
      Assignment a = base_;
      a.params[p.slot->name] = axis;
      const auto d = axis_dim(a, p);
      if (!d || d == def || static_cast<size_t>(*d) >= first.size()) continue;
      for (int64_t size : {int64_t{17}, int64_t{257}}) {
        Assignment b = a;
        b.dims[first[*d]] = size;
        try_add(b, p.slot->name + token(json(axis)) + "_tail" + std::to_string(size),
                "size " + std::to_string(size) + " on " + p.slot->name + " " + std::to_string(axis),
                {"small_int", "ties", "huge"}, {first[*d]});
      }
    }
  }
}

void Deriver::special_nodes() {
  const std::vector<std::string> first = input0_names(base_);
  // Empty: the first dimension, then the last.
  size_t empties = 0;
  for (const std::string& n : {first.empty() ? std::string() : first.front(), first.empty() ? std::string() : first.back()}) {
    if (n.empty() || empties >= 2) continue;
    Assignment a = base_;
    a.dims[n] = 0;
    if (valid(a)) {
      add(a, "empty", "an empty tensor (size 0 of " + (n[0] == '#' ? "dimension " + n.substr(1) : n) + ")", {});
      ++empties;
    }
  }
  // Seven elements in all: less than one vector of 8, the whole tensor a tail.
  {
    Assignment a = base_;
    for (const std::string& n : first)
      if (role_of(n) != DimRole::kKernel) a.dims[n] = 1;
    if (!first.empty()) a.dims[first.back()] = 7;
    try_add(a, "tail7", "seven elements: less than one vector, all tail", {"small_int", "specials"},
            std::set<std::string>(first.begin(), first.end()));
  }
  // All ones.
  {
    Assignment a = base_;
    for (const std::string& n : first)
      if (role_of(n) != DimRole::kKernel) a.dims[n] = 1;
    try_add(a, "ones", "every size of input 0 one", {"specials", "ties"}, std::set<std::string>(first.begin(), first.end()));
  }
  // Large: above a threaded path's threshold, in input 0 and, where the
  // judge gives output shapes, in the largest output too: kernels split their
  // work by outputs as often as by inputs (a convolution with few output
  // channels has an output far smaller than its input).
  {
    Assignment a = base_;
    for (int round = 0; round < 24 && input0_elements(a) < kLargeElements; ++round)
      for (const std::string& n : first) {
        if (role_of(n) == DimRole::kKernel || input0_elements(a) >= kLargeElements) continue;
        a.dims[n] = std::max<int64_t>(a.dims[n], 1) * 2;
      }
    const std::set<std::string> of_input0(first.begin(), first.end());
    for (int round = 0; round < 8 && input0_elements(a) >= kLargeElements; ++round) {
      const NodeAnswer answer = ask(a);
      if (!answer.valid || answer.outputs.empty()) break;
      size_t largest = 0;
      for (const std::vector<int64_t>& shape : answer.outputs) largest = std::max(largest, elements(shape));
      if (largest >= kLargeElements) break;
      Assignment grown = a;
      for (const std::string& n : all_names(a))
        if (!of_input0.count(n) && role_of(n) != DimRole::kKernel) grown.dims[n] = std::max<int64_t>(grown.dims[n], 1) * 2;
      if (grown.dims == a.dims || !ask(grown).valid) break;
      a = grown;
    }
    if (input0_elements(a) >= kLargeElements) try_add(a, "large", "large: above a threaded path's threshold", {});
  }
  // Optional inputs left out.
  for (size_t k = 0; k < space_.inputs.size(); ++k) {
    if (space_.inputs[k].mandatory) continue;
    Assignment a = base_;
    a.absent.insert(k);
    try_add(a, "no_" + space_.inputs[k].name, "optional input " + space_.inputs[k].name + " left out",
            {"small_int", "specials", "ties"});
  }
}

void Deriver::random_nodes() {
  static const std::vector<int64_t> kSmall = {1, 2, 3, 4, 5, 7, 9, 12, 17};
  int made = 0;
  for (int draw = 0; draw < kRandomNodes * 20 && made < kRandomNodes; ++draw) {
    Assignment a = base_;
    if (model_.inputs[0].has_ellipsis() && base_.lead > 0) {
      for (size_t j = 0; j < base_.lead + 3; ++j) a.dims.erase("#e" + std::to_string(j));
      a.lead = 1 + rng_.next() % 4;
    }
    for (size_t j = 0; j < a.lead; ++j) a.dims["#e" + std::to_string(j)] = kSmall[rng_.next() % kSmall.size()];
    for (const std::string& n : model_.free_names) {
      if (model_.aliases.count(n)) continue;
      if (role_of(n) == DimRole::kKernel) a.dims[n] = 1 + static_cast<int64_t>(rng_.next() % 3);
      else a.dims[n] = kSmall[rng_.next() % kSmall.size()];
    }
    for (const ParamSweepPlan& p : params_) {
      if (p.values.empty()) continue;
      if (p.kind == ParamKind::kInt && !p.domain.empty()) {
        // Integers from the domain the node's own sizes allow.
        const auto [lo, hi] = int_window(a, p);
        const int64_t v = lo + static_cast<int64_t>(rng_.next() % static_cast<uint64_t>(std::max<int64_t>(1, hi - lo + 1)));
        a.params[p.slot->name] = v;
        continue;
      }
      if (rng_.unit() < 0.25) continue;  // keep the default
      a.params[p.slot->name] = p.values[rng_.next() % p.values.size()];
    }
    for (size_t k = 0; k < space_.inputs.size(); ++k)
      if (!space_.inputs[k].mandatory && rng_.unit() < 0.3) a.absent.insert(k);
    if (!valid(a)) {
      auto r = repaired(a, {});
      if (!r) continue;
      a = *r;
    }
    ++made;
    add(a, "rand" + std::to_string(made), "random parameters and sizes", {"small_int", "specials", "ties"});
  }
  if (made < kRandomNodes)
    out_.notes.push_back("only " + std::to_string(made) + " of " + std::to_string(kRandomNodes) +
                         " random nodes were valid");
}

void Deriver::finish() {
  // The sign of zero, where the reference is exact about it: -0 in gives -0
  // out, on outputs that are input 0 element by element (elementwise ops) or
  // picked from it (selections). Where an output mixes several inputs (an
  // interpolation, a sum) -0 + +0 is +0 in one order of the arithmetic and
  // the spec does not fix the order, so the sign there is left open.
  // Probed on the base node and with each float parameter at -0 where it is swept there.
  std::vector<Assignment> probes = {base_};
  for (const ParamSweepPlan& p : params_)
    for (const json& v : p.values)
      if (p.kind == ParamKind::kFloat && v.is_number_float() && v.get<double>() == 0 && std::signbit(v.get<double>())) {
        Assignment a = base_;
        a.params[p.slot->name] = v;
        probes.push_back(a);
      }
  for (const Assignment& probe : probes) {
    if (judge_ == nullptr) break;
    const auto node = node_of(probe);
    if (!node) continue;
    const auto outputs = judge_->compute_constant(*node, -0.0);
    if (!outputs) continue;
    const NodeAnswer answer = judge_->judge(*node);
    for (size_t k = 0; k < outputs->size() && k < space_.outputs.size(); ++k) {
      const bool same_shape = k < answer.outputs.size() && !node->inputs.empty() && node->inputs[0] &&
                              answer.outputs[k] == *node->inputs[0];
      if (!same_shape && !out_.selection) continue;
      bool float_output = false;
      for (const auto& [backend, types] : space_.outputs[k].types_by_backend)
        for (const TypeChoice& t : types) float_output |= dtype_is_float(t.dtype);
      const auto& v = (*outputs)[k];
      if (float_output && !v.empty() &&
          std::any_of(v.begin(), v.end(), [](double x) { return x == 0 && std::signbit(x); }))
        out_.signed_zero_outputs.insert(space_.outputs[k].name);
    }
  }
  // An order the op leaves open: compared as multisets along the axis.
  for (const ParamSweepPlan& p : params_) {
    if (p.kind != ParamKind::kBool || !order_param(p.slot->name)) continue;
    json outputs = json::array();
    for (int pass = 0; pass < 2; ++pass)
      for (const TensorSlot& o : space_.outputs) {
        bool integer = false;
        for (const auto& [backend, types] : o.types_by_backend)
          for (const TypeChoice& t : types) integer |= is_integer_type(t.dtype);
        if ((pass == 0) == integer) outputs.push_back(o.name);  // indices first: they identify the elements
      }
    json axis = -1;
    for (const ParamSweepPlan& q : params_)
      if (q.axis_like) axis = q.slot->name;
    out_.order_insensitive.push_back(
        {{"outputs", outputs},
         {"axis", axis},
         {"when", {{p.slot->name, false}}},
         {"reason", p.slot->name + " = false: the spec leaves the order of the results along the axis open"}});
  }
}

std::optional<Derivation> Deriver::run() {
  if (space_.inputs.empty()) return std::nullopt;
  // An input 0 of any rank the spec does not pin (a JSON config has no
  // shapes): rank 3 first, then the ranks ops most often need.
  bool found = find_base();
  for (int lead : {4, 2, 1, 5}) {
    if (found || model_.inputs.empty() || !model_.inputs[0].has_ellipsis()) break;
    lead_hint_ = lead;
    found = find_base();
  }
  lead_hint_ = -1;
  if (!found) return std::nullopt;
  plan_params();
  // The base node and its lifecycle companions (same parameters, other sizes).
  add(base_, "base", "the spec's defaults", {"small_int", "huge", "specials", "ties"}, true);
  const std::vector<std::string> first = input0_names(base_);
  // Halved and doubled sizes; where the op refuses those (a kernel larger
  // than a halved input, channels tied to a weight), sizes other than
  // channels and kernels moved by +1 and +3; then the judge's repair.
  for (int64_t scale : {-2, 2}) {
    std::vector<Assignment> tries;
    for (int pass = 0; pass < 2; ++pass) {
      Assignment a = base_;
      for (const std::string& n : first) {
        const DimRole r = role_of(n);
        if (r == DimRole::kKernel || (pass == 1 && r == DimRole::kChannel)) continue;
        if (pass == 0) a.dims[n] = scale < 0 ? std::max<int64_t>(1, a.dims[n] / 2) : a.dims[n] * 2;
        else a.dims[n] += scale < 0 ? 1 : 3;
      }
      tries.push_back(a);
    }
    if (auto r = repaired(tries.front(), {})) tries.push_back(*r);
    for (const Assignment& a : tries) {
      if (scale > 0 && input0_elements(a) > kMaxLifecycleElements) continue;
      if (a.dims == base_.dims || !valid(a)) continue;
      add(a, scale < 0 ? "small" : "medium", "a companion of the base node (lifecycle passes)", {"small_int"}, true);
      break;
    }
  }
  sweep_params();
  sweep_ranks();
  sweep_sizes();
  special_nodes();
  random_nodes();
  finish();
  return out_;
}

}  // namespace

std::optional<Derivation> derive_nodes(const OpCaseSpace& space, NodeJudge* judge) {
  Deriver d(space, judge);
  return d.run();
}

}  // namespace oprig::harness
