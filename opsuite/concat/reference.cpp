// fp64 reference of Concat, by the definition: the output element at
// coordinates c comes from the input k whose slice along axis holds c[axis],
// at c with c[axis] reduced by the sizes of the inputs before k.
#include <stdexcept>
#include <string>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  if (inputs.empty()) throw std::invalid_argument("Concat needs at least one input");
  const std::vector<int64_t>& first = inputs[0].shape;
  if (first.empty()) throw std::invalid_argument("Concat: rank-0 tensors have no axis to join along");
  const size_t axis = normalize_axis(params.integer_or("axis", 0), first.size());

  std::vector<int64_t> out_shape = first;
  out_shape[axis] = 0;
  for (const RefTensor& in : inputs) {
    if (in.shape.size() != first.size()) throw std::invalid_argument("Concat: inputs of different ranks");
    for (size_t d = 0; d < first.size(); ++d)
      if (d != axis && in.shape[d] != first[d])
        throw std::invalid_argument("Concat: inputs differ in dimension " + std::to_string(d));
    out_shape[axis] += in.shape[axis];
  }

  RefTensor& out = outputs.at(0);
  out.shape = out_shape;
  out.values.resize(element_count(out_shape));
  for (size_t i = 0; i < out.values.size(); ++i) {
    std::vector<int64_t> coords = unravel(i, out_shape);
    size_t k = 0;
    while (coords[axis] >= inputs[k].shape[axis]) {
      coords[axis] -= inputs[k].shape[axis];
      ++k;
    }
    const std::vector<int64_t> strides = row_major_strides(inputs[k].shape);
    size_t at = 0;
    for (size_t d = 0; d < coords.size(); ++d) at += static_cast<size_t>(coords[d] * strides[d]);
    out.values[i] = inputs[k].values[at];
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_Concat;
const ReferenceOp oprig_reference_Concat = {"Concat", compute, 0.0};

}  // namespace oprig::opsuite
