// The integer reference of quantised MatMul (common/integer_reference.hpp),
// the rule of TFLite's reference FULLY_CONNECTED / BATCH_MATMUL integer
// kernels: per output element an int32 accumulator of
// (q_a - z_a) * (q_w - z_w) over k, scaled by the fixed-point multiplier of
// the real M = s_a * s_w / s_out (each scale the tensor's float, the product
// and quotient in double, as TFLite's GetQuantizedConvolutionMultipler),
// plus z_out, clamped to the output type. The accumulator is summed in int64
// here so that a case leaving int32 is refused instead of wrapping.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/integer_reference.hpp"
#include "common/quant.hpp"

namespace oprig::opsuite {
namespace {

bool is_code_type(oprig_dtype t) { return t == OPRIG_DTYPE_UINT_8 || t == OPRIG_DTYPE_INT_8; }

// Element (r, c) of a batch's logical matrix, the stored one transposed or not.
int32_t code_at(const RefTensor& t, size_t base, bool transposed, int64_t r, int64_t c) {
  const int64_t stored_cols = t.shape.back();
  const int64_t row = transposed ? c : r, col = transposed ? r : c;
  return static_cast<int32_t>(t.values[base + static_cast<size_t>(row * stored_cols + col)]);
}

bool compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& a = inputs.at(0);
  const RefTensor& w = inputs.at(1);
  RefTensor& out = outputs.at(0);
  if (!is_code_type(a.dtype) || w.dtype != OPRIG_DTYPE_INT_8 || out.dtype != a.dtype || a.scale <= 0 ||
      w.scale <= 0 || out.scale <= 0)
    return false;
  if (a.shape.size() < 2 || w.shape.size() < 2) throw std::invalid_argument("MatMul needs inputs of rank 2 or more");
  const bool ta = params.boolean_or("transpose_a", false), tb = params.boolean_or("transpose_b", false);
  const size_t ra = a.shape.size(), rw = w.shape.size();
  const int64_t m_size = ta ? a.shape[ra - 1] : a.shape[ra - 2], k_size = ta ? a.shape[ra - 2] : a.shape[ra - 1];
  const int64_t n_size = tb ? w.shape[rw - 2] : w.shape[rw - 1], k_w = tb ? w.shape[rw - 1] : w.shape[rw - 2];
  if (k_w != k_size) throw std::invalid_argument("MatMul: K of in0 differs from K of in1");

  quant::Multiplier mul;
  const double real = static_cast<double>(static_cast<float>(a.scale)) * static_cast<float>(w.scale) /
                      static_cast<float>(out.scale);
  if (!quant::multiplier(real, &mul))
    throw std::invalid_argument("MatMul: no fixed-point multiplier for s_a s_w / s_out = " + std::to_string(real));
  const quant::Range range = quant::type_range(out.dtype == OPRIG_DTYPE_INT_8);

  const std::vector<int64_t> a_batch(a.shape.begin(), a.shape.end() - 2), w_batch(w.shape.begin(), w.shape.end() - 2);
  const std::vector<int64_t> batch = broadcast_shapes(a_batch, w_batch);
  out.shape = batch;
  out.shape.push_back(m_size);
  out.shape.push_back(n_size);
  out.values.assign(element_count(out.shape), 0.0);
  out.codes = true;
  const size_t a_matrix = static_cast<size_t>(m_size * k_size), w_matrix = static_cast<size_t>(k_size * n_size);
  for (size_t i = 0; i < element_count(batch); ++i) {
    const std::vector<int64_t> coords = unravel(i, batch);
    const size_t a_base = broadcast_index(coords, a_batch) * a_matrix;
    const size_t w_base = broadcast_index(coords, w_batch) * w_matrix;
    double* c = out.values.data() + i * static_cast<size_t>(m_size * n_size);
    for (int64_t m = 0; m < m_size; ++m)
      for (int64_t n = 0; n < n_size; ++n) {
        int64_t acc = 0;
        for (int64_t k = 0; k < k_size; ++k)
          acc += int64_t{code_at(a, a_base, ta, m, k) - a.zero_point} * (code_at(w, w_base, tb, k, n) - w.zero_point);
        if (acc < std::numeric_limits<int32_t>::min() || acc > std::numeric_limits<int32_t>::max())
          throw std::invalid_argument("MatMul: the accumulator leaves int32 (" + std::to_string(acc) + ")");
        const int32_t q = quant::scale_by(static_cast<int32_t>(acc), mul) + out.zero_point;
        c[m * n_size + n] = std::clamp(q, range.lo, range.hi);
      }
  }
  return true;
}

}  // namespace

extern const IntegerReferenceOp oprig_integer_reference_MatMul;
const IntegerReferenceOp oprig_integer_reference_MatMul = {"MatMul", compute};

}  // namespace oprig::opsuite
