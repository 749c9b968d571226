// Resize for the opencl backend, NHWC: one work-item per output pixel and a
// vector of its channels, so a work-group reads and writes whole runs of
// memory. The input rows and columns each output row and column reads, and
// BILINEAR's weights, come from the table prepare() computed on the host
// exactly as the cpu kernel does (resize/resampling.hpp): one 16-byte entry
// {first, second, weight bits, rest bits} per output row, then per output
// column. Neighbouring output pixels share input pixels through the caches:
// one pass over memory.
//
// NEAREST copies bits (denormals and NaN payloads as they are), B bytes a
// work-item (B = 16, 8, 4 or 2: the widest dividing a pixel's bytes).
// BILINEAR computes the spec's expression in the cpu kernel's order, without
// contraction into fused multiply-adds: v = rest_y * a + weight_y * c down the
// left and the right column, then rest_x * v_left + weight_x * v_right; in
// fp32 for FLOAT_32 and for FLOAT_16 (widened exactly, rounded back once), so
// the results are the cpu's bit for bit.
//
// The geometry as an int8: s0 height, s1 width, s2 channels, s3 out_height,
// s4 out_width, s5 groups (work-items per output pixel); `total` work-items
// (pixels * groups); every offset fits 32 bits (the host checks).

#pragma OPENCL FP_CONTRACT OFF

// Output pixel `pixel` (over batch, out_height, out_width): its table
// entries and the element offset of its image's first input pixel.
typedef struct {
  uint4 row, column;
  uint image;
} ResizeSource;

inline ResizeSource resize_source(const uint pixel, global const uint4* table, const int8 g) {
  const uint out_w = (uint)g.s4, out_h = (uint)g.s3;
  const uint ox = pixel % out_w, rest = pixel / out_w;
  const uint oy = rest % out_h, n = rest / out_h;
  ResizeSource s;
  s.row = table[oy];
  s.column = table[out_h + ox];
  s.image = n * (uint)g.s0 * (uint)g.s1;  // in pixels
  return s;
}

#define RESIZE_NEAREST_KERNEL(T, B)                                                                       \
  kernel void resize_nearest_##B(global const T* x, global T* y, global const uint4* table, const int8 g, \
                                 const uint total) {                                                      \
    const uint i = get_global_id(0);                                                                      \
    if (i >= total) return;                                                                               \
    const uint groups = (uint)g.s5, group = i % groups;                                                   \
    const ResizeSource s = resize_source(i / groups, table, g);                                           \
    y[i] = x[(s.image + s.row.x * (uint)g.s1 + s.column.x) * groups + group];                             \
  }

RESIZE_NEAREST_KERNEL(uint4, 16)
RESIZE_NEAREST_KERNEL(uint2, 8)
RESIZE_NEAREST_KERNEL(uint, 4)
RESIZE_NEAREST_KERNEL(ushort, 2)

#define RESIZE_BILINEAR_KERNEL(TYPE, T, SUFFIX, V)                                                          \
  kernel void resize_bilinear_##SUFFIX##_##V(global const T* x, global T* y, global const uint4* table,     \
                                             const int8 g, const uint total) {                              \
    const uint i = get_global_id(0);                                                                        \
    if (i >= total) return;                                                                                 \
    const uint groups = (uint)g.s5, width = (uint)g.s1, channels = (uint)g.s2;                              \
    const ResizeSource s = resize_source(i / groups, table, g);                                             \
    const uint top = (s.image + s.row.x * width) * channels + (i % groups) * V;                             \
    const uint bottom = (s.image + s.row.y * width) * channels + (i % groups) * V;                          \
    const uint left = s.column.x * channels, right = s.column.y * channels;                                 \
    const float wy = as_float(s.row.z), ry = as_float(s.row.w);                                             \
    const float wx = as_float(s.column.z), rx = as_float(s.column.w);                                       \
    const oprig_float##V v_left =                                                                           \
        ry * OPRIG_LOAD_##TYPE##_##V(x, top + left) + wy * OPRIG_LOAD_##TYPE##_##V(x, bottom + left);       \
    const oprig_float##V v_right =                                                                          \
        ry * OPRIG_LOAD_##TYPE##_##V(x, top + right) + wy * OPRIG_LOAD_##TYPE##_##V(x, bottom + right);     \
    OPRIG_STORE_##TYPE##_##V(rx * v_left + wx * v_right, y, i * V);                                         \
  }

RESIZE_BILINEAR_KERNEL(F32, float, f32, 1)
RESIZE_BILINEAR_KERNEL(F32, float, f32, 2)
RESIZE_BILINEAR_KERNEL(F32, float, f32, 4)
RESIZE_BILINEAR_KERNEL(F16, half, f16, 1)
RESIZE_BILINEAR_KERNEL(F16, half, f16, 2)
RESIZE_BILINEAR_KERNEL(F16, half, f16, 4)
RESIZE_BILINEAR_KERNEL(F16, half, f16, 8)
