// fp64 reference of RMSNorm: every slice along the last axis is divided by
// its root mean square, sqrt(mean(x^2) + epsilon), and multiplied by weight
// element by element (weight has the length of the last axis). The JSON UDO
// format has no descriptions, so this file and plan.json state the semantics.
// In long double with the sum in element order, so the fp64 result is within
// an fp64 ulp; numpy_reference.py performs the same operations in the same
// order (np.longdouble, a cumulative sum) for the golden cross-check.
#include <cmath>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& x = inputs.at(0);
  const RefTensor& weight = inputs.at(1);
  if (x.shape.empty()) throw std::invalid_argument("RMSNorm needs an input of rank >= 1");
  const size_t n = static_cast<size_t>(x.shape.back());
  if (weight.shape != std::vector<int64_t>{x.shape.back()})
    throw std::invalid_argument("RMSNorm: weight must be 1-D with the length of the last axis");
  const long double epsilon = params.number_or("epsilon", 1e-6);

  RefTensor& y = outputs.at(0);
  y.shape = x.shape;
  y.values.assign(x.values.size(), 0.0);
  const size_t slices = n == 0 ? 0 : x.values.size() / n;
  for (size_t s = 0; s < slices; ++s) {
    const double* row = x.values.data() + s * n;
    long double squares = 0;
    for (size_t i = 0; i < n; ++i) squares += static_cast<long double>(row[i]) * row[i];
    const long double inv_rms = 1 / std::sqrt(squares / n + epsilon);
    for (size_t i = 0; i < n; ++i) y.values[s * n + i] = static_cast<double>(row[i] * inv_rms * weight.values[i]);
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_RMSNorm;
// A square, a sum and two products per element.
const ReferenceOp oprig_reference_RMSNorm = {"RMSNorm", compute, 4.0};

}  // namespace oprig::opsuite
