#include "cases/node_model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace oprig::harness {
namespace {

using nlohmann::json;

int rank_of(const std::string& rank) {
  if (rank == "SCALAR" || rank == "0D") return 0;
  if (rank.size() == 2 && rank[1] == 'D' && rank[0] >= '1' && rank[0] <= '5') return rank[0] - '0';
  return -1;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// A Shape text that lists dimensions: "[a, b]", "(a, b)", "shape [a, b]".
std::optional<std::vector<spec::ShapeDim>> shape_list(const std::string& raw) {
  const std::string t = trimmed(raw);
  if (t.empty()) return std::nullopt;
  std::string rest = t;
  const std::string l = lower(t);
  // "broadcastable to [a, b]": the full shape is one such shape.
  for (const char* lead : {"shape:", "shape", "dims:", "dims", "broadcastable to"})
    if (l.rfind(lead, 0) == 0) {
      rest = trimmed(t.substr(std::string(lead).size()));
      break;
    }
  if (rest.empty() || (rest[0] != '[' && rest[0] != '(')) return std::nullopt;
  return spec::parse_shape_text(rest);
}

std::optional<TensorModel> model_from(const TensorSlot& slot) {
  std::vector<std::string> texts = {slot.shape_text};
  for (const std::string& c : slot.constraints) texts.push_back(c);
  for (const std::string& text : texts) {
    const auto dims = shape_list(text);
    if (!dims) continue;
    TensorModel m;
    m.known = true;
    m.required_rank = rank_of(slot.rank);
    for (const spec::ShapeDim& d : *dims) {
      DimTerm term;
      term.ellipsis = d.ellipsis;
      term.expr = d.expr;
      term.constant = !d.ellipsis && d.expr.kind == spec::Expr::Kind::kNumber;
      m.dims.push_back(std::move(term));
    }
    const bool fits = m.required_rank < 0 || m.has_ellipsis() || static_cast<int>(m.dims.size()) == m.required_rank;
    if (fits) return m;
  }
  return std::nullopt;
}

// "same shape as in[0]" in an output's text or constraints.
std::optional<std::string> same_shape_as(const TensorSlot& slot, const OpCaseSpace& space) {
  std::vector<std::string> texts = {slot.shape_text};
  for (const std::string& c : slot.constraints) texts.push_back(c);
  for (const std::string& text : texts) {
    const std::string l = lower(text);
    if (l.find("same shape") == std::string::npos && l.find("shape of") == std::string::npos &&
        l.find("same as") == std::string::npos)
      continue;
    for (const TensorSlot& in : space.inputs)
      if (l.find(lower(in.name)) != std::string::npos) return in.name;
  }
  return std::nullopt;
}

DimTerm name_term(const std::string& name) {
  DimTerm t;
  t.expr.kind = spec::Expr::Kind::kName;
  t.expr.name = name;
  return t;
}

DimTerm ellipsis_term() {
  DimTerm t;
  t.ellipsis = true;
  return t;
}

bool is_rank_name(const std::string& n) {
  static const std::set<std::string> kNames = {"N", "R", "rank", "Rank", "RANK", "ndim", "ndims", "num_dims",
                                               "n_dims", "in_rank", "input_rank"};
  return kNames.count(n) > 0;
}

void flatten(const json& v, std::vector<double>& out) {
  if (v.is_array())
    for (const json& e : v) flatten(e, out);
  else if (v.is_boolean()) out.push_back(v.get<bool>() ? 1 : 0);
  else if (v.is_number()) out.push_back(v.get<double>());
}

}  // namespace

bool TensorModel::has_ellipsis() const {
  return std::any_of(dims.begin(), dims.end(), [](const DimTerm& d) { return d.ellipsis; });
}

DimRole role_of(const std::string& name) {
  if (name.empty() || name[0] == '#') return DimRole::kOther;
  const std::string l = lower(name);
  auto has = [&](const char* s) { return l.find(s) != std::string::npos; };
  if (has("batch") || l == "n" || l == "b" || l == "nb") return DimRole::kBatch;
  if (has("kernel") || has("filter_h") || has("filter_w") || has("window") || has("pool") || l == "kh" ||
      l == "kw" || l == "k_h" || l == "k_w" || l == "r" || l == "s" || has("filter_size"))
    return DimRole::kKernel;
  if (has("chan") || has("feature") || has("filters") || l == "c" || l == "ci" || l == "co" || l == "cin" ||
      l == "cout" || l == "c_in" || l == "c_out" || l == "depth" || has("hidden") || has("embed") || l == "d" ||
      l == "d_model" || l == "m" || l == "units")
    return DimRole::kChannel;
  if (has("height") || has("width") || l == "h" || l == "w" || has("row") || has("col") || has("len") ||
      has("seq") || has("time") || has("spatial") || l == "x" || l == "y" || l == "l" || l == "t")
    return DimRole::kSpatial;
  return DimRole::kOther;
}

const char* role_name(DimRole role) {
  switch (role) {
    case DimRole::kBatch: return "batch";
    case DimRole::kChannel: return "channel";
    case DimRole::kKernel: return "kernel";
    case DimRole::kSpatial: return "spatial";
    case DimRole::kOther: return "size";
  }
  return "size";
}

bool Assignment::operator<(const Assignment& o) const {
  if (dims != o.dims) return dims < o.dims;
  if (lead != o.lead) return lead < o.lead;
  if (absent != o.absent) return absent < o.absent;
  return params.dump() < o.params.dump();
}

json param_value(const ParamSlot& p, const Assignment& a) {
  if (a.params.contains(p.name)) return a.params.at(p.name);
  return p.default_value;
}

OpModel build_model(const OpCaseSpace& space) {
  OpModel m;
  for (const ParamSlot& p : space.params) m.param_names.insert(p.name);
  for (size_t k = 0; k < space.inputs.size(); ++k) {
    const TensorSlot& slot = space.inputs[k];
    TensorModel t;
    t.required_rank = rank_of(slot.rank);
    if (auto read = model_from(slot)) t = std::move(*read);
    if (!t.known && k == 0) {
      t.known = true;
      if (t.required_rank >= 0)
        for (int d = 0; d < t.required_rank; ++d) t.dims.push_back(name_term("#" + std::to_string(d)));
      else
        t.dims.push_back(ellipsis_term());
    }
    m.inputs.push_back(std::move(t));
  }
  for (const TensorSlot& slot : space.outputs) {
    TensorModel t;
    t.required_rank = rank_of(slot.rank);
    if (auto read = model_from(slot)) {
      t = std::move(*read);
    } else if (auto same = same_shape_as(slot, space)) {
      for (size_t k = 0; k < space.inputs.size(); ++k)
        if (space.inputs[k].name == *same && m.inputs[k].known) t = m.inputs[k];
    }
    m.outputs.push_back(std::move(t));
  }
  // Sizes to assign: plain names first as they appear, then names only found in expressions.
  std::vector<std::string> plain, inner;
  for (const TensorModel& t : m.inputs)
    for (const DimTerm& d : t.dims) {
      if (d.ellipsis || d.constant) continue;
      if (d.expr.kind == spec::Expr::Kind::kName) {
        if (!m.param_names.count(d.expr.name) && !is_rank_name(d.expr.name) &&
            std::find(plain.begin(), plain.end(), d.expr.name) == plain.end())
          plain.push_back(d.expr.name);
      } else {
        std::set<std::string> names;
        spec::collect_names(d.expr, names);
        for (const std::string& n : names)
          if (!m.param_names.count(n) && !is_rank_name(n) && std::find(inner.begin(), inner.end(), n) == inner.end())
            inner.push_back(n);
      }
    }
  m.free_names = plain;
  for (const std::string& n : inner)
    if (std::find(plain.begin(), plain.end(), n) == plain.end()) m.free_names.push_back(n);
  return m;
}

int64_t OpModel::value(const std::string& name, const Assignment& a) const {
  std::string n = name;
  for (int hops = 0; hops < 8; ++hops) {
    const auto it = aliases.find(n);
    if (it == aliases.end()) break;
    n = it->second;
  }
  const auto it = a.dims.find(n);
  return it == a.dims.end() ? -1 : it->second;
}

std::vector<std::string> OpModel::input0_dim_names(const Assignment& a) const {
  std::vector<std::string> out;
  if (inputs.empty()) return out;
  for (const DimTerm& d : inputs[0].dims) {
    if (d.ellipsis) {
      for (size_t j = 0; j < a.lead; ++j) out.push_back("#e" + std::to_string(j));
    } else if (d.expr.kind == spec::Expr::Kind::kName && !param_names.count(d.expr.name)) {
      out.push_back(d.expr.name);
    } else {
      out.push_back("");  // an expression or a constant: not a size of its own
    }
  }
  return out;
}

std::set<std::string> OpModel::output_names() const {
  std::set<std::string> names;
  for (const TensorModel& t : outputs)
    if (t.known)
      for (const DimTerm& d : t.dims)
        if (!d.ellipsis) spec::collect_names(d.expr, names);
  return names;
}

spec::Scope scope_for(const OpModel& model, const Assignment& a, const OpCaseSpace& space,
                      const std::vector<std::optional<std::vector<int64_t>>>* shapes) {
  spec::Scope scope;
  scope.value = [&model, &a, &space, shapes](const std::string& name) -> std::optional<spec::ExprValue> {
    spec::ExprValue v;
    if (const int64_t d = model.value(name, a); d >= 0 && !model.param_names.count(name)) {
      v.number = static_cast<double>(d);
      return v;
    }
    if (const ParamSlot* p = space.param(name)) {
      const json value = param_value(*p, a);
      if (value.is_null() || value.is_string()) return std::nullopt;
      if (value.is_array()) {
        v.is_list = true;
        flatten(value, v.list);
        if (!value.empty() && value[0].is_array()) v.dims = {value.size(), value[0].size()};
        return v;
      }
      std::vector<double> one;
      flatten(value, one);
      if (one.size() != 1) return std::nullopt;
      v.number = one[0];
      return v;
    }
    if (is_rank_name(name) && shapes != nullptr && !shapes->empty() && (*shapes)[0]) {
      v.number = static_cast<double>((*shapes)[0]->size());
      return v;
    }
    return std::nullopt;
  };
  scope.shape = [&space, shapes](const std::string& name) -> std::optional<std::vector<double>> {
    if (shapes == nullptr) return std::nullopt;
    for (size_t k = 0; k < space.inputs.size() && k < shapes->size(); ++k)
      if (space.inputs[k].name == name && (*shapes)[k]) {
        std::vector<double> out;
        for (int64_t d : *(*shapes)[k]) out.push_back(static_cast<double>(d));
        return out;
      }
    return std::nullopt;
  };
  return scope;
}

std::optional<std::vector<int64_t>> OpModel::input_shape(size_t k, const Assignment& a, const OpCaseSpace& space) const {
  if (a.absent.count(k)) return std::nullopt;
  const TensorModel* model = &inputs.at(k);
  TensorModel from_template;
  if (!model->known) {
    const auto it = templates.find(k);
    if (it == templates.end() || it->second.empty()) return k == 0 ? std::nullopt : input_shape(0, a, space);
    from_template.known = true;
    from_template.dims = it->second;
    model = &from_template;
  }
  // Other inputs may name input 0's rank (N) or shape.
  std::vector<std::optional<std::vector<int64_t>>> first;
  if (k != 0) first.push_back(input_shape(0, a, space));
  const spec::Scope scope = scope_for(*this, a, space, k == 0 ? nullptr : &first);
  std::vector<int64_t> shape;
  for (const DimTerm& d : model->dims) {
    if (d.ellipsis) {
      for (size_t j = 0; j < a.lead; ++j) {
        const int64_t v = value("#e" + std::to_string(j), a);
        if (v < 0) return std::nullopt;
        shape.push_back(v);
      }
      continue;
    }
    const auto v = spec::evaluate(d.expr, scope);
    if (!v || !std::isfinite(*v) || *v < 0 || *v != std::floor(*v) || *v > 1e9) return std::nullopt;
    shape.push_back(static_cast<int64_t>(*v));
  }
  return shape;
}

std::optional<std::vector<std::optional<std::vector<int64_t>>>> OpModel::shapes(const Assignment& a,
                                                                                const OpCaseSpace& space) const {
  std::vector<std::optional<std::vector<int64_t>>> out;
  for (size_t k = 0; k < space.inputs.size(); ++k) {
    if (a.absent.count(k)) {
      out.emplace_back(std::nullopt);
      continue;
    }
    auto s = input_shape(k, a, space);
    if (!s) return std::nullopt;
    out.emplace_back(std::move(*s));
  }
  return out;
}

}  // namespace oprig::harness
