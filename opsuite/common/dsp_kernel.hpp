// The create() every dsp kernel of the opsuite shares: the context must be the
// dsp backend's with its simulator present (else INVALID_ARGUMENT or
// UNSUPPORTED), the instance allocated without throwing, then `configure`
// reads the op's parameters into it; a status other than OK frees it again.
// Used by every opsuite/*/dsp.cpp and by dsp_byte_copy.hpp; the one-input,
// one-output execute() below by the table kernels, Pool2D, Resize, Softmax.
#pragma once

#include <cmath>
#include <cstdint>
#include <new>

#include "common/kernel.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

// Kernel: derives from KernelBase and has `const oprig_backend_context* ctx`.
// configure: oprig_status(Kernel&).
template <typename Kernel, typename Configure>
oprig_status create_dsp_kernel(const oprig_backend_context* ctx, const KernelOps* ops, oprig_kernel** out_kernel,
                               Configure&& configure) {
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_DSP) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!oprig_dsp_available(ctx)) return OPRIG_STATUS_UNSUPPORTED;
  auto* k = new (std::nothrow) Kernel;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = ops;
  k->ctx = ctx;
  if (const oprig_status st = configure(*k); st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

// A tensor the dsp computes on: UINT_8 codes with a usable scale.
inline bool quantised_u8(const oprig_tensor& t) {
  return t.dtype == OPRIG_DTYPE_UINT_8 && std::isfinite(t.scale) && t.scale > 0;
}

// The execute() of a one-input, one-output dsp kernel: both tensors of the
// sizes prepare() saw and present, then run(src, dst), the HVX program,
// between oprig_dsp_begin and oprig_dsp_end (not called without output).
template <typename Run>
oprig_status execute_dsp_unary(const oprig_backend_context* ctx, bool prepared, size_t in_elements,
                               size_t out_elements, const oprig_tensor* inputs, size_t num_inputs,
                               const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info, Run&& run) {
  if (info != nullptr) info->dsp_cycles = 0;
  if (!prepared || num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (element_count(inputs[0]) != in_elements || element_count(outputs[0]) != out_elements)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const bool work = out_elements > 0;
  if (work && (inputs[0].data == nullptr || outputs[0].data == nullptr)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (const oprig_status s = oprig_dsp_begin(ctx); s != OPRIG_STATUS_OK) return s;
  if (work) run(static_cast<const uint8_t*>(inputs[0].data), static_cast<uint8_t*>(outputs[0].data));
  return oprig_dsp_end(info);
}

}  // namespace oprig::opsuite
