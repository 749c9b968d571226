// A 256-entry byte lookup table as a dsp kernel: the UINT_8 -> UINT_8 map of
// an elementwise op, built on the host at prepare (in fp64, by the op's own
// rule) and applied on the simulator at execute with vlut32
// (oprig_dsp_lut256). Used by opsuite/atan/dsp.cpp and
// opsuite/activation/dsp.cpp; its cycles are derived in
// backends/dsp/cost_model.md ("Atan UINT_8"). Compiled in dsp libraries only.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

// Entries 0..255 laid out for vlut32 (oprig_dsp_lut256_position): two vectors.
struct alignas(OPRIG_DSP_VECTOR_BYTES) DspLut256 {
  std::array<uint8_t, 256> bytes{};

  // Fills the table with code(q) for every input code q (a callable int -> uint8_t).
  template <typename Code>
  void fill(Code code) {
    for (size_t q = 0; q < 256; ++q) bytes[oprig_dsp_lut256_position(q)] = code(static_cast<int>(q));
  }
};

// The HVX program: the table as two vector loads, then per 128 elements a
// load, the lookups and a store (the last, partial vector through predicated
// stores). Between oprig_dsp_begin and oprig_dsp_end; n > 0.
inline void run_dsp_lut256(const uint8_t* src, uint8_t* dst, size_t n, const DspLut256& table,
                           const char* table_name) {
  oprig_dsp_map(table.bytes.data(), table.bytes.size(), table_name);
  const HVX_Vector low = oprig_vmem_load(table.bytes.data());
  const HVX_Vector high = oprig_vmem_load(table.bytes.data() + OPRIG_DSP_VECTOR_BYTES);
  for (size_t i = 0; i < n; i += OPRIG_DSP_VECTOR_BYTES)
    oprig_dsp_store_bytes(dst + i, n - i, oprig_dsp_lut256(oprig_dsp_load_bytes(src + i, n - i), low, high));
}

// A whole elementwise table kernel (Atan, Activation): the op's struct
// derives from DspLutKernel and keeps only its parameters; prepare, execute
// and cost below are the op's, given the rule that fills the table.
struct DspLutKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  size_t elements = 0;
  bool prepared = false;
  DspLut256 table;
};

// One UINT_8 input, one UINT_8 output of its shape, both quantised.
// code(q, in, out) -> uint8_t: the output code of input code q.
template <typename Code>
oprig_status prepare_dsp_lut(DspLutKernel& k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                             size_t num_outputs, Code code) {
  k.prepared = false;
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
  k.table.fill([&](int q) { return code(q, in, out); });
  k.elements = element_count(in);
  k.prepared = true;
  return OPRIG_STATUS_OK;
}

inline oprig_status execute_dsp_lut(DspLutKernel& k, const oprig_tensor* inputs, size_t num_inputs,
                                    const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info,
                                    const char* table_name) {
  return execute_dsp_unary(k.ctx, k.prepared, k.elements, k.elements, inputs, num_inputs, outputs, num_outputs, info,
                           [&](const uint8_t* src, uint8_t* dst) { run_dsp_lut256(src, dst, k.elements, k.table, table_name); });
}

// A table lookup does no floating-point arithmetic at execute: flops 0. Bytes:
// the input, the 256-byte table (read every execute) and the output.
inline oprig_status dsp_lut_cost(const DspLutKernel& k, oprig_cost* out_cost) {
  if (!k.prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  out_cost->flops = 0;
  out_cost->bytes_read = k.elements + k.table.bytes.size();
  out_cost->bytes_written = k.elements;
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite
