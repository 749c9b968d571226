// Softmax on the dsp backend: UINT_8 in, UINT_8 out, any axis, any beta > 0,
// the way DSP kernels do it (TFLite's integer softmax is the model): per
// slice the maximum code m (vmax), then e(q) = E[m - q] from a table of
// fixed-point exponentials built at prepare in fp64,
//   E[d] = round(2^F exp(-beta s_in d)),  d = m - q in 0..255,
// (four byte tables, one per byte of the word, looked up with vlut32), their
// int32 sum S (F = 31 - bit_width(length), so S < 2^31), a fixed-point
// reciprocal of S (normalised by vcl0, three Newton-Raphson steps with
// gemmlowp's SaturatingRoundingDoublingHighMul), p = E / S in Q30 and the
// requantisation p / s_out + z_out with a quant.hpp multiplier, saturated to
// 0..255. The rule's error bound is in plan.json's UINT_8 tolerance; the
// cycles in backends/dsp/cost_model.md ("Softmax UINT_8").
//
// Along the last axis a row is streamed as vectors and the maximum and the
// sum are reduced across lanes (vror); along another axis 128 neighbouring
// slices are done side by side, one per lane, with no reduction across lanes.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

#include "common/dsp_kernel.hpp"
#include "common/dsp_lut.hpp"
#include "common/kernel.hpp"
#include "common/quant.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_softmax__dsp;

