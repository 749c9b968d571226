// Pool2D for the opencl backend, NHWC: one work-item per output pixel and V
// consecutive channels (V chosen by the host: the widest of 16 bytes or less
// that divides the channel count), so a work-group reads and writes whole
// runs of memory and each input vector is one load. Overlapping windows
// (stride below the kernel) re-read their shared cells through the caches:
// one pass over memory. The window's cells inside the input are combined
// row by row, column by column, as the cpu kernel does; padding is skipped.
//
// FLOAT_32 and FLOAT_16 (widened by vload_half, rounded once by
// vstore_half_rte): MAX keeps `x > acc ? x : acc` and the last NaN met, which
// wins (padding never does); AVG sums in fp32 in the cpu kernel's order and
// divides once (correctly rounded where the host builds with
// -cl-fp32-correctly-rounded-divide-sqrt): bit for bit the cpu's results.
// Quantised UINT_8: codes combined in int (exact). With the output quantised
// as the input, MAX keeps the code and AVG rounds the mean of codes half away
// from zero in integers; otherwise (OPRIG_FP64 builds only: the host refuses
// it without cl_khr_fp64) each value is requantised in double exactly as the
// cpu kernel does.
//
// Kernels pool_<max|avg>_<f32|f16|u8>_<V>; the geometry comes as an int16:
// s0 height, s1 width, s2 channels, s3 out_height, s4 out_width, s5 kernel_h,
// s6 kernel_w, s7 stride_h, s8 stride_w, s9 pad_top, sa pad_left, sb
// count_include_pad, sc in_zero, sd out_zero, se same quantisation, sf
// channel groups (channels / V). `total` work-items (pixels * groups); every
// offset fits 32 bits (the host checks).

#pragma OPENCL FP_CONTRACT OFF
#ifdef OPRIG_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

typedef float pool_float_1;
typedef float2 pool_float_2;
typedef float4 pool_float_4;
typedef float8 pool_float_8;
typedef float16 pool_float_16;
typedef int pool_int_1;
typedef int2 pool_int_2;
typedef int4 pool_int_4;
typedef int8 pool_int_8;
typedef int16 pool_int_16;

#define POOL_CAT(a, b) a##b
#define POOL_XCAT(a, b) POOL_CAT(a, b)

// V elements from element offset o of p (o is a multiple of V).
#define LOAD_F32_1(p, o) ((p)[o])
#define LOAD_F32_2(p, o) vload2(0, (p) + (o))
#define LOAD_F32_4(p, o) vload4(0, (p) + (o))
#define LOAD_F16_1(p, o) vload_half(0, (p) + (o))
#define LOAD_F16_2(p, o) vload_half2(0, (p) + (o))
#define LOAD_F16_4(p, o) vload_half4(0, (p) + (o))
#define LOAD_F16_8(p, o) vload_half8(0, (p) + (o))
#define LOAD_U8_1(p, o) ((int)(p)[o])
#define LOAD_U8_2(p, o) convert_int2(vload2(0, (p) + (o)))
#define LOAD_U8_4(p, o) convert_int4(vload4(0, (p) + (o)))
#define LOAD_U8_8(p, o) convert_int8(vload8(0, (p) + (o)))
#define LOAD_U8_16(p, o) convert_int16(vload16(0, (p) + (o)))
#define STORE_F32_1(v, p, o) ((p)[o] = (v))
#define STORE_F32_2(v, p, o) vstore2(v, 0, (p) + (o))
#define STORE_F32_4(v, p, o) vstore4(v, 0, (p) + (o))
#define STORE_F16_1(v, p, o) vstore_half_rte(v, 0, (p) + (o))
#define STORE_F16_2(v, p, o) vstore_half2_rte(v, 0, (p) + (o))
#define STORE_F16_4(v, p, o) vstore_half4_rte(v, 0, (p) + (o))
#define STORE_F16_8(v, p, o) vstore_half8_rte(v, 0, (p) + (o))
#define STORE_U8_1(v, p, o) ((p)[o] = convert_uchar_sat(v))
#define STORE_U8_2(v, p, o) vstore2(convert_uchar2_sat(v), 0, (p) + (o))
#define STORE_U8_4(v, p, o) vstore4(convert_uchar4_sat(v), 0, (p) + (o))
#define STORE_U8_8(v, p, o) vstore8(convert_uchar8_sat(v), 0, (p) + (o))
#define STORE_U8_16(v, p, o) vstore16(convert_uchar16_sat(v), 0, (p) + (o))
// An int vector to and from a private array (per-lane double arithmetic).
#define SPILL_1(v, a) ((a)[0] = (v))
#define SPILL_2(v, a) vstore2(v, 0, a)
#define SPILL_4(v, a) vstore4(v, 0, a)
#define SPILL_8(v, a) vstore8(v, 0, a)
#define SPILL_16(v, a) vstore16(v, 0, a)
#define FILL_1(a) ((a)[0])
#define FILL_2(a) vload2(0, a)
#define FILL_4(a) vload4(0, a)
#define FILL_8(a) vload8(0, a)
#define FILL_16(a) vload16(0, a)

