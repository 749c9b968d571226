// ElementwiseBinary on the dsp backend: INT_32 ADD, SUB (wrap-around), MUL
// (the low 32 bits of the product), MAX and MIN, as HVX programs on the
// simulator, 32 lanes per 128-byte vector. Broadcasting where one row covers
// the output (equal shapes, or one side repeating a single value, which is
// loaded once and splatted); other broadcasts, DIV and POW (no vector divide
// on HVX) and the quantised UINT_8 of the spec's DSP list are UNSUPPORTED.
// A fused activation clamps with max_w / min_w against splatted bounds.
// Cost: per output vector one load per non-repeating input, one ALU op (two
// dependent MULTIPLY ops for MUL), one or two ALU ops for the activation and
// one store, plus the program overhead (backends/dsp/cost_model.md).
#include <algorithm>
#include <cstring>
#include <new>

#include "common/broadcast.hpp"
#include "common/hvx_io.hpp"
#include "common/kernel.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_elementwise_binary__dsp;

namespace {

enum Op { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow };

struct BinaryDsp : KernelBase {
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

hvx::Vec apply(hvx::Core& core, int op, const hvx::Vec& a, const hvx::Vec& b) {
  switch (op) {
    case kAdd: return core.add_w(a, b);
    case kSub: return core.sub_w(a, b);
    case kMul: return core.mpyi_w(a, b);
    case kMax: return core.max_w(a, b);
    default: return core.min_w(a, b);
  }
}

// An input as the program sees it: streamed vector by vector, or one value
// splatted once (a scalar load into a register, then vsplat).
hvx::Vec operand(hvx::Core& core, const uint8_t* base, bool repeats, size_t offset, size_t bytes,
                 const hvx::Vec* splat) {
  return repeats ? *splat : hvx_io::load(core, base, offset, bytes);
}

void run_program(hvx::Core& core, const BinaryDsp& k, const uint8_t* a, const uint8_t* b, uint8_t* y) {
  const size_t bytes = k.count * sizeof(int32_t);
  core.map_readable(a, k.a_repeats ? sizeof(int32_t) : bytes);
  core.map_readable(b, k.b_repeats ? sizeof(int32_t) : bytes);
  core.map_writable(y, bytes);
  int32_t scalar = 0;
  hvx::Vec splat_a, splat_b;
  if (k.a_repeats) {
    std::memcpy(&scalar, a, sizeof scalar);
    splat_a = core.splat_w(scalar);
  }
  if (k.b_repeats) {
    std::memcpy(&scalar, b, sizeof scalar);
    splat_b = core.splat_w(scalar);
  }
  hvx::Vec lo, hi;
  if (k.act != 0) lo = core.splat_w(k.act == 2 ? -1 : 0);
  if (k.act >= 2) hi = core.splat_w(k.act == 2 ? 1 : 6);
  for (size_t offset = 0; offset < bytes; offset += hvx::kVectorBytes) {
    const hvx::Vec va = operand(core, a, k.a_repeats, offset, bytes, &splat_a);
    const hvx::Vec vb = operand(core, b, k.b_repeats, offset, bytes, &splat_b);
    hvx::Vec r = apply(core, k.op, va, vb);
    if (k.act != 0) r = core.max_w(r, lo);
    if (k.act >= 2) r = core.min_w(r, hi);
    hvx_io::store(core, y, offset, bytes, r);
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
  try {
    hvx::Core core;  // one per execute: no state shared between instances
    run_program(core, *k, static_cast<const uint8_t*>(inputs[0].data), static_cast<const uint8_t*>(inputs[1].data),
                static_cast<uint8_t*>(outputs[0].data));
    info->dsp_cycles = core.cycles();
    return OPRIG_STATUS_OK;
  } catch (const hvx::Fault&) {
    return OPRIG_STATUS_BACKEND_ERROR;
  }
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
