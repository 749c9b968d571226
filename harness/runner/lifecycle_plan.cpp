#include "runner/lifecycle_plan.hpp"

#include <algorithm>

namespace oprig::harness {
namespace {

bool random_fill(const FillSpec& f) {
  return f.kind == "uniform" || f.kind == "small_int" || f.kind == "distinct" || f.kind == "ties" ||
         f.kind == "boxes";
}

bool candidate(const Case& c, const TestPlan& plan) {
  if (!c.golden_dir.empty() || c.literal >= 0) return false;
  const size_t n = c.element_count();
  if (n < 2 || n > kMaxAnchorElements) return false;
  const Fill* fill = find_fill(plan, c);
  if (fill == nullptr) return false;
  for (const CaseTensor& t : c.inputs)
    if (t.present && !random_fill(fill->for_input(t.name))) return false;
  return true;
}

}  // namespace

LifecyclePlan::LifecyclePlan(const std::vector<Case>& cases, const TestPlan& plan) {
  std::map<std::string, std::vector<const Case*>> groups;  // backend|types -> candidates, in generation order
  for (const Case& c : cases)
    if (candidate(c, plan)) groups[c.backend + "|" + c.types_text].push_back(&c);
  for (const auto& [key, members] : groups) {
    const Case* anchor = nullptr;
    std::vector<const Case*> anchor_companions;
    for (const Case* c : members) {
      std::vector<const Case*> companions;
      for (const Case* o : members)
        if (o != c && o->fill == c->fill && o->params == c->params && o->shape_text != c->shape_text &&
            std::none_of(companions.begin(), companions.end(),
                         [&](const Case* k) { return k->shape_text == o->shape_text; }))
          companions.push_back(o);
      std::stable_sort(companions.begin(), companions.end(),
                       [](const Case* a, const Case* b) { return a->element_count() > b->element_count(); });
      if (companions.size() > kMaxCompanions) companions.resize(kMaxCompanions);
      const bool better = anchor == nullptr || (!companions.empty() && anchor_companions.empty()) ||
                          (companions.empty() == anchor_companions.empty() &&
                           c->element_count() > anchor->element_count());
      if (better) {
        anchor = c;
        anchor_companions = std::move(companions);
      }
    }
    if (anchor != nullptr) companions_[anchor->id] = std::move(anchor_companions);
  }
}

std::optional<std::vector<const Case*>> LifecyclePlan::companions_of(const std::string& id,
                                                                    const std::set<std::string>& not_passed) const {
  const auto it = companions_.find(id);
  if (it == companions_.end()) return std::nullopt;
  std::vector<const Case*> usable;
  for (const Case* c : it->second)
    if (!not_passed.count(c->id)) usable.push_back(c);
  return usable;
}

std::vector<std::string> LifecyclePlan::run_order(const std::vector<std::string>& ids) const {
  std::vector<std::string> out = ids;
  std::stable_partition(out.begin(), out.end(), [&](const std::string& id) { return !is_anchor(id); });
  return out;
}

}  // namespace oprig::harness
