// A CopyBlock (strided_copy.hpp) as the opencl and vulkan block copies run
// it, one launch a block. The block is cut into units of `width` bytes, the
// widest of 16, 8, 4, 2, 1 that divides its row length and every offset and
// stride, so that no unit straddles two rows and every load and store is
// aligned to its width (16-byte ones for fp32 rows of 4 elements and more);
// units are numbered row by row and each work-item copies one: it finds its
// row and column, and the row's outer and inner index, by two fast
// divisions (fast_divide.hpp), the offsets in units from the strides.
// Vulkan, whose buffers are 32-bit words, copies a block narrower than a word
// a destination word per invocation instead (`word_slots`): the slots of a
// row are the words its bytes may touch ((bytes + 6) / 4 of them), offsets
// are in bytes, and an invocation writes the bytes of its row in its word
// (glsl/strided_copy.glsl). Geometry is the kernels' argument (OpenCL) and
// push constants (Vulkan), 64 bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "common/fast_divide.hpp"
#include "common/strided_copy.hpp"

namespace oprig::opsuite {

struct CopyGeometry {  // opencl/strided_copy.cl's oprig_copy_geometry, glsl/strided_copy.glsl's push constants
  uint32_t units = 0;          // work-items
  FastDivisor per_row, inner;  // units (or word slots) a row; rows an outer index
  uint32_t row_bytes = 0;      // word slots only: the row's length in bytes
  uint32_t src_offset = 0, src_inner = 0, src_outer = 0;  // in units
  uint32_t dst_offset = 0, dst_inner = 0, dst_outer = 0;
};
static_assert(sizeof(CopyGeometry) == 64);

struct DeviceCopy {
  uint32_t width = 1;  // bytes a unit; word slots: 1 (offsets in bytes)
  bool word_slots = false;
  CopyGeometry geometry;
};

// The launch of `b` with units of at most `widest` bytes; nullopt where an
// offset or the count of units does not fit the kernels' 32 bits.
inline std::optional<DeviceCopy> device_copy(const CopyBlock& b, uint32_t widest, bool word_slots_below_4) {
  const size_t outer = b.rows / b.inner;
  size_t aligned = b.bytes | b.src_offset | b.dst_offset;
  if (b.inner > 1) aligned |= b.src_inner | b.dst_inner;
  if (outer > 1) aligned |= b.src_outer | b.dst_outer;
  DeviceCopy c;
  c.width = widest;
  while (aligned % c.width != 0) c.width /= 2;
  c.word_slots = word_slots_below_4 && c.width < 4;
  if (c.word_slots) c.width = 1;
  const size_t per_row = c.word_slots ? (b.bytes + 6) / 4 : b.bytes / c.width;
  // The last byte either side, plus a word for word slots' rounding.
  const size_t src_end = b.src_offset + (outer - 1) * b.src_outer + (b.inner - 1) * b.src_inner + b.bytes + 4;
  const size_t dst_end = b.dst_offset + (outer - 1) * b.dst_outer + (b.inner - 1) * b.dst_inner + b.bytes + 4;
  const size_t limit = size_t{UINT32_MAX} * c.width;
  // Units below 2^31: a grid-stride loop adds the grid to an index below them.
  if (b.rows * per_row > (size_t{1} << 31) || src_end > limit || dst_end > limit) return std::nullopt;
  CopyGeometry& g = c.geometry;
  const auto units = [&](size_t bytes) { return static_cast<uint32_t>(bytes / c.width); };
  g.units = static_cast<uint32_t>(b.rows * per_row);
  g.per_row = fast_divisor(static_cast<uint32_t>(per_row));
  g.inner = fast_divisor(static_cast<uint32_t>(b.inner));
  g.row_bytes = c.word_slots ? static_cast<uint32_t>(b.bytes) : 0;
  g.src_offset = units(b.src_offset);
  g.src_inner = units(b.src_inner);
  g.src_outer = units(b.src_outer);
  g.dst_offset = units(b.dst_offset);
  g.dst_inner = units(b.dst_inner);
  g.dst_outer = units(b.dst_outer);
  return c;
}

}  // namespace oprig::opsuite
