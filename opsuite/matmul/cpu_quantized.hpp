// The cpu kernel's integer path (quantised MatMul, quantized_product.hpp):
// per output row an int32 accumulator per column, (q_a - z_a)(q_w - z_w)
// summed over k in order, then quant::scale_by, + z_out, clamp. The rule of
// integer_reference.cpp, so that `--reference-backend cpu` judges the dsp
// kernel bit for bit. Plain loops: the cpu path is the rule's second
// spelling, not a fast int8 GEMM.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "matmul/quantized_product.hpp"

namespace oprig::opsuite::matmul {

template <class Code>
void run_quantized_cpu(const QuantizedProduct& q, bool transpose_a, bool transpose_b, const Code* a,
                       const int8_t* w, Code* out) {
  const size_t m_size = q.shape.m, n_size = q.shape.n, k_size = q.shape.k;
  // Strides of the logical A (m, k) and W (k, n) in their stored matrices.
  const size_t a_m = transpose_a ? 1 : k_size, a_k = transpose_a ? m_size : 1;
  const size_t w_k = transpose_b ? 1 : n_size, w_n = transpose_b ? k_size : 1;
  std::vector<int32_t> acc(n_size);
  for (uint64_t z = 0; z < q.shape.batches; ++z) {
    uint64_t a_matrix = 0, w_matrix = 0;
    q.shape.matrices_of(z, &a_matrix, &w_matrix);
    const Code* am = a + a_matrix * m_size * k_size;
    const int8_t* wm = w + w_matrix * k_size * n_size;
    Code* c = out + z * m_size * n_size;
    for (size_t m = 0; m < m_size; ++m) {
      std::fill(acc.begin(), acc.end(), 0);
      for (size_t k = 0; k < k_size; ++k) {
        const int32_t x = int32_t{am[m * a_m + k * a_k]} - q.z_a;
        for (size_t n = 0; n < n_size; ++n) acc[n] += x * (int32_t{wm[k * w_k + n * w_n]} - q.z_w);
      }
      for (size_t n = 0; n < n_size; ++n)
        c[m * n_size + n] = static_cast<Code>(
            std::clamp(quant::scale_by(acc[n], q.multiplier) + q.z_out, q.range.lo, q.range.hi));
    }
  }
}

}  // namespace oprig::opsuite::matmul
