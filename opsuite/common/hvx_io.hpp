// Vector loads and stores of a tensor's bytes for dsp kernels on the HVX
// simulator, safe at the tensor's end: a load never touches a 128-byte line
// holding none of the tensor (that can fault on hardware, and does in the
// simulator), and the last partial vector is stored under a predicate.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hvx_sim/core.hpp"

namespace oprig::opsuite::hvx_io {

// The vector of bytes [offset, min(offset + 128, size)) of a tensor of `size`
// bytes at `base`; bytes past the tensor are unspecified.
inline hvx::Vec load(hvx::Core& core, const uint8_t* base, size_t offset, size_t size) {
  const auto line_of = [](uintptr_t a) { return a & ~uintptr_t{hvx::kVectorBytes - 1}; };
  const auto start = reinterpret_cast<uintptr_t>(base + offset);
  const auto last = reinterpret_cast<uintptr_t>(base + size - 1);
  if (line_of(start + hvx::kVectorBytes - 1) <= line_of(last)) return core.vmemu(base + offset);
  return core.vror(core.vmem(base + offset), start % hvx::kVectorBytes);
}

// Stores bytes [offset, min(offset + 128, size)) of a tensor of `size` bytes.
inline void store(hvx::Core& core, uint8_t* base, size_t offset, size_t size, const hvx::Vec& v) {
  const size_t n = size - offset;
  if (n >= hvx::kVectorBytes) return core.vmemu_store(base + offset, v);
  core.vmemu_store_if(core.setq(n), base + offset, v);
}

}  // namespace oprig::opsuite::hvx_io
