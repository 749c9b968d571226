// Which cases get the lifecycle passes (lifecycle_checks.hpp), so that they
// cost a few cases per op x backend x type combination, not every case.
// Per group (backend, types) of generated cases whose every input has a
// random fill (uniform, small_int, distinct, ties, boxes: a second seed gives
// other contents) and 2 to kMaxAnchorElements elements:
//  - the anchor is the largest such case that has a companion, else the
//    largest one (ties: the first in generation order);
//  - its companions are up to two cases of the same fill and parameters with
//    other input shapes, the largest first.
// The choice depends on the whole case list only, never on which cases a run
// selects, so `--case ID` of an anchor repeats its passes.
// Anchors run last in their group (supervisor and worker agree on
// run_order()), so that their companions have run first: a companion whose
// case did not pass (it crashed, hung, failed) is left out of the passes
// (companions_of's `not_passed`), which then never charge the anchor with a
// fault of another shape.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cases/case.hpp"
#include "oprig/verdict.hpp"

namespace oprig::harness {

inline constexpr size_t kMaxAnchorElements = 16384;

// A case whose inputs may serve as a companion: it ran and its kernel was right.
constexpr bool usable_as_companion(Verdict v) {
  return v == Verdict::kPassed || v == Verdict::kQualityWarning || v == Verdict::kMistrusted;
}
inline constexpr size_t kMaxCompanions = 2;

class LifecyclePlan {
 public:
  // `cases` must outlive the plan.
  LifecyclePlan(const std::vector<Case>& cases, const TestPlan& plan);
  // The companions of an anchor case, minus those whose ids are in
  // `not_passed`; nullopt when `id` is no anchor.
  std::optional<std::vector<const Case*>> companions_of(const std::string& id,
                                                        const std::set<std::string>& not_passed) const;
  bool is_anchor(const std::string& id) const { return companions_.count(id) > 0; }
  // Ids in the order a group runs them: the anchors after every other case.
  std::vector<std::string> run_order(const std::vector<std::string>& ids) const;

 private:
  std::map<std::string, std::vector<const Case*>> companions_;
};

}  // namespace oprig::harness
