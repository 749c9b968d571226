// Atan on the dsp backend: UINT_8 in, UINT_8 out, as a 256-entry lookup
// table. prepare() builds the table on the host in fp64 (what real DSP UDO
// kernels do at prepare time); execute() runs an HVX program on the
// simulator: vector loads, eight vlut32 lookups per vector, stores, and a
// predicated store for the tail. Its cycle count is derived in
// backends/dsp/cost_model.md ("Atan UINT_8").
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <exception>
#include <new>

#include "common/kernel.hpp"
#include "hvx_sim/core.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_atan__dsp;

namespace {

struct AtanDsp : KernelBase {
  double offset = 0;
  size_t elements = 0;
  bool prepared = false;
  // Two vector registers' worth: entries 0..127 then 128..255.
  alignas(hvx::kVectorBytes) std::array<uint8_t, 256> table{};
};

// q_out = clamp(round_half_away(atan(s_in*(q - z_in) + offset) / s_out) + z_out, 0, 255)
uint8_t quantised_atan(int q, double s_in, int32_t z_in, double offset, double s_out,
                       int32_t z_out) {
  const double y = std::atan(s_in * (q - z_in) + offset) / s_out;
  const double code = std::round(y) + z_out;  // std::round: halves away from zero
  return static_cast<uint8_t>(std::clamp(code, 0.0, 255.0));
}

bool quantised_u8(const oprig_tensor& t) {
  return t.dtype == OPRIG_DTYPE_UINT_8 && std::isfinite(t.scale) && t.scale > 0;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_DSP) return OPRIG_STATUS_INVALID_ARGUMENT;
  const double offset = scalar_param(params, num_params, "offset").value_or(0.0);
  if (std::isnan(offset)) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) AtanDsp;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_atan__dsp;
  k->offset = offset;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     oprig_tensor* outputs, size_t num_outputs) {
  auto* k = from_handle<AtanDsp>(kernel);
  k->prepared = false;
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.rank > OPRIG_MAX_RANK) return OPRIG_STATUS_INVALID_ARGUMENT;
  for (uint32_t d = 0; d < in.rank; ++d)
    if (in.dims[d] < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!quantised_u8(in) || !quantised_u8(out)) return OPRIG_STATUS_UNSUPPORTED;

  out.rank = in.rank;
  std::copy(std::begin(in.dims), std::end(in.dims), std::begin(out.dims));
  for (int q = 0; q < 256; ++q)
    k->table[static_cast<size_t>(q)] =
        quantised_atan(q, in.scale, in.zero_point, k->offset, out.scale, out.zero_point);
  k->elements = element_count(in);
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

// y = table[x] for one vector: eight 32-entry lookups or-ed together.
hvx::Vec lookup256(hvx::Core& core, const hvx::Vec& x, const hvx::Vec& low, const hvx::Vec& high) {
  hvx::Vec y = core.lut32(x, low, 0);
  for (uint32_t segment = 1; segment < 8; ++segment)
    y = core.lut32_or(y, x, segment < 4 ? low : high, segment);
  return y;
}

// Loads the vector of elements [i, min(i + 128, n)). A vmemu that would run
// into a line holding none of the tensor could fault on hardware (and does in
// the simulator), so such a last vector is read as its aligned line and
// rotated into place instead.
hvx::Vec load_vector(hvx::Core& core, const uint8_t* src, size_t i, size_t n) {
  const auto line_of = [](uintptr_t a) { return a & ~uintptr_t{hvx::kVectorBytes - 1}; };
  const auto start = reinterpret_cast<uintptr_t>(src + i);
  const auto last = reinterpret_cast<uintptr_t>(src + n - 1);
  if (line_of(start + hvx::kVectorBytes - 1) <= line_of(last)) return core.vmemu(src + i);
  return core.vror(core.vmem(src + i), start % hvx::kVectorBytes);
}

// The HVX program. Software-pipelined: the load of vector b+1 is issued
// before the lookups of vector b, so it hides behind them.
void run_program(hvx::Core& core, const uint8_t* src, uint8_t* dst, size_t n,
                 const std::array<uint8_t, 256>& table) {
  if (n == 0) return;
  core.map_readable(src, n);
  core.map_writable(dst, n);
  core.map_readable(table.data(), table.size());

  const size_t vectors = (n + hvx::kVectorBytes - 1) / hvx::kVectorBytes;
  const size_t tail = n % hvx::kVectorBytes;  // 0: the last vector is full
  const hvx::Vec low = core.vmem(table.data());
  const hvx::Vec high = core.vmem(table.data() + hvx::kVectorBytes);
  hvx::Pred tail_mask;
  if (tail != 0) tail_mask = core.setq(tail);

  hvx::Vec x = load_vector(core, src, 0, n);
  for (size_t b = 0; b < vectors; ++b) {
    hvx::Vec next;
    if (b + 1 < vectors) next = load_vector(core, src, (b + 1) * hvx::kVectorBytes, n);
    const hvx::Vec y = lookup256(core, x, low, high);
    uint8_t* out = dst + b * hvx::kVectorBytes;
    if (b + 1 == vectors && tail != 0)
      core.vmemu_store_if(tail_mask, out, y);
    else
      core.vmemu_store(out, y);
    x = next;
  }
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<AtanDsp>(kernel);
  if (info != nullptr) info->dsp_cycles = 0;
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr ||
      info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const size_t n = k->elements;
  if (element_count(inputs[0]) != n || element_count(outputs[0]) != n)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (n > 0 && (inputs[0].data == nullptr || outputs[0].data == nullptr))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  try {
    hvx::Core core;  // one per execute: no state shared between instances
    run_program(core, static_cast<const uint8_t*>(inputs[0].data),
                static_cast<uint8_t*>(outputs[0].data), n, k->table);
    info->dsp_cycles = core.cycles();
    return OPRIG_STATUS_OK;
  } catch (const hvx::Fault&) {
    return OPRIG_STATUS_BACKEND_ERROR;
  } catch (const std::bad_alloc&) {
    return OPRIG_STATUS_OUT_OF_MEMORY;
  } catch (const std::exception&) {
    return OPRIG_STATUS_INTERNAL;
  }
}

void destroy(oprig_kernel* kernel) { delete from_handle<AtanDsp>(kernel); }

// A table lookup does no floating-point arithmetic at execute: flops 0. Bytes:
// the input, the 256-byte table (read every execute) and the output.
oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  const auto* k = from_handle<AtanDsp>(kernel);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  out_cost->flops = 0;
  out_cost->bytes_read = k->elements + k->table.size();
  out_cost->bytes_written = k->elements;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_atan__dsp = {"Atan", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
