// ElementwiseBinary on the dsp backend: INT_32 ADD, SUB (wrap-around), MUL
// (the low 32 bits of the product), MAX and MIN, as HVX code on the
// simulator through oprig_dsp.h, 32 lanes per 128-byte vector. Broadcasting where one row covers
// the output (equal shapes, or one side repeating a single value, which is
// loaded once and splatted); other broadcasts, DIV and POW (no vector divide
// on HVX) and the quantised UINT_8 of the spec's DSP list are UNSUPPORTED.
// A fused activation clamps with vmax / vmin against splatted bounds.
// Cost: per output vector one load per non-repeating input, one vadd / vsub /
// vmax / vmin (VA) or, for MUL, vmpyieo + vmpyie (VX + VX_DV), one or two VA
// for the activation and one store, plus the program overhead
// (backends/dsp/cost_model.md).
#include <algorithm>
#include <cstring>
#include <new>

#include "common/broadcast.hpp"
#include "common/kernel.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_elementwise_binary__dsp;

namespace {

enum Op { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow };

struct BinaryDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  int op = kAdd;
  int act = 0;  // fused_activation: NONE, RELU, RELU1, RELU6
  bool prepared = false;
  size_t count = 0;
  bool a_repeats = false, b_repeats = false;  // the input is one value for the whole output
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_DSP) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!oprig_dsp_available(ctx)) return OPRIG_STATUS_UNSUPPORTED;
  const std::optional<int> op =
      enum_param(params, num_params, "operation", {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW"});
  if (!op || *op < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> act = enum_param(params, num_params, "fused_activation", {"NONE", "RELU", "RELU1", "RELU6"});
  if (act && *act < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> division = enum_param(params, num_params, "integer_division", {"TRUNCATE", "FLOOR"});
  if (division && *division < 0) return OPRIG_STATUS_INVALID_ARGUMENT;  // DIV itself is UNSUPPORTED here
  auto* k = new (std::nothrow) BinaryDsp;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_elementwise_binary__dsp;
  k->ctx = ctx;
  k->op = *op;
  k->act = act.value_or(0);
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<BinaryDsp>(handle);
  k->prepared = false;
  if (inputs[0].dtype != OPRIG_DTYPE_INT_32 || inputs[0].scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (inputs[1].dtype != OPRIG_DTYPE_INT_32 || outputs[0].dtype != OPRIG_DTYPE_INT_32)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (inputs[1].scale != 0 || outputs[0].scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (k->op == kDiv || k->op == kPow) return OPRIG_STATUS_UNSUPPORTED;
  BroadcastPlan plan;
  if (!plan_broadcast(inputs[0], inputs[1], &plan)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (plan.merged != 1 && plan.count != 0) return OPRIG_STATUS_UNSUPPORTED;  // not one row: a strided broadcast
  k->count = plan.count;
  k->a_repeats = plan.a_step() == 0 && plan.count > 1;
  k->b_repeats = plan.b_step() == 0 && plan.count > 1;
  outputs[0].rank = plan.rank;
  std::copy(plan.out_dims, plan.out_dims + OPRIG_MAX_RANK, outputs[0].dims);
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

HVX_Vector apply(int op, HVX_Vector a, HVX_Vector b) {
  switch (op) {
    case kAdd: return Q6_Vw_vadd_VwVw(a, b);
    case kSub: return Q6_Vw_vsub_VwVw(a, b);
    case kMul: return oprig_dsp_mul_lo_w(a, b);
    case kMax: return Q6_Vw_vmax_VwVw(a, b);
    default: return Q6_Vw_vmin_VwVw(a, b);
  }
}

// An input as the program sees it: streamed vector by vector, or one value
// splatted once (a scalar load into a register, then vsplat).
HVX_Vector operand(const uint8_t* base, bool repeats, size_t offset, size_t bytes, HVX_Vector splat) {
  return repeats ? splat : oprig_dsp_load_bytes(base + offset, bytes - offset);
}

HVX_Vector splat_first_word(const uint8_t* base) {
  int32_t value = 0;
  std::memcpy(&value, base, sizeof value);
  return Q6_V_vsplat_R(value);
}

void run_program(const BinaryDsp& k, const uint8_t* a, const uint8_t* b, uint8_t* y) {
  const size_t bytes = k.count * sizeof(int32_t);
  // Only the vectors the program uses are made (each is an instruction).
  const HVX_Vector splat_a = k.a_repeats ? splat_first_word(a) : HVX_Vector{};
  const HVX_Vector splat_b = k.b_repeats ? splat_first_word(b) : HVX_Vector{};
  const HVX_Vector lo = k.act != 0 ? Q6_V_vsplat_R(k.act == 2 ? -1 : 0) : HVX_Vector{};
  const HVX_Vector hi = k.act >= 2 ? Q6_V_vsplat_R(k.act == 2 ? 1 : 6) : HVX_Vector{};
  for (size_t offset = 0; offset < bytes; offset += OPRIG_DSP_VECTOR_BYTES) {
    HVX_Vector r = apply(k.op, operand(a, k.a_repeats, offset, bytes, splat_a), operand(b, k.b_repeats, offset, bytes, splat_b));
    if (k.act != 0) r = Q6_Vw_vmax_VwVw(r, lo);
    if (k.act >= 2) r = Q6_Vw_vmin_VwVw(r, hi);
    oprig_dsp_store_bytes(y + offset, bytes - offset, r);
  }
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info != nullptr) info->dsp_cycles = 0;
  auto* k = from_handle<BinaryDsp>(handle);
  if (!k->prepared || num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr ||
      info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->count == 0) return OPRIG_STATUS_OK;
  if (inputs[0].data == nullptr || inputs[1].data == nullptr || outputs[0].data == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (const oprig_status s = oprig_dsp_begin(k->ctx); s != OPRIG_STATUS_OK) return s;
  run_program(*k, static_cast<const uint8_t*>(inputs[0].data), static_cast<const uint8_t*>(inputs[1].data),
              static_cast<uint8_t*>(outputs[0].data));
  return oprig_dsp_end(info);
}

void destroy(oprig_kernel* handle) { delete from_handle<BinaryDsp>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const BinaryDsp>(handle);
  *out = {k->count, 8 * k->count, 4 * k->count};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_elementwise_binary__dsp = {"ElementwiseBinary", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
