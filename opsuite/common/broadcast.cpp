#include "common/broadcast.hpp"

#include <algorithm>

namespace oprig::opsuite {

bool plan_broadcast(const oprig_tensor& a, const oprig_tensor& b, BroadcastPlan* plan) {
  *plan = BroadcastPlan{};
  if (a.rank > OPRIG_MAX_RANK || b.rank > OPRIG_MAX_RANK) return false;
  const uint32_t rank = std::max(a.rank, b.rank);
  int64_t ad[OPRIG_MAX_RANK], bd[OPRIG_MAX_RANK];
  for (uint32_t i = 0; i < rank; ++i) {
    ad[i] = i < rank - a.rank ? 1 : a.dims[i - (rank - a.rank)];
    bd[i] = i < rank - b.rank ? 1 : b.dims[i - (rank - b.rank)];
    if (ad[i] < 0 || bd[i] < 0) return false;
    if (ad[i] != bd[i] && ad[i] != 1 && bd[i] != 1) return false;
    plan->out_dims[i] = ad[i] == 1 ? bd[i] : ad[i];
  }
  plan->rank = rank;
  plan->count = 1;
  for (uint32_t i = 0; i < rank; ++i) plan->count *= static_cast<size_t>(plan->out_dims[i]);
  // Row-major strides of each input over the output's dims, 0 where it broadcasts.
  int64_t as[OPRIG_MAX_RANK], bs[OPRIG_MAX_RANK];
  int64_t sa = 1, sb = 1;
  for (uint32_t i = rank; i-- > 0;) {
    as[i] = ad[i] == 1 ? 0 : sa;
    bs[i] = bd[i] == 1 ? 0 : sb;
    sa *= ad[i];
    sb *= bd[i];
  }
  // Merge dimension i into the one after it when both inputs continue
  // contiguously across the boundary (or both stay broadcast).
  uint32_t m = 0;
  for (uint32_t i = 0; i < rank; ++i) {
    if (plan->out_dims[i] == 1 && rank > 1) continue;  // size-1 dims add nothing
    if (m > 0) {
      const uint32_t p = m - 1;
      const bool a_ok = (as[i] == 0 && plan->a_strides[p] == 0) ||
                        (as[i] != 0 && plan->a_strides[p] == as[i] * plan->out_dims[i]);
      const bool b_ok = (bs[i] == 0 && plan->b_strides[p] == 0) ||
                        (bs[i] != 0 && plan->b_strides[p] == bs[i] * plan->out_dims[i]);
      if (a_ok && b_ok) {
        plan->dims[p] *= plan->out_dims[i];
        plan->a_strides[p] = as[i];
        plan->b_strides[p] = bs[i];
        continue;
      }
    }
    plan->dims[m] = plan->out_dims[i];
    plan->a_strides[m] = as[i];
    plan->b_strides[m] = bs[i];
    ++m;
  }
  if (m == 0) {  // a scalar, or every dim 1: one row of one element
    plan->dims[0] = 1;
    plan->a_strides[0] = plan->b_strides[0] = 0;
    m = 1;
  }
  plan->merged = m;
  return true;
}

void BroadcastPlan::row_offsets(size_t r, size_t* a_off, size_t* b_off) const {
  size_t a = 0, b = 0;
  for (uint32_t d = merged - 1; d-- > 0;) {
    const size_t extent = static_cast<size_t>(dims[d]);
    const size_t c = r % extent;
    r /= extent;
    a += c * static_cast<size_t>(a_strides[d]);
    b += c * static_cast<size_t>(b_strides[d]);
  }
  *a_off = a;
  *b_off = b;
}

}  // namespace oprig::opsuite
