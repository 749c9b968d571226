#include "graph/shape_rules.hpp"

#include <algorithm>
#include <string>

namespace oprig::graph::shape_rules {

uint64_t element_count(const std::vector<int64_t>& dims) {
  uint64_t n = 1;
  for (int64_t d : dims) n *= static_cast<uint64_t>(d);
  return n;
}

bool is_quantised(const Operand& o) { return o.scale != 0; }

bool dims_compatible(const std::optional<std::vector<int64_t>>& a, const std::optional<std::vector<int64_t>>& b) {
  if (!a || !b) return true;
  if (a->size() != b->size()) return false;
  for (size_t i = 0; i < a->size(); ++i)
    if ((*a)[i] != 0 && (*b)[i] != 0 && (*a)[i] != (*b)[i]) return false;
  return true;
}

bool broadcast_declared(const std::optional<std::vector<int64_t>>& a, const std::optional<std::vector<int64_t>>& b,
                        std::optional<std::vector<int64_t>>* result) {
  *result = std::nullopt;
  if (!a || !b) return true;
  const size_t rank = std::max(a->size(), b->size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Trailing alignment: a missing leading dimension acts as 1.
    const int64_t da = i < rank - a->size() ? 1 : (*a)[i - (rank - a->size())];
    const int64_t db = i < rank - b->size() ? 1 : (*b)[i - (rank - b->size())];
    if (da != 0 && db != 0) {
      if (da != db && da != 1 && db != 1) return false;
      out[i] = da == 1 ? db : da;
    } else {
      // One side unknown: it is 1 or equal to the other, so a known other
      // above 1 decides; a 1 or an unknown other leaves it unknown.
      const int64_t known = da == 0 ? db : da;
      out[i] = known > 1 ? known : 0;
    }
  }
  *result = std::move(out);
  return true;
}

bool slice_output_dims(const int64_t* dims, size_t rank, const int32_t* begin, const int32_t* size, int64_t* out,
                       std::string* why) {
  for (size_t i = 0; i < rank; ++i) {
    const int64_t b = begin[i], n = size[i] == -1 ? dims[i] - b : size[i];
    if (b < 0 || b > dims[i] || n < 0 || b + n > dims[i]) {
      *why = "slice of dimension " + std::to_string(i) + " (size " + std::to_string(dims[i]) + ") from " +
             std::to_string(begin[i]) + " with size " + std::to_string(size[i]) + " is outside the input";
      return false;
    }
    out[i] = n;
  }
  return true;
}

std::optional<std::vector<int64_t>> broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    const int64_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
    const int64_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[rank - 1 - k] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace oprig::graph::shape_rules
