#include "cases/case.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "cases/rng.hpp"
#include "core/dtype.hpp"

namespace oprig::harness {
namespace {

std::string lower_id(const std::string& text) {
  std::string out;
  for (char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    out += std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '_';
  }
  return out;
}

void finish_ids(Case& c) {
  c.golden_id = std::string(dtype_short_name(c.dtype)) + "__" + shape_text(c.shape) + "__" +
                lower_id(c.fill) + "__" + c.variant;
  c.id = op_key(c.op) + "__" + c.golden_id + "__" + c.backend;
  c.seed = seed_of(c.op, c.golden_id);
}

// Random parameter values are drawn from the golden id's seed and rounded to
// fp32, the type the params are passed as, so reference and kernel agree.
void draw_params(Case& c, const OpCaseSpace& space, const TestPlan& plan, int variant) {
  c.params = space.param_defaults;
  if (variant == 0) return;
  SplitMix64 rng(seed_of(c.op, c.golden_id + "__params"));
  for (const ParamSweep& sweep : plan.params) {
    const double v = sweep.random_low + (sweep.random_high - sweep.random_low) * rng.unit();
    c.params[sweep.name] = static_cast<double>(static_cast<float>(v));
  }
}

int max_random_variants(const TestPlan& plan) {
  int n = 0;
  for (const ParamSweep& sweep : plan.params) n = std::max(n, sweep.random_count);
  return n;
}

Case base_case(const OpCaseSpace& space, const TestPlan& plan, const std::string& backend,
               const TypeChoice& type) {
  Case c;
  c.op = space.op;
  c.package = space.package;
  c.backend = backend;
  c.dtype = type.dtype;
  c.quantized = type.quantized;
  if (type.quantized) {
    c.input_quant = plan.input_quantization;
    c.output_quant = plan.output_quantization;
  }
  return c;
}

void add_variants(std::vector<Case>& out, Case c, const OpCaseSpace& space, const TestPlan& plan) {
  const int variants = 1 + max_random_variants(plan);
  for (int v = 0; v < variants; ++v) {
    Case vc = c;
    vc.variant = "p" + std::to_string(v);
    finish_ids(vc);  // golden id first: the params' seed derives from it
    draw_params(vc, space, plan, v);
    out.push_back(std::move(vc));
  }
}

std::vector<Case> cases_for(const OpCaseSpace& space, const TestPlan& plan,
                            const std::string& backend, const TypeChoice& type) {
  std::vector<Case> out;
  const Case base = base_case(space, plan, backend, type);
  const std::vector<Fill>& fills = type.quantized ? plan.quantized_fills : plan.fills;
  std::vector<const Fill*> usable;
  for (const Fill& f : fills) usable.push_back(&f);
  if (type.quantized)  // random codes over the whole range too
    for (const Fill& f : plan.fills)
      if (f.kind == "uniform" && f.name == "uniform") usable.push_back(&f);
  for (const Fill* fill : usable) {
    if (fill->kind == "edge") {
      Case c = base;
      c.fill = fill->name;
      c.shape = {static_cast<int64_t>(fill->edge_values.size())};
      add_variants(out, c, space, plan);
      continue;
    }
    for (const auto& shape : plan.shapes) {
      Case c = base;
      c.fill = fill->name;
      c.shape = shape;
      add_variants(out, c, space, plan);
    }
  }
  for (size_t i = 0; i < plan.golden_literals.size(); ++i) {
    const GoldenLiteral& lit = plan.golden_literals[i];
    if (dtype_from_name(lit.dtype) != type.dtype || type.quantized) continue;
    Case c = base;
    c.fill = lit.name;
    c.variant = "lit";
    c.literal = static_cast<int>(i);
    c.shape = {static_cast<int64_t>(lit.inputs.at(0).size())};
    finish_ids(c);
    c.params = space.param_defaults;
    for (const auto& [name, value] : lit.params) c.params[name] = value;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

size_t Case::element_count() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
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

std::string op_key(const std::string& op) { return lower_id(op); }

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
    const auto found = space.types_by_backend.find(backend);
    if (found == space.types_by_backend.end()) continue;
    for (const TypeChoice& type : found->second) {
      std::vector<Case> more = cases_for(space, plan, backend, type);
      out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
  }
  return out;
}

std::vector<Case> golden_cases(const OpCaseSpace& space, const TestPlan& plan) {
  std::vector<Case> out;
  std::set<std::string> seen;
  for (const auto& [backend, types] : space.types_by_backend) {
    for (const TypeChoice& type : types) {
      for (Case& c : cases_for(space, plan, backend, type)) {
        if (c.element_count() > plan.golden_max_elements) continue;
        if (!seen.insert(c.golden_id).second) continue;
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
  for (const Fill& f : plan.fills)
    if (f.name == c.fill && !(c.quantized && f.kind != "uniform")) return &f;
  for (const Fill& f : plan.quantized_fills)
    if (f.name == c.fill) return &f;
  return nullptr;
}

}  // namespace oprig::harness
