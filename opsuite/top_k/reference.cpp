// fp64 reference of TopK: for every position of the other dimensions, order
// the axis' elements by value (NaN above every number, -0 equal to +0),
// greatest first with largest, smallest first without; equal values keep
// their index order (a stable sort). The first k are the output; without
// sorted they are listed in index order instead. values are the input
// elements themselves, indices int32 positions along the axis.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

// a < b in the op's order of values: NaN above every number.
bool below(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return a < b;
}

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& x = inputs.at(0);
  if (x.shape.empty()) throw std::invalid_argument("TopK needs an input of rank >= 1");
  const size_t rank = x.shape.size();
  const size_t axis = normalize_axis(params.integer_or("axis", -1), rank);
  const int64_t k = params.integer("k");
  const bool largest = params.boolean_or("largest", true);
  const bool sorted = params.boolean_or("sorted", true);
  const int64_t n = x.shape[axis];
  if (k < 1 || k > n) throw std::invalid_argument("k must be in [1, " + std::to_string(n) + "]");

  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(x.shape[d]);
  for (size_t d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(x.shape[d]);

  RefTensor& values = outputs.at(0);
  RefTensor& indices = outputs.at(1);
  values.shape = x.shape;
  values.shape[axis] = k;
  indices.shape = values.shape;
  values.values.assign(outer * static_cast<size_t>(k) * inner, 0.0);
  indices.values.assign(values.values.size(), 0.0);

  std::vector<int64_t> order(static_cast<size_t>(n));
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t j) { return x.values[(o * static_cast<size_t>(n) + static_cast<size_t>(j)) * inner + i]; };
      for (int64_t j = 0; j < n; ++j) order[static_cast<size_t>(j)] = j;
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return largest ? below(at(b), at(a)) : below(at(a), at(b));
      });
      std::vector<int64_t> chosen(order.begin(), order.begin() + k);
      if (!sorted) std::sort(chosen.begin(), chosen.end());
      for (int64_t j = 0; j < k; ++j) {
        const size_t out = (o * static_cast<size_t>(k) + static_cast<size_t>(j)) * inner + i;
        values.values[out] = at(chosen[static_cast<size_t>(j)]);
        indices.values[out] = static_cast<double>(chosen[static_cast<size_t>(j)]);
      }
    }
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_TopK;
const ReferenceOp oprig_reference_TopK = {"TopK", compute, 0.0};

}  // namespace oprig::opsuite
