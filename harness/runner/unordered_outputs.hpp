// plan.json "order_insensitive" applied to one case: which of its outputs
// are compared as multisets along an axis (compare/unordered.hpp), and the
// canonical order both the kernel's and the expected outputs are put into.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cases/case.hpp"
#include "runner/oracle.hpp"

namespace oprig::harness {

struct OpContext;

struct UnorderedGroup {
  std::vector<size_t> outputs;  // indices into Case::outputs, in sort priority
  int64_t axis = -1;
  std::string note;  // "values, indices compared as multisets along axis 1 (sorted=false: ...)"
};

// The groups that apply to `c` (their "when" matches the case's parameters,
// defaults included). Throws std::runtime_error for an entry that names an
// output the case lacks or an axis parameter without a value.
std::vector<UnorderedGroup> unordered_groups(const Case& c, const OpContext& op);

// Puts every slice along the group's axis of the kernel's outputs (`got`,
// raw bytes in the case's types) and of the expected ones into the canonical
// order. Throws std::invalid_argument when the group's outputs differ in shape.
void canonicalise(const UnorderedGroup& group, const Case& c, std::vector<std::vector<std::byte>>& got,
                  std::vector<Expected>& expected);

}  // namespace oprig::harness
