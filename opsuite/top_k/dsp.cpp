// TopK on the dsp backend: UINT_8 codes in, the k greatest (or smallest)
// codes and their INT_32 indices out (the spec's DSP types). The values are
// input codes copied as they are (the output carries the input's scale and
// zero point), and the order of codes is the order of the real values, so
// the kernel is exact.
//
// Repeated extraction with the keys and the walk of common/dsp_reduce.hpp:
// each code is ranked by a unique key (the code, bitwise-not for the
// smallest, in the top byte; 0xFFFFFF - index below it, so the lower index
// of equal codes ranks higher, the spec's tie rule), and pass p takes the
// greatest key below the key pass p - 1 found (a per-lane bound on the
// walk's halfwords): the p-th of the line, in rank order (sorted). In index
// order (sorted = false) the passes keep the k keys in a workspace and k
// more passes over those k words take the next index each time. Why
// extraction: the DSP has no compress or scatter (outside VTCM) to gather
// the winners of a histogram or threshold pass in order, and each pass is a
// streaming max at 3.5 cycles per 128 codes (near the load bandwidth); its
// cost is k passes over the line (k x n), which suits the small k of DSP
// models (1..64 on long lines); the suite's largest k (3000 of 5000) takes
// 3000 passes, correct but slow (cost_model.md).
// Along the last axis a pass walks one row (128 codes per load, a
// horizontal vmax/vror reduction at the end); along an inner axis 128
// neighbouring lines are walked together, lane-wise, each with its own
// bound. Cycles: backends/dsp/cost_model.md ("TopK UINT_8").
#include <algorithm>
#include <cmath>
#include <new>
#include <vector>

#include "common/dsp_reduce.hpp"
#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "oprig/oprig_dsp.h"
#include "top_k/top_k_plan.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_top_k__dsp;

namespace {

namespace reduce = dsp_reduce;

struct TopKDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  top_k::Params params;
  top_k::Shape shape;
  reduce::KeyRule rule;
  bool prepared = false;
  reduce::RowBases bases{};
  struct alignas(OPRIG_DSP_VECTOR_BYTES) WorkVector {
    int32_t words[32];
  };
  std::vector<WorkVector> workspace;  // in index order: the winners' keys (rows: k; columns: 4 vectors per pass)
};

// In index order (sorted = false) the k winners' keys, kept in a workspace
// by the passes in rank order, become order words: (0xFFFFFF - index) << 8 |
// code, XOR the sign bit (so the signed compare orders it as unsigned); the
// greatest order below the previous one is the next index. k passes over the
// k words instead of over the line.
inline HVX_Vector order_of(HVX_Vector key, const reduce::Constants& c) {
  return Q6_V_vxor_VV(Q6_V_vor_VV(Q6_Vw_vasl_VwR(key, 8), reduce::code_of(key, c)), c.none);
}

// The halfword walk's bound (common/dsp_reduce.hpp, PlainWalk) for the pass
// after the key `prev`: in a superblock starting at vector step `start`, lane
// l holds the element of step start + c at index (start + c) * 128 + pos(l)
// (rows) or start + c (columns), as the halfword code' << 8 | 255 - c. Keys
// below prev are the codes' below prev's, and prev's code' at an index past
// prev's: in lane l the steps c >= d - start + 1, d = (index(prev) - pos(l))
// >> 7 (rows) or index(prev). So the lane's greatest allowed halfword is
// code'(prev) << 8 | (254 + start - d), the last clamped to -1..255 (-1: only
// lower codes), 0 at least (0 is "no element").
struct BoundConstants {
  HVX_Vector minus_one, last_field, bias, zero;
  BoundConstants()
      : minus_one(Q6_V_vsplat_R(-1)), last_field(Q6_V_vsplat_R(255)), bias(Q6_V_vsplat_R(0x80)), zero(Q6_V_vzero()) {}
};

