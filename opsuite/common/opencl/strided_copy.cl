// The block copy of the ops that only move bytes (Concat, Split, Crop; host
// side: common/strided_copy_kernel.hpp, geometry: common/device_copy.hpp):
// work-item u copies unit u of a block, one load and one store of T (uint4
// where the block is 16-byte aligned, down to uchar), at offsets in units
// found from its row (u / units a row) and the row's outer and inner index
// (row / rows an outer index) by fast divisions. Kernels here would be built
// into every op's program, so an op instantiates them in its own opencl.cl
// with OPRIG_STRIDED_COPY_KERNELS.
typedef struct {
  uint units;
  oprig_divisor per_row, inner;
  uint row_bytes;  // unused here (Vulkan's word slots)
  uint src_offset, src_inner, src_outer;
  uint dst_offset, dst_inner, dst_outer;
} oprig_copy_geometry;

// Unit u's offsets in units: (source, destination).
inline uint2 oprig_copy_offsets(const uint u, const oprig_copy_geometry g) {
  const uint row = oprig_divide(u, g.per_row), column = u - row * g.per_row.divisor;
  const uint outer = oprig_divide(row, g.inner), inner = row - outer * g.inner.divisor;
  return (uint2)(g.src_offset + outer * g.src_outer + inner * g.src_inner + column,
                 g.dst_offset + outer * g.dst_outer + inner * g.dst_inner + column);
}

#define OPRIG_COPY_KERNEL(name, T)                                                                  \
  kernel void name(global T* restrict dst, global const T* restrict src, const oprig_copy_geometry g) { \
    const size_t u = get_global_id(0);                                                              \
    if (u >= g.units) return;                                                                       \
    const uint2 at = oprig_copy_offsets((uint)u, g);                                                \
    dst[at.s1] = src[at.s0];                                                                        \
  }

#define OPRIG_STRIDED_COPY_KERNELS          \
  OPRIG_COPY_KERNEL(oprig_copy_16, uint4)   \
  OPRIG_COPY_KERNEL(oprig_copy_8, uint2)    \
  OPRIG_COPY_KERNEL(oprig_copy_4, uint)     \
  OPRIG_COPY_KERNEL(oprig_copy_2, ushort)   \
  OPRIG_COPY_KERNEL(oprig_copy_1, uchar)