// One output pixel's window, clipped to the input.
typedef struct {
  uint n;
  int h_begin, h_end, w_begin, w_end, cells, divisor;
  uint in_base;   // element offset of (n, 0, 0, first channel)
  uint out_base;  // element offset of the output's first channel
} PoolWindow;

inline PoolWindow pool_window(const uint i, const int16 g, const uint lanes) {
  const uint groups = (uint)g.sf, out_w = (uint)g.s4, out_h = (uint)g.s3;
  const uint group = i % groups, pixel = i / groups;
  const uint ow = pixel % out_w, rest = pixel / out_w;
  const uint oh = rest % out_h, n = rest / out_h;
  PoolWindow win;
  const int h0 = (int)oh * g.s7 - g.s9, w0 = (int)ow * g.s8 - g.sa;
  win.n = n;
  win.h_begin = max(h0, 0);
  win.h_end = min(h0 + g.s5, g.s0);
  win.w_begin = max(w0, 0);
  win.w_end = min(w0 + g.s6, g.s1);
  win.cells = (win.h_end - win.h_begin) * (win.w_end - win.w_begin);
  win.divisor = g.sb ? g.s5 * g.s6 : win.cells;
  win.in_base = n * (uint)g.s0 * (uint)g.s1 * (uint)g.s2 + group * lanes;
  win.out_base = pixel * (uint)g.s2 + group * lanes;
  return win;
}

#define CELL_OFFSET(win, g, h, w) ((win).in_base + ((uint)(h) * (uint)(g).s1 + (uint)(w)) * (uint)(g).s2)

// FLOAT_32 / FLOAT_16 (TYPE F32 or F16, T the element type in memory).
#define POOL_FLOAT_KERNELS(TYPE, T, SUFFIX, V)                                                          \
  kernel void pool_max_##SUFFIX##_##V(global const T* x, global T* y, const int16 g, const float2 scales, \
                                     const uint total) {                                              \
    const uint i = get_global_id(0);                                                                  \
    if (i >= total) return;                                                                           \
    const PoolWindow win = pool_window(i, g, V);                                                      \
    pool_float_##V acc = (pool_float_##V)(-INFINITY), seen = (pool_float_##V)(0.0f);                  \
    pool_int_##V nan = (pool_int_##V)(0);                                                             \
    for (int h = win.h_begin; h < win.h_end; ++h)                                                     \
      for (int w = win.w_begin; w < win.w_end; ++w) {                                                 \
        const pool_float_##V v = LOAD_##TYPE##_##V(x, CELL_OFFSET(win, g, h, w));                      \
        acc = select(acc, v, v > acc);                                                                \
        seen = select(seen, v, isnan(v));                                                             \
        nan |= isnan(v);                                                                              \
      }                                                                                               \
    STORE_##TYPE##_##V(select(acc, seen, nan), y, win.out_base);                                      \
  }                                                                                                   \
  kernel void pool_avg_##SUFFIX##_##V(global const T* x, global T* y, const int16 g, const float2 scales, \
                                     const uint total) {                                              \
    const uint i = get_global_id(0);                                                                  \
    if (i >= total) return;                                                                           \
    const PoolWindow win = pool_window(i, g, V);                                                      \
    pool_float_##V acc = (pool_float_##V)(0.0f);                                                      \
    for (int h = win.h_begin; h < win.h_end; ++h)                                                     \
      for (int w = win.w_begin; w < win.w_end; ++w) acc += LOAD_##TYPE##_##V(x, CELL_OFFSET(win, g, h, w)); \
    STORE_##TYPE##_##V(acc / (float)win.divisor, y, win.out_base);                                    \
  }