struct BelowPrevious {
  const HVX_Vector* prev;       // rows: one splat; columns: one per word vector
  const HVX_Vector* positions;  // rows: each lane's position in a vector of 128; columns: nullptr
  const reduce::KeyRule* rule;
  const reduce::Constants* c;
  const BoundConstants* b;
  const HVX_Vector* operator()(size_t start, HVX_Vector out[2]) const {
    const HVX_Vector step_254 = Q6_V_vsplat_R(static_cast<int32_t>(254 + start));
    HVX_Vector hb[4];
    for (size_t j = 0; j < 4; ++j) {
      const HVX_Vector key = prev[positions != nullptr ? 0 : j];
      const HVX_Vector index = reduce::index_of(key, *rule, *c);
      const HVX_Vector d =
          positions != nullptr ? Q6_Vw_vasr_VwR(Q6_Vw_vsub_VwVw(index, positions[j]), 7) : index;
      const HVX_Vector field =
          Q6_Vw_vmin_VwVw(Q6_Vw_vmax_VwVw(Q6_Vw_vsub_VwVw(step_254, d), b->minus_one), b->last_field);
      const HVX_Vector code = Q6_V_vxor_VV(Q6_Vuw_vlsr_VuwR(key, 24), b->bias);
      hb[j] = Q6_Vw_vmax_VwVw(Q6_Vw_vadd_VwVw(Q6_Vw_vasl_VwR(code, 8), field), b->zero);
    }
    out[0] = Q6_Vuh_vpack_VwVw_sat(hb[1], hb[0]);
    out[1] = Q6_Vuh_vpack_VwVw_sat(hb[3], hb[2]);
    return out;
  }
};