namespace {

constexpr size_t kLanes = OPRIG_DSP_VECTOR_BYTES;

struct SoftmaxDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  std::optional<int64_t> axis;  // absent: the spec's default N-1
  double beta = 1.0;
  size_t outer = 0, length = 0, inner = 0;
  bool prepared = false;
  std::array<DspLut256, 4> exp_bytes;  // byte j of E[d]
  int32_t out_multiplier = 0;           // 1 / (s_out 2^30) as TFLite's (multiplier, shift)
  int out_shift = 0;
  int32_t out_zero_point = 0;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<SoftmaxDsp>(ctx, &oprig_softmax__dsp, out_kernel, [&](SoftmaxDsp& k) {
    const std::optional<double> beta = scalar_param(params, num_params, "beta");
    if (beta && !(std::isfinite(*beta) && *beta > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;  // the spec: beta > 0
    if (const auto axis = scalar_param(params, num_params, "axis")) k.axis = static_cast<int64_t>(*axis);
    k.beta = beta.value_or(1.0);
    return OPRIG_STATUS_OK;
  });
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<SoftmaxDsp>(kernel);
  k->prepared = false;
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.rank == 0 || in.rank > OPRIG_MAX_RANK) return OPRIG_STATUS_INVALID_ARGUMENT;
  for (uint32_t d = 0; d < in.rank; ++d)
    if (in.dims[d] < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!quantised_u8(in) || !quantised_u8(out)) return OPRIG_STATUS_UNSUPPORTED;
  const int64_t rank = in.rank;
  const int64_t axis = k->axis.value_or(rank - 1);
  if (axis < -rank || axis >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto a = static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
  k->outer = k->inner = 1;
  for (uint32_t d = 0; d < a; ++d) k->outer *= static_cast<size_t>(in.dims[d]);
  for (uint32_t d = a + 1; d < in.rank; ++d) k->inner *= static_cast<size_t>(in.dims[d]);
  k->length = static_cast<size_t>(in.dims[a]);
  // The sum of a slice, at most length 2^F, stays below 2^31.
  if (k->length >= (size_t{1} << 30)) return OPRIG_STATUS_UNSUPPORTED;
  const int fraction_bits = 31 - static_cast<int>(std::bit_width(std::max<size_t>(k->length, 1)));
  for (size_t j = 0; j < 4; ++j)
    k->exp_bytes[j].fill([&](int d) {
      const double e = std::round(std::ldexp(std::exp(-k->beta * in.scale * d), fraction_bits));
      return static_cast<uint8_t>((static_cast<uint32_t>(e) >> (8 * j)) & 255u);
    });
  quant::Multiplier m;
  if (!quant::multiplier(1.0 / (static_cast<double>(out.scale) * 1073741824.0), &m)) return OPRIG_STATUS_UNSUPPORTED;
  k->out_multiplier = m.m;
  k->out_shift = m.left - m.right;
  k->out_zero_point = out.zero_point;
  out.rank = in.rank;
  std::copy(std::begin(in.dims), std::end(in.dims), std::begin(out.dims));
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

// ---- the HVX program ---------------------------------------------------------

struct Program {
  HVX_Vector table[4][2];  // the byte tables, two vectors each
  HVX_Vector zero, one, quarter, c12, c8, zero_point;
  oprig_dsp_quantized_multiplier out;
};

// E[d] for 128 differences as four word vectors in element order; lanes past
// `valid` (when below 128) are 0.
void exponentials(const Program& p, HVX_Vector d, size_t valid, HVX_Vector e[4]) {
  HVX_Vector w[4];
  for (int j = 0; j < 4; ++j) {
    HVX_Vector b = oprig_dsp_lut256(d, p.table[j][0], p.table[j][1]);
    if (valid < kLanes) b = Q6_V_vand_QV(Q6_Q_vsetq_R(static_cast<int>(valid)), b);
    oprig_dsp_widen_ub_w(b, w);
    for (int k = 0; k < 4; ++k) e[k] = j == 0 ? w[k] : Q6_V_vor_VV(e[k], Q6_Vw_vasl_VwR(w[k], 8 * j));
  }
}

// 1 / s for 0 < s < 2^31 per word: h (1/a / 4 in Q31, a = x / 2^31 in [0.5, 1)
// the normalised s = x 2^-(n-1)) and n = the leading zeros of s, so that
// e / s = srdhm(e, h) 2^(n+1) / 2^31. Newton-Raphson from 48/17 - 32/17 a
// (quartered: 12/17 - 8/17 a), three steps h += 4 h (1/4 - a h).
void reciprocal(const Program& p, HVX_Vector s, HVX_Vector* h, HVX_Vector* n) {
  *n = Q6_Vuw_vcl0_Vuw(s);
  const HVX_Vector x = Q6_Vw_vasl_VwVw(s, Q6_Vw_vsub_VwVw(*n, p.one));
  HVX_Vector r = Q6_Vw_vsub_VwVw(p.c12, oprig_dsp_srdhm_w(x, p.c8));
  for (int step = 0; step < 3; ++step) {
    const HVX_Vector error = Q6_Vw_vsub_VwVw(p.quarter, oprig_dsp_srdhm_w(x, r));
    r = Q6_Vw_vadd_VwVw(r, Q6_Vw_vasl_VwR(oprig_dsp_srdhm_w(r, error), 2));
  }
  *h = r;
}

// The output codes of 128 exponentials: p = e / s in Q30, then p / s_out + z_out saturated.
HVX_Vector codes(const Program& p, const HVX_Vector e[4], const HVX_Vector h[4], const HVX_Vector n[4]) {
  HVX_Vector w[4];
  for (int k = 0; k < 4; ++k) {
    const HVX_Vector q30 = Q6_Vw_vasl_VwVw(oprig_dsp_srdhm_w(e[k], h[k]), n[k]);
    w[k] = Q6_Vw_vadd_VwVw(oprig_dsp_apply_quantized_multiplier_w(q30, &p.out), p.zero_point);
  }
  return oprig_dsp_narrow_w_ub_sat(w);
}

// Along the last axis: one row of `length` codes.
void softmax_row(const Program& p, const uint8_t* x, uint8_t* y, size_t length) {
  HVX_Vector m = p.zero;
  for (size_t c = 0; c < length; c += kLanes) {
    HVX_Vector v = oprig_dsp_load_bytes(x + c, length - c);
    if (length - c < kLanes) v = Q6_V_vand_QV(Q6_Q_vsetq_R(static_cast<int>(length - c)), v);
    m = Q6_Vub_vmax_VubVub(m, v);
  }
  for (int shift = 64; shift >= 1; shift /= 2) m = Q6_Vub_vmax_VubVub(m, Q6_V_vror_VR(m, shift));
  HVX_Vector sum = p.zero, e[4];
  for (size_t c = 0; c < length; c += kLanes) {
    const HVX_Vector d = Q6_Vub_vsub_VubVub_sat(m, oprig_dsp_load_bytes(x + c, length - c));
    exponentials(p, d, length - c, e);
    sum = Q6_Vw_vadd_VwVw(sum, Q6_Vw_vadd_VwVw(Q6_Vw_vadd_VwVw(e[0], e[1]), Q6_Vw_vadd_VwVw(e[2], e[3])));
  }
  for (int shift = 64; shift >= 4; shift /= 2) sum = Q6_Vw_vadd_VwVw(sum, Q6_V_vror_VR(sum, shift));
  HVX_Vector h, n;
  reciprocal(p, sum, &h, &n);
  const HVX_Vector hs[4] = {h, h, h, h}, ns[4] = {n, n, n, n};
  for (size_t c = 0; c < length; c += kLanes) {
    const HVX_Vector d = Q6_Vub_vsub_VubVub_sat(m, oprig_dsp_load_bytes(x + c, length - c));
    exponentials(p, d, kLanes, e);
    oprig_dsp_store_bytes(y + c, length - c, codes(p, e, hs, ns));
  }
}

// Along another axis: `width` <= 128 neighbouring slices, one per lane, element k at x + k * stride.
void softmax_columns(const Program& p, const uint8_t* x, uint8_t* y, size_t length, size_t stride, size_t width) {
  HVX_Vector m = p.zero;
  for (size_t k = 0; k < length; ++k) m = Q6_Vub_vmax_VubVub(m, oprig_dsp_load_bytes(x + k * stride, width));
  HVX_Vector sum[4] = {p.zero, p.zero, p.zero, p.zero}, e[4];
  for (size_t k = 0; k < length; ++k) {
    exponentials(p, Q6_Vub_vsub_VubVub_sat(m, oprig_dsp_load_bytes(x + k * stride, width)), kLanes, e);
    for (int w = 0; w < 4; ++w) sum[w] = Q6_Vw_vadd_VwVw(sum[w], e[w]);
  }
  HVX_Vector h[4], n[4];
  for (int w = 0; w < 4; ++w) reciprocal(p, sum[w], &h[w], &n[w]);
  for (size_t k = 0; k < length; ++k) {
    exponentials(p, Q6_Vub_vsub_VubVub_sat(m, oprig_dsp_load_bytes(x + k * stride, width)), kLanes, e);
    oprig_dsp_store_bytes(y + k * stride, width, codes(p, e, h, n));
  }
}

void run_program(const SoftmaxDsp& k, const uint8_t* x, uint8_t* y) {
  oprig_dsp_map(k.exp_bytes.data(), sizeof k.exp_bytes, "the exponential tables");
  Program p;
  for (int j = 0; j < 4; ++j) {
    p.table[j][0] = oprig_vmem_load(k.exp_bytes[j].bytes.data());
    p.table[j][1] = oprig_vmem_load(k.exp_bytes[j].bytes.data() + kLanes);
  }
  p.zero = Q6_V_vzero();
  p.one = Q6_V_vsplat_R(1);
  p.quarter = Q6_V_vsplat_R(1 << 29);
  p.c12 = Q6_V_vsplat_R(1515870810);  // 12/17 2^31
  p.c8 = Q6_V_vsplat_R(1010580540);   // 8/17 2^31
  p.zero_point = Q6_V_vsplat_R(k.out_zero_point);
  p.out = oprig_dsp_make_quantized_multiplier(k.out_multiplier, k.out_shift);
  const size_t slice = k.length * k.inner;
  for (size_t o = 0; o < k.outer; ++o) {
    if (k.inner == 1) {
      softmax_row(p, x + o * slice, y + o * slice, k.length);
      continue;
    }
    for (size_t i = 0; i < k.inner; i += kLanes)
      softmax_columns(p, x + o * slice + i, y + o * slice + i, k.length, k.inner, std::min(kLanes, k.inner - i));
  }
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<SoftmaxDsp>(kernel);
  return execute_dsp_unary(k->ctx, k->prepared, k->outer * k->length * k->inner, k->outer * k->length * k->inner, inputs, num_inputs, outputs, num_outputs, info,
                           [&](const uint8_t* src, uint8_t* dst) { run_program(*k, src, dst); });
}

void destroy(oprig_kernel* kernel) { delete from_handle<SoftmaxDsp>(kernel); }

// Integer work only: flops 0. Bytes: the input twice (max, then sum; the
// third pass rereads it), the tables and the output.
oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  const auto* k = from_handle<SoftmaxDsp>(kernel);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const size_t n = k->outer * k->length * k->inner;
  out_cost->flops = 0;
  out_cost->bytes_read = 3 * n + sizeof k->exp_bytes;
  out_cost->bytes_written = n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_softmax__dsp = {"Softmax", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
