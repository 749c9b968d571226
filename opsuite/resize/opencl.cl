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
// Over the grid of common/opencl/pixel_grid.cl; the geometry as an int8: s0
// height, s1 width, s2 channels, s3 out_height, s4 out_width (s5-s7 unused).
// Every offset fits 32 bits (the host checks).

#pragma OPENCL FP_CONTRACT OFF

// Output pixel (n, oy, ox) with oy, n from the grid of
// common/opencl/pixel_grid.cl: its table entries and the offsets, in pixels,
// of its image's first input pixel and of itself.
typedef struct {
  uint4 row, column;
  uint image, pixel;
} ResizeSource;

inline ResizeSource resize_source(const uint ox, global const uint4* restrict table, const int8 g) {
  const uint oy = get_global_id(1), n = get_global_id(2);
  ResizeSource s;
  s.row = table[oy];
  s.column = table[(uint)g.s3 + ox];
  s.image = n * (uint)g.s0 * (uint)g.s1;
  s.pixel = (n * (uint)g.s3 + oy) * (uint)g.s4 + ox;
  return s;
}

// The start of every kernel: its arguments, its channel run and its source.
#define RESIZE_KERNEL(NAME, T)                                                                            \
  kernel void NAME(global const T* restrict x, global T* restrict y, global const uint4* restrict table, \
                   const int8 g, const uint4 grid) {                                                     \
    uint ox, run;                                                                                        \
    if (!oprig_pixel_item(grid, &ox, &run)) return;                                                      \
    const ResizeSource s = resize_source(ox, table, g);

// NEAREST: B bytes as T, a pixel's channels being grid.s0 of them.
#define RESIZE_NEAREST_KERNEL(T, B)                                                          \
  RESIZE_KERNEL(resize_nearest_##B, T)                                                       \
    const uint runs = grid.s0;                                                               \
    y[s.pixel * runs + run] = x[(s.image + s.row.x * (uint)g.s1 + s.column.x) * runs + run]; \
  }

RESIZE_NEAREST_KERNEL(uint4, 16)
RESIZE_NEAREST_KERNEL(uint2, 8)
RESIZE_NEAREST_KERNEL(uint, 4)
RESIZE_NEAREST_KERNEL(ushort, 2)

// BILINEAR: V channels of TYPE (F32 or F16, T the element type in memory).
#define RESIZE_BILINEAR_KERNEL(TYPE, T, SUFFIX, V)                                                      \
  RESIZE_KERNEL(resize_bilinear_##SUFFIX##_##V, T)                                                      \
    const uint width = (uint)g.s1, channels = (uint)g.s2;                                               \
    const uint top = (s.image + s.row.x * width) * channels + run * V;                              \
    const uint bottom = (s.image + s.row.y * width) * channels + run * V;                           \
    const uint left = s.column.x * channels, right = s.column.y * channels;                             \
    const float wy = as_float(s.row.z), ry = as_float(s.row.w);                                         \
    const float wx = as_float(s.column.z), rx = as_float(s.column.w);                                   \
    const oprig_float##V v_left =                                                                       \
        ry * OPRIG_LOAD_##TYPE##_##V(x, top + left) + wy * OPRIG_LOAD_##TYPE##_##V(x, bottom + left);   \
    const oprig_float##V v_right =                                                                      \
        ry * OPRIG_LOAD_##TYPE##_##V(x, top + right) + wy * OPRIG_LOAD_##TYPE##_##V(x, bottom + right); \
    OPRIG_STORE_##TYPE##_##V(rx * v_left + wx * v_right, y, s.pixel * channels + run * V);          \
  }

RESIZE_BILINEAR_KERNEL(F32, float, f32, 1)
RESIZE_BILINEAR_KERNEL(F32, float, f32, 2)
RESIZE_BILINEAR_KERNEL(F32, float, f32, 4)
RESIZE_BILINEAR_KERNEL(F16, half, f16, 1)
RESIZE_BILINEAR_KERNEL(F16, half, f16, 2)
RESIZE_BILINEAR_KERNEL(F16, half, f16, 4)
RESIZE_BILINEAR_KERNEL(F16, half, f16, 8)