struct OrderDecode {
  HVX_Vector code_mask, index_xor;
  OrderDecode() : code_mask(Q6_V_vsplat_R(0xFF)), index_xor(Q6_V_vsplat_R(0x7FFFFF)) {}
  HVX_Vector code(HVX_Vector order) const { return Q6_V_vand_VV(order, code_mask); }
  // (order >> 8) is (0xFFFFFF - index) with the sign bit moved to bit 23.
  HVX_Vector index(HVX_Vector order) const { return Q6_V_vxor_VV(Q6_Vuw_vlsr_VuwR(order, 8), index_xor); }
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<TopKDsp>(ctx, &oprig_top_k__dsp, out_kernel, [&](TopKDsp& k) {
    const std::optional<top_k::Params> p = top_k::read_params(params, num_params);
    if (!p) return OPRIG_STATUS_INVALID_ARGUMENT;
    k.params = *p;
    k.rule.smallest = !p->largest;
    k.bases.fill(k.rule);
    return OPRIG_STATUS_OK;
  });
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<TopKDsp>(kernel);
  k->prepared = false;
  if (num_inputs != 1 || num_outputs != 2 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  // Values are copied codes: the output must carry the input's quantisation.
  if (!quantised_u8(in) || !quantised_u8(outputs[0]) || outputs[0].scale != in.scale ||
      outputs[0].zero_point != in.zero_point)
    return OPRIG_STATUS_UNSUPPORTED;
  // The shared checks and output shapes, on the codes seen as the plain integers they order like.
  oprig_tensor codes = in;
  codes.dtype = OPRIG_DTYPE_INT_32;
  codes.scale = 0;
  codes.zero_point = 0;
  oprig_tensor outs[2] = {outputs[0], outputs[1]};
  outs[0].dtype = OPRIG_DTYPE_INT_32;
  outs[0].scale = 0;
  outs[0].zero_point = 0;
  if (const oprig_status s = top_k::plan_shape(k->params, &codes, 1, outs, 2, &k->shape); s != OPRIG_STATUS_OK)
    return s;
  if (k->shape.n > reduce::kMaxLine) return OPRIG_STATUS_UNSUPPORTED;
  for (int o = 0; o < 2; ++o) {
    outputs[o].rank = outs[o].rank;
    std::copy(std::begin(outs[o].dims), std::end(outs[o].dims), std::begin(outputs[o].dims));
  }
  const uint64_t words = k->shape.inner == 1 ? (k->shape.k + 31) / 32 : 4 * k->shape.k;
  if (!k->params.sorted) k->workspace.assign(words, TopKDsp::WorkVector{});
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

struct Buffers {
  const uint8_t* in;
  uint8_t* values;
  int32_t* indices;
};

void run_rows(TopKDsp& k, const Buffers& b) {
  const reduce::Constants c(k.rule);
  const OrderDecode decode;
  HVX_Vector bases[4];
  k.bases.load("the top_k key bases", bases);
  const reduce::PlainWalk walk(k.rule, c, OPRIG_DSP_VECTOR_BYTES);
  const BoundConstants bc;
  HVX_Vector positions[4];
  for (size_t j = 0; j < 4; ++j) positions[j] = reduce::index_of(bases[j], k.rule, c);
  const size_t n = k.shape.n, kk = k.shape.k;
  for (size_t o = 0; o < k.shape.outer; ++o) {
    const uint8_t* row = b.in + o * n;
    uint8_t* values = b.values + o * kk;
    int32_t* indices = b.indices + o * kk;
    HVX_Vector prev = c.none;
    for (size_t p = 0; p < kk; ++p) {
      prev = p == 0 ? reduce::row_max_plain(row, n, bases, walk)
                    : reduce::row_max_plain(row, n, bases, walk, BelowPrevious{&prev, positions, &k.rule, &c, &bc});
      if (k.params.sorted) {
        oprig_dsp_store_bytes(values + p, 1, reduce::code_of(prev, c));
        oprig_dsp_store_bytes(indices + p, sizeof(int32_t), reduce::index_of(prev, k.rule, c));
      } else {
        oprig_dsp_store_bytes(&k.workspace[p / 32].words[p % 32], sizeof(int32_t), prev);
      }
    }
    if (k.params.sorted) continue;
    HVX_Vector order = c.none;
    const size_t vectors = (kk + 31) / 32;
    for (size_t p = 0; p < kk; ++p) {
      HVX_Vector m = c.none;
      for (size_t v = 0; v < vectors; ++v) {
        HVX_Vector o = order_of(oprig_vmem_load(&k.workspace[v]), c);
        if (kk - 32 * v < 32) o = Q6_V_vmux_QVV(Q6_Q_vsetq_R(static_cast<int>(4 * (kk - 32 * v))), o, c.none);
        if (p > 0) o = Q6_V_vmux_QVV(Q6_Q_vcmp_gt_VwVw(order, o), o, c.none);
        m = Q6_Vw_vmax_VwVw(m, o);
      }
      for (int bytes = 64; bytes >= 4; bytes /= 2) m = Q6_Vw_vmax_VwVw(m, Q6_V_vror_VR(m, bytes));
      order = m;
      oprig_dsp_store_bytes(values + p, 1, decode.code(order));
      oprig_dsp_store_bytes(indices + p, sizeof(int32_t), decode.index(order));
    }
  }
}

// The answers of one pass over up to 128 lines side by side: position p of
// each line (values + p * inner + lane).
void store_columns(uint8_t* values, int32_t* indices, size_t width, const HVX_Vector codes[4],
                   const HVX_Vector index[4]) {
  oprig_dsp_store_bytes(values, width, oprig_dsp_narrow_w_ub_sat(codes));
  for (size_t j = 0; 32 * j < width; ++j)
    oprig_dsp_store_bytes(indices + 32 * j, sizeof(int32_t) * std::min<size_t>(32, width - 32 * j), index[j]);
}

void run_columns(TopKDsp& k, const Buffers& b) {
  const reduce::Constants c(k.rule);
  const OrderDecode decode;
  const HVX_Vector base = Q6_V_vsplat_R(k.rule.base(0));
  const reduce::PlainWalk walk(k.rule, c, 1);
  const BoundConstants bc;
  const size_t n = k.shape.n, inner = k.shape.inner, kk = k.shape.k;
  for (size_t o = 0; o < k.shape.outer; ++o) {
    for (size_t i = 0; i < inner; i += OPRIG_DSP_VECTOR_BYTES) {
      const size_t width = std::min<size_t>(inner - i, OPRIG_DSP_VECTOR_BYTES);
      const uint8_t* lines = b.in + o * n * inner + i;
      uint8_t* values = b.values + o * kk * inner + i;
      int32_t* indices = b.indices + o * kk * inner + i;
      HVX_Vector prev[4], codes[4], index[4];
      for (size_t p = 0; p < kk; ++p) {
        HVX_Vector m[4];
        if (p == 0)
          reduce::column_max_plain(lines, n, inner, width, base, walk, m);
        else
          reduce::column_max_plain(lines, n, inner, width, base, walk, m,
                                   BelowPrevious{prev, nullptr, &k.rule, &c, &bc});
        std::copy(m, m + 4, prev);
        if (!k.params.sorted) {
          for (size_t j = 0; j < 4; ++j) oprig_vmem_store(&k.workspace[4 * p + j], m[j]);
          continue;
        }
        for (size_t j = 0; j < 4; ++j) {
          codes[j] = reduce::code_of(m[j], c);
          index[j] = reduce::index_of(m[j], k.rule, c);
        }
        store_columns(values + p * inner, indices + p * inner, width, codes, index);
      }
      if (k.params.sorted) continue;
      HVX_Vector order[4];
      for (size_t p = 0; p < kk; ++p) {
        HVX_Vector m[4] = {c.none, c.none, c.none, c.none};
        for (size_t q = 0; q < kk; ++q)
          for (size_t j = 0; 32 * j < width; ++j) {
            HVX_Vector o = order_of(oprig_vmem_load(&k.workspace[4 * q + j]), c);
            if (p > 0) o = Q6_V_vmux_QVV(Q6_Q_vcmp_gt_VwVw(order[j], o), o, c.none);
            m[j] = Q6_Vw_vmax_VwVw(m[j], o);
          }
        std::copy(m, m + 4, order);
        for (size_t j = 0; j < 4; ++j) {
          codes[j] = decode.code(m[j]);
          index[j] = decode.index(m[j]);
        }
        store_columns(values + p * inner, indices + p * inner, width, codes, index);
      }
    }
  }
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<TopKDsp>(kernel);
  if (info != nullptr) info->dsp_cycles = 0;
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (num_inputs != 1 || num_outputs != 2 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const size_t selected = k->shape.lines() * k->shape.k;
  if (element_count(inputs[0]) != k->shape.elements() || element_count(outputs[0]) != selected ||
      element_count(outputs[1]) != selected)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (selected > 0 && (inputs[0].data == nullptr || outputs[0].data == nullptr || outputs[1].data == nullptr))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (const oprig_status s = oprig_dsp_begin(k->ctx); s != OPRIG_STATUS_OK) return s;
  if (selected > 0) {
    const Buffers b{static_cast<const uint8_t*>(inputs[0].data), static_cast<uint8_t*>(outputs[0].data),
                    static_cast<int32_t*>(outputs[1].data)};
    if (!k->workspace.empty())
      oprig_dsp_map_writable(k->workspace.data(), k->workspace.size() * sizeof(TopKDsp::WorkVector), "the top_k workspace");
    if (k->shape.inner == 1)
      run_rows(*k, b);
    else
      run_columns(*k, b);
  }
  return oprig_dsp_end(info);
}

void destroy(oprig_kernel* kernel) { delete from_handle<TopKDsp>(kernel); }

// One compare per element and pass: k passes over the line (and k over the k
// winners in index order); every code read once per pass; a code and an index
// written per selected element.
oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  const auto* k = from_handle<TopKDsp>(kernel);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const uint64_t in_order = k->params.sorted ? 0 : k->shape.lines() * k->shape.k * k->shape.k;
  out_cost->flops = k->shape.elements() * k->shape.k + in_order;
  out_cost->bytes_read = k->shape.elements() * k->shape.k + in_order * sizeof(int32_t);
  out_cost->bytes_written = k->shape.lines() * k->shape.k * (1 + sizeof(int32_t));
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_top_k__dsp = {"TopK", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
