// The create() every dsp kernel of the opsuite shares: the context must be the
// dsp backend's with its simulator present (else INVALID_ARGUMENT or
// UNSUPPORTED), the instance allocated without throwing, then `configure`
// reads the op's parameters into it; a status other than OK frees it again.
// Used by every opsuite/*/dsp.cpp and by dsp_byte_copy.hpp.
#pragma once

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

}  // namespace oprig::opsuite
