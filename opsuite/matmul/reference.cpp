// fp64 reference of MatMul: for every output batch index (NumPy broadcasting
// of the batch dimensions), a plain triple loop over m, n and k in double.
// Products of fp32 or fp16 values are exact in double; their sum is kept with
// Neumaier's compensated summation (common/compensated_sum.hpp), so it is
// within about one ulp of double of the exact sum even where the terms cancel
// (the golden cross-check holds it to 2 ulp of NumPy's exactly rounded
// math.fsum).
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/compensated_sum.hpp"
#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

struct Matrix {
  const RefTensor* tensor;
  bool transposed;
  int64_t rows() const { return dim(transposed ? 1 : 2); }  // rows of the logical matrix
  int64_t cols() const { return dim(transposed ? 2 : 1); }
  std::vector<int64_t> batch_shape() const {
    return {tensor->shape.begin(), tensor->shape.end() - 2};
  }
  // Element (r, c) of the logical matrix in the batch that starts at `base`.
  double at(size_t base, int64_t r, int64_t c) const {
    const int64_t stored_cols = dim(1);
    const int64_t row = transposed ? c : r, col = transposed ? r : c;
    return tensor->values[base + static_cast<size_t>(row * stored_cols + col)];
  }
  int64_t dim(size_t from_end) const { return tensor->shape[tensor->shape.size() - from_end]; }
};

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in0 = inputs.at(0);
  const RefTensor& in1 = inputs.at(1);
  if (in0.shape.size() < 2 || in1.shape.size() < 2)
    throw std::invalid_argument("MatMul needs inputs of rank 2 or more");
  const Matrix a{&in0, params.boolean_or("transpose_a", false)};
  const Matrix b{&in1, params.boolean_or("transpose_b", false)};
  const int64_t m_size = a.rows(), k_size = a.cols(), n_size = b.cols();
  if (b.rows() != k_size)
    throw std::invalid_argument("MatMul: K of in0 (" + std::to_string(k_size) + ") differs from K of in1 (" +
                                std::to_string(b.rows()) + ")");

  const std::vector<int64_t> batch = broadcast_shapes(a.batch_shape(), b.batch_shape());
  const size_t a_matrix = static_cast<size_t>(m_size * k_size), b_matrix = static_cast<size_t>(k_size * n_size);
  RefTensor& out = outputs.at(0);
  out.shape = batch;
  out.shape.push_back(m_size);
  out.shape.push_back(n_size);
  out.values.assign(element_count(out.shape), 0.0);

  const size_t batches = element_count(batch);
  for (size_t i = 0; i < batches; ++i) {
    const std::vector<int64_t> coords = unravel(i, batch);
    const size_t a_base = broadcast_index(coords, a.batch_shape()) * a_matrix;
    const size_t b_base = broadcast_index(coords, b.batch_shape()) * b_matrix;
    double* c = out.values.data() + i * static_cast<size_t>(m_size * n_size);
    for (int64_t m = 0; m < m_size; ++m)
      for (int64_t n = 0; n < n_size; ++n) {
        CompensatedSum sum;
        for (int64_t k = 0; k < k_size; ++k) sum.add(a.at(a_base, m, k) * b.at(b_base, k, n));
        c[m * n_size + n] = sum.value();
      }
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_MatMul;
const ReferenceOp oprig_reference_MatMul = {"MatMul", compute, 0.0};

}  // namespace oprig::opsuite
