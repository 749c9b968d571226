// fp64 reference of ArgMax: for every position of the other dimensions, walk
// the axis and keep the index of the greatest element. Order: NaN is greater
// than every number (NumPy's rule), -0 equals +0; among equal greatest
// elements the first index wins, or the last with select_last_index. The
// output holds int32 indices; keepdims leaves the reduced axis as size 1.
#include <cmath>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

// a ranks above b: NaN above everything, NaN equal to NaN.
bool ranks_above(double a, double b) {
  if (std::isnan(b)) return false;
  if (std::isnan(a)) return true;
  return a > b;
}

bool ranks_equal(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b;
}

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& x = inputs.at(0);
  if (x.shape.empty()) throw std::invalid_argument("ArgMax needs an input of rank >= 1");
  const size_t rank = x.shape.size();
  const size_t axis = normalize_axis(params.integer_or("axis", 0), rank);
  const bool keepdims = params.boolean_or("keepdims", true);
  const bool last = params.boolean_or("select_last_index", false);
  const int64_t n = x.shape[axis];
  if (n == 0) throw std::invalid_argument("ArgMax over an empty axis has no answer");

  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(x.shape[d]);
  for (size_t d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(x.shape[d]);

  RefTensor& out = outputs.at(0);
  out.shape.clear();
  for (size_t d = 0; d < rank; ++d) {
    if (d != axis) out.shape.push_back(x.shape[d]);
    else if (keepdims) out.shape.push_back(1);
  }
  out.values.assign(outer * inner, 0.0);
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t k) { return x.values[(o * static_cast<size_t>(n) + static_cast<size_t>(k)) * inner + i]; };
      int64_t best = 0;
      for (int64_t k = 1; k < n; ++k) {
        const bool take = ranks_above(at(k), at(best)) || (last && ranks_equal(at(k), at(best)));
        if (take) best = k;
      }
      out.values[o * inner + i] = static_cast<double>(best);
    }
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_ArgMax;
const ReferenceOp oprig_reference_ArgMax = {"ArgMax", compute, 0.0};

}  // namespace oprig::opsuite
