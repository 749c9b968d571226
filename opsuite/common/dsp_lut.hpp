// A 256-entry byte lookup table as a dsp kernel: the UINT_8 -> UINT_8 map of
// an elementwise op, built on the host at prepare (in fp64, by the op's own
// rule) and applied on the simulator at execute with vlut32
// (oprig_dsp_lut256). Used by opsuite/atan/dsp.cpp and
// opsuite/activation/dsp.cpp; its cycles are derived in
// backends/dsp/cost_model.md ("Atan UINT_8"). Compiled in dsp libraries only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

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

}  // namespace oprig::opsuite
