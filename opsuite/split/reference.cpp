// fp64 reference of Split, by the definition: output k is the input's slice
// [offset_k, offset_k + split[k]) along axis, offset_k the sizes before it;
// without split, equal parts, one per output.
#include <numeric>
#include <stdexcept>
#include <string>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in = inputs.at(0);
  if (in.shape.empty()) throw std::invalid_argument("Split: a rank-0 tensor has no axis to cut along");
  if (outputs.empty()) throw std::invalid_argument("Split needs at least one output");
  const size_t axis = normalize_axis(params.integer_or("axis", 0), in.shape.size());
  const int64_t length = in.shape[axis];
  const auto parts = static_cast<int64_t>(outputs.size());

  std::vector<int64_t> sizes;
  if (params.has("split")) {
    sizes = params.integers("split");
    if (static_cast<int64_t>(sizes.size()) != parts)
      throw std::invalid_argument("Split: split has " + std::to_string(sizes.size()) + " sizes for " +
                                  std::to_string(parts) + " outputs");
    for (int64_t s : sizes)
      if (s < 0) throw std::invalid_argument("Split: a negative size");
    if (std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != length)
      throw std::invalid_argument("Split: the sizes do not add up to the axis length " + std::to_string(length));
  } else {
    if (length % parts != 0)
      throw std::invalid_argument("Split: " + std::to_string(length) + " does not divide into " +
                                  std::to_string(parts) + " equal parts");
    sizes.assign(static_cast<size_t>(parts), length / parts);
  }

  const std::vector<int64_t> in_strides = row_major_strides(in.shape);
  int64_t offset = 0;
  for (size_t k = 0; k < outputs.size(); ++k) {
    RefTensor& out = outputs[k];
    out.shape = in.shape;
    out.shape[axis] = sizes[k];
    out.values.resize(element_count(out.shape));
    for (size_t i = 0; i < out.values.size(); ++i) {
      std::vector<int64_t> coords = unravel(i, out.shape);
      coords[axis] += offset;
      size_t at = 0;
      for (size_t d = 0; d < coords.size(); ++d) at += static_cast<size_t>(coords[d] * in_strides[d]);
      out.values[i] = in.values[at];
    }
    offset += sizes[k];
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_Split;
const ReferenceOp oprig_reference_Split = {"Split", compute, 0.0};

}  // namespace oprig::opsuite
