// ArgMax on the dsp backend: UINT_8 codes in (the spec's DSP type), INT_32
// indices out. The order of codes is the order of the real values they
// quantise (scale > 0), so the kernel compares codes and is exact.
//
// HVX code on the simulator through oprig_dsp.h, with the walk of
// common/dsp_reduce.hpp: each code is ranked by a unique key (code in the top
// byte, the index below it arranged so that the first, or with
// select_last_index the last, of equal codes is greater), and the answer is
// the greatest key. Per 128 codes a load, one vshuff and three ALU
// operations on halfwords (code << 8 | place in a superblock of 255
// vectors), turned into word keys once per superblock. Along the last axis
// a line is a row, ending in a horizontal vmax/vror reduction; along an
// inner axis 128 neighbouring lines are reduced lane-wise, one load per
// position along the axis. Cycles: backends/dsp/cost_model.md ("ArgMax
// UINT_8").
#include <algorithm>
#include <cmath>
#include <new>

#include "argmax/argmax_plan.hpp"
#include "common/dsp_reduce.hpp"
#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_argmax__dsp;

namespace {

namespace reduce = dsp_reduce;

struct ArgMaxDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  argmax::Params params;
  argmax::Shape shape;
  reduce::KeyRule rule;
  bool prepared = false;
  reduce::RowBases bases{};
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<ArgMaxDsp>(ctx, &oprig_argmax__dsp, out_kernel, [&](ArgMaxDsp& k) {
    k.params = argmax::read_params(params, num_params);
    k.rule.prefer_last = k.params.last;
    k.bases.fill(k.rule);
    return OPRIG_STATUS_OK;
  });
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ArgMaxDsp>(kernel);
  k->prepared = false;
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_UINT_8 || !std::isfinite(in.scale) || in.scale <= 0) return OPRIG_STATUS_UNSUPPORTED;
  // The shared checks and output shape, on the codes seen as the plain integers they order like.
  oprig_tensor codes = in;
  codes.dtype = OPRIG_DTYPE_INT_32;
  codes.scale = 0;
  codes.zero_point = 0;
  if (const oprig_status s = argmax::plan_shape(k->params, &codes, 1, outputs, 1, &k->shape); s != OPRIG_STATUS_OK)
    return s;
  if (k->shape.n > reduce::kMaxLine) return OPRIG_STATUS_UNSUPPORTED;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

void run_rows(const ArgMaxDsp& k, const uint8_t* in, int32_t* out) {
  const reduce::Constants c(k.rule);
  HVX_Vector bases[4];
  k.bases.load("the argmax key bases", bases);
  const reduce::PlainWalk walk(k.rule, c, OPRIG_DSP_VECTOR_BYTES);
  const size_t n = k.shape.n;
  for (size_t o = 0; o < k.shape.outer; ++o) {
    const HVX_Vector best = reduce::row_max_plain(in + o * n, n, bases, walk);
    oprig_dsp_store_bytes(out + o, sizeof(int32_t), reduce::index_of(best, k.rule, c));
  }
}

void run_columns(const ArgMaxDsp& k, const uint8_t* in, int32_t* out) {
  const reduce::Constants c(k.rule);
  const HVX_Vector base = Q6_V_vsplat_R(k.rule.base(0));
  const reduce::PlainWalk walk(k.rule, c, 1);
  const size_t n = k.shape.n, inner = k.shape.inner;
  for (size_t o = 0; o < k.shape.outer; ++o) {
    for (size_t i = 0; i < inner; i += OPRIG_DSP_VECTOR_BYTES) {
      const size_t width = std::min<size_t>(inner - i, OPRIG_DSP_VECTOR_BYTES);
      HVX_Vector m[4];
      reduce::column_max_plain(in + o * n * inner + i, n, inner, width, base, walk, m);
      for (size_t j = 0; 32 * j < width; ++j)
        oprig_dsp_store_bytes(out + o * inner + i + 32 * j, sizeof(int32_t) * std::min<size_t>(32, width - 32 * j),
                              reduce::index_of(m[j], k.rule, c));
    }
  }
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<ArgMaxDsp>(kernel);
  if (info != nullptr) info->dsp_cycles = 0;
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const size_t elements = k->shape.elements(), lines = k->shape.lines();
  if (element_count(inputs[0]) != elements || element_count(outputs[0]) != lines) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (lines > 0 && (inputs[0].data == nullptr || outputs[0].data == nullptr)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (const oprig_status s = oprig_dsp_begin(k->ctx); s != OPRIG_STATUS_OK) return s;
  if (lines > 0) {
    const auto* in = static_cast<const uint8_t*>(inputs[0].data);
    auto* out = static_cast<int32_t*>(outputs[0].data);
    if (k->shape.inner == 1)
      run_rows(*k, in, out);
    else
      run_columns(*k, in, out);
  }
  return oprig_dsp_end(info);
}

void destroy(oprig_kernel* kernel) { delete from_handle<ArgMaxDsp>(kernel); }

// One compare per element; every code read once, one index written per line.
oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  const auto* k = from_handle<ArgMaxDsp>(kernel);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  out_cost->flops = k->shape.elements();
  out_cost->bytes_read = k->shape.elements();
  out_cost->bytes_written = k->shape.lines() * sizeof(int32_t);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_argmax__dsp = {"ArgMax", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
