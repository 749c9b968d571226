// fp64 reference of ScaledDotProductAttention, one query at a time:
//   logit_j = scale * dot(q_i, k_j) + mask_ij   (-Inf for j > i when causal)
//   out_i   = sum_j exp(logit_j - max) v_j / sum_j exp(logit_j - max)
// Subtracting the largest logit first is the one concession to numerics:
// without it exp overflows double as soon as a logit passes 709 (the plan's
// large-logit cases reach 10^6). A query with no finite logit (every key
// masked, or no key) has no softmax: NaN, as the spec says. The default scale
// is 1/sqrt(D) exactly; the kernel's fp32 rounding of it is within the
// tolerance's one rounding of the scaled logit.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

double scale_of(const RefParams& params, int64_t depth) {
  const nlohmann::json& values = params.values();
  if (values.contains("scale") && values.at("scale").is_number()) return params.number("scale");
  return 1.0 / std::sqrt(static_cast<double>(depth));  // absent, or the spec's symbolic "1/sqrt(D)"
}

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& q = inputs.at(0);
  const RefTensor& k = inputs.at(1);
  const RefTensor& v = inputs.at(2);
  const bool has_mask = inputs.size() > 3 && inputs[3].present;
  if (q.shape.size() != 4 || k.shape.size() != 4 || v.shape.size() != 4)
    throw std::invalid_argument("query, key and value must be [B, H, S, D]");
  const int64_t B = q.shape[0], H = q.shape[1], Sq = q.shape[2], D = q.shape[3];
  const int64_t Sk = k.shape[2], Dv = v.shape[3];
  if (k.shape[0] != B || k.shape[1] != H || k.shape[3] != D || v.shape[0] != B || v.shape[1] != H || v.shape[2] != Sk)
    throw std::invalid_argument("key and value shapes do not match the query's");
  if (D < 1) throw std::invalid_argument("depth D must be at least 1");
  const std::vector<int64_t> logits_shape = {B, H, Sq, Sk};
  if (has_mask && broadcast_shapes(inputs[3].shape, logits_shape) != logits_shape)
    throw std::invalid_argument("the mask does not broadcast to [B, H, Sq, Sk]");
  const double scale = scale_of(params, D);
  const bool causal = params.boolean_or("is_causal", false);

  RefTensor& out = outputs.at(0);
  out.shape = {B, H, Sq, Dv};
  out.values.assign(static_cast<size_t>(B * H * Sq * Dv), 0.0);
  std::vector<double> logits(static_cast<size_t>(Sk));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < Sq; ++i) {
        const size_t q_row = static_cast<size_t>(((b * H + h) * Sq + i) * D);
        double largest = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < Sk; ++j) {
          const size_t k_row = static_cast<size_t>(((b * H + h) * Sk + j) * D);
          double dot = 0;
          for (int64_t d = 0; d < D; ++d) dot += q.values[q_row + static_cast<size_t>(d)] * k.values[k_row + static_cast<size_t>(d)];
          double logit = scale * dot;
          if (has_mask) logit += inputs[3].values[broadcast_index({b, h, i, j}, inputs[3].shape)];
          if (causal && j > i) logit = -std::numeric_limits<double>::infinity();
          logits[static_cast<size_t>(j)] = logit;
          largest = std::max(largest, logit);
        }
        const size_t out_row = static_cast<size_t>(((b * H + h) * Sq + i) * Dv);
        if (!std::isfinite(largest)) {  // no key to attend to
          for (int64_t e = 0; e < Dv; ++e) out.values[out_row + static_cast<size_t>(e)] = std::numeric_limits<double>::quiet_NaN();
          continue;
        }
        double total = 0;
        for (double& logit : logits) total += (logit = std::exp(logit - largest));
        for (int64_t j = 0; j < Sk; ++j) {
          const size_t v_row = static_cast<size_t>(((b * H + h) * Sk + j) * Dv);
          for (int64_t e = 0; e < Dv; ++e)
            out.values[out_row + static_cast<size_t>(e)] += logits[static_cast<size_t>(j)] * v.values[v_row + static_cast<size_t>(e)] / total;
        }
      }
}

}  // namespace

extern const ReferenceOp oprig_reference_ScaledDotProductAttention;
const ReferenceOp oprig_reference_ScaledDotProductAttention = {"ScaledDotProductAttention", compute, 0.0};

}  // namespace oprig::opsuite
