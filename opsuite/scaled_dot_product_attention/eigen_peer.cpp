// The peer of the cpu ScaledDotProductAttention kernel in bench.cpp: the
// textbook formulation in Eigen, per head: S = Q K^T (an Eigen GEMM) times
// the scale, -Inf above the diagonal when causal, each row's maximum
// subtracted, Eigen's vectorised exp, O = S V (another GEMM) divided by the
// row sums. Eigen picks its vector packets at compile time, so CMakeLists.txt
// compiles this file twice, for AVX-512 and for AVX2 + FMA, each into the
// namespace OPRIG_EIGEN_PEER_ISA names; bench.cpp runs the one the backend's
// cpu_isa allows.
#include <Eigen/Core>

#include <algorithm>
#include <limits>

#include "scaled_dot_product_attention/eigen_peer.hpp"

namespace oprig::opsuite::sdpa_peer::OPRIG_EIGEN_PEER_ISA {

void attention(const EigenPeerProblem& p, int64_t head_begin, int64_t head_end, float* logits) {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int64_t Sq = p.query_len, Sk = p.key_len, D = p.depth, Dv = p.value_depth;
  for (int64_t h = head_begin; h < head_end; ++h) {
    const Eigen::Map<const Matrix> q(p.query + h * Sq * D, Sq, D);
    const Eigen::Map<const Matrix> k(p.key + h * Sk * D, Sk, D);
    const Eigen::Map<const Matrix> v(p.value + h * Sk * Dv, Sk, Dv);
    Eigen::Map<Matrix> s(logits, Sq, Sk);
    Eigen::Map<Matrix> o(p.out + h * Sq * Dv, Sq, Dv);
    s.noalias() = q * k.transpose();
    s *= p.scale;
    // Row by row: a triangularView of a row-major map is filled column by column.
    if (p.causal)
      for (int64_t i = 0; i + 1 < std::min(Sq, Sk); ++i)
        s.row(i).tail(Sk - i - 1).setConstant(-std::numeric_limits<float>::infinity());
    const Eigen::VectorXf row_max = s.rowwise().maxCoeff();
    s.array().colwise() -= row_max.array();
    s.array() = s.array().exp();
    // Eigen's exp clamps its argument at -88.38: -Inf gives a denormal, not 0.
    if (p.causal)
      for (int64_t i = 0; i + 1 < std::min(Sq, Sk); ++i) s.row(i).tail(Sk - i - 1).setZero();
    const Eigen::VectorXf row_sum = s.rowwise().sum();
    o.noalias() = s * v;
    o.array().colwise() /= row_sum.array();
  }
}

}  // namespace oprig::opsuite::sdpa_peer::OPRIG_EIGEN_PEER_ISA
