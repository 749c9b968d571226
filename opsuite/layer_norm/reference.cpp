// fp64 reference of LayerNorm, straight from the spec: each slice over the
// axes axis..N-1 (contiguous in row-major order) gets its mean, its biased
// variance about that mean, and out = (x - mean) / sqrt(var + epsilon) *
// gamma + beta. Computed in long double with the sums in element order, so
// the fp64 result is within an fp64 ulp even where x - mean or the final sum
// cancels; numpy_reference.py performs the same operations in the same order
// (np.longdouble, cumulative sums) for the golden cross-check.
#include <cmath>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& x = inputs.at(0);
  const RefTensor& gamma = inputs.at(1);
  const bool has_beta = inputs.size() > 2 && inputs[2].present;
  if (x.shape.empty()) throw std::invalid_argument("LayerNorm needs an input of rank >= 1");
  const size_t axis = normalize_axis(params.integer_or("axis", -1), x.shape.size());
  const std::vector<int64_t> slice_shape(x.shape.begin() + static_cast<std::ptrdiff_t>(axis), x.shape.end());
  if (gamma.shape != slice_shape || (has_beta && inputs[2].shape != slice_shape))
    throw std::invalid_argument("LayerNorm: gamma and beta must have the shape in.shape[axis:]");
  const long double epsilon = params.number_or("epsilon", 1e-5);

  RefTensor& y = outputs.at(0);
  y.shape = x.shape;
  y.values.assign(x.values.size(), 0.0);
  const size_t n = element_count(slice_shape);
  const size_t slices = n == 0 ? 0 : x.values.size() / n;
  for (size_t s = 0; s < slices; ++s) {
    const double* row = x.values.data() + s * n;
    long double sum = 0;
    for (size_t i = 0; i < n; ++i) sum += row[i];
    const long double mean = sum / n;
    long double squares = 0;
    for (size_t i = 0; i < n; ++i) squares += (row[i] - mean) * (row[i] - mean);
    const long double inv_std = 1 / std::sqrt(squares / n + epsilon);
    for (size_t i = 0; i < n; ++i) {
      const long double shift = has_beta ? inputs[2].values[i] : 0.0L;
      y.values[s * n + i] = static_cast<double>(gamma.values[i] * ((row[i] - mean) * inv_std) + shift);
    }
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_LayerNorm;
// Two sums, a subtraction, products and a shift per element.
const ReferenceOp oprig_reference_LayerNorm = {"LayerNorm", compute, 8.0};

}  // namespace oprig::opsuite