#ifdef OPRIG_FP64
// The cpu kernel's requantisation: round(real / scale) half away from zero,
// plus the zero point, clamped to the codes.
inline int pool_requantize(const double real, const float scale, const int zero) {
  return (int)clamp(round(real / (double)scale) + (double)zero, 0.0, 255.0);
}
#define POOL_REQUANTIZE(V, acc, EXPR)   \
  {                                    \
    int lanes[V];                      \
    SPILL_##V(acc, lanes);             \
    for (int j = 0; j < V; ++j) {      \
      const int a = lanes[j];          \
      lanes[j] = EXPR;                 \
    }                                  \
    acc = FILL_##V(lanes);             \
  }
#else
#define POOL_REQUANTIZE(V, acc, EXPR) {}
#endif

// Quantised UINT_8.
#define POOL_CODE_KERNELS(V)                                                                                   \
  kernel void pool_max_u8_##V(global const uchar* x, global uchar* y, const int16 g, const float2 scales,       \
                              const uint total) {                                                              \
    const uint i = get_global_id(0);                                                                           \
    if (i >= total) return;                                                                                    \
    const PoolWindow win = pool_window(i, g, V);                                                               \
    pool_int_##V acc = (pool_int_##V)(0); /* no code is below 0; every window holds a cell */                   \
    for (int h = win.h_begin; h < win.h_end; ++h)                                                              \
      for (int w = win.w_begin; w < win.w_end; ++w) acc = max(acc, LOAD_U8_##V(x, CELL_OFFSET(win, g, h, w)));  \
    if (!g.se) POOL_REQUANTIZE(V, acc, pool_requantize((double)scales.s0 * (double)(a - g.sc), scales.s1, g.sd)) \
    STORE_U8_##V(acc, y, win.out_base);                                                                        \
  }                                                                                                            \
  kernel void pool_avg_u8_##V(global const uchar* x, global uchar* y, const int16 g, const float2 scales,       \
                              const uint total) {                                                              \
    const uint i = get_global_id(0);                                                                           \
    if (i >= total) return;                                                                                    \
    const PoolWindow win = pool_window(i, g, V);                                                               \
    pool_int_##V acc = (pool_int_##V)(0);                                                                      \
    for (int h = win.h_begin; h < win.h_end; ++h)                                                              \
      for (int w = win.w_begin; w < win.w_end; ++w) acc += LOAD_U8_##V(x, CELL_OFFSET(win, g, h, w));          \
    if (g.se) {                                                                                                \
      /* The mean in codes, (sum - cells * zero) / divisor, rounded half away from zero. */                   \
      const pool_int_##V a = acc - win.cells * g.sc;                                                           \
      const pool_int_##V m = (2 * select(a, -a, a < 0) + win.divisor) / (2 * win.divisor);                     \
      acc = g.sd + select(m, -m, a < 0);                                                                       \
    } else {                                                                                                   \
      POOL_REQUANTIZE(V, acc,                                                                                  \
                      pool_requantize((double)scales.s0 * ((double)a - (double)(win.cells * g.sc)) /          \
                                          (double)(float)win.divisor,                                          \
                                      scales.s1, g.sd))                                                        \
    }                                                                                                          \
    STORE_U8_##V(acc, y, win.out_base);                                                                        \
  }

POOL_FLOAT_KERNELS(F32, float, f32, 1)
POOL_FLOAT_KERNELS(F32, float, f32, 2)
POOL_FLOAT_KERNELS(F32, float, f32, 4)
POOL_FLOAT_KERNELS(F16, half, f16, 1)
POOL_FLOAT_KERNELS(F16, half, f16, 2)
POOL_FLOAT_KERNELS(F16, half, f16, 4)
POOL_FLOAT_KERNELS(F16, half, f16, 8)
POOL_CODE_KERNELS(1)
POOL_CODE_KERNELS(2)
POOL_CODE_KERNELS(4)
POOL_CODE_KERNELS(8)
POOL_CODE_KERNELS(16)
