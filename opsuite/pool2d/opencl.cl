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
// divides once: bit for bit the cpu's results where the device divides
// correctly rounded (the host then builds with
// -cl-fp32-correctly-rounded-divide-sqrt; elsewhere OpenCL allows 2.5 ulp).
// Quantised UINT_8: codes combined in int (exact). With the output quantised
// as the input, MAX keeps the code and AVG rounds the mean of codes half away
// from zero in integers; otherwise (OPRIG_FP64 builds only: the host refuses
// it without cl_khr_fp64) each value is requantised in double exactly as the
// cpu kernel does.
//
// Kernels pool_<max|avg>_<f32|f16|u8>_<V>, over the grid of
// common/opencl/pixel_grid.cl; the geometry comes as an int16: s0 height, s1
// width, s2 channels, s3 out_height, s4 out_width, s5 kernel_h, s6 kernel_w,
// s7 stride_h, s8 stride_w, s9 pad_top, sa pad_left, sb count_include_pad,
// sc in_zero, sd out_zero, se same quantisation. Every offset fits 32 bits
// (the host checks).

#pragma OPENCL FP_CONTRACT OFF
#ifdef OPRIG_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// The window of output pixel (n, oh, ow), clipped to the input, and where
// the work-item's V channels from channel run `run` are.
typedef struct {
  int h_begin, h_end, w_begin, w_end, cells, divisor;
  uint in_base;   // element offset of (n, 0, 0, first channel)
  uint out_base;  // element offset of the output's first channel
} PoolWindow;

inline PoolWindow pool_window(const uint ow, const uint run, const int16 g, const uint lanes) {
  const uint oh = get_global_id(1), n = get_global_id(2);
  PoolWindow win;
  const int h0 = (int)oh * g.s7 - g.s9, w0 = (int)ow * g.s8 - g.sa;
  win.h_begin = max(h0, 0);
  win.h_end = min(h0 + g.s5, g.s0);
  win.w_begin = max(w0, 0);
  win.w_end = min(w0 + g.s6, g.s1);
  win.cells = (win.h_end - win.h_begin) * (win.w_end - win.w_begin);
  win.divisor = g.sb ? g.s5 * g.s6 : win.cells;
  win.in_base = n * (uint)g.s0 * (uint)g.s1 * (uint)g.s2 + run * lanes;
  win.out_base = ((n * (uint)g.s3 + oh) * (uint)g.s4 + ow) * (uint)g.s2 + run * lanes;
  return win;
}

// The start of every kernel: its arguments and its window.
#define POOL_KERNEL(NAME, T, V)                                                                          \
  kernel void NAME(global const T* restrict x, global T* restrict y, const int16 g, const float2 scales, \
                   const uint4 grid) {                                                                   \
    uint ow, run;                                                                                        \
    if (!oprig_pixel_item(grid, &ow, &run)) return;                                                      \
    const PoolWindow win = pool_window(ow, run, g, V);

// The window's cells inside the input, row by row, and cell (h, w) as V lanes.
#define FOR_EACH_CELL                           \
  for (int h = win.h_begin; h < win.h_end; ++h) \
    for (int w = win.w_begin; w < win.w_end; ++w)
#define CELL(TYPE, V) \
  OPRIG_LOAD_##TYPE##_##V(x, win.in_base + ((uint)h * (uint)g.s1 + (uint)w) * (uint)g.s2)

// FLOAT_32 / FLOAT_16 (TYPE F32 or F16, T the element type in memory).
#define POOL_FLOAT_KERNELS(TYPE, T, SUFFIX, V)                                       \
  POOL_KERNEL(pool_max_##SUFFIX##_##V, T, V)                                         \
    oprig_float##V acc = (oprig_float##V)(-INFINITY), seen = (oprig_float##V)(0.0f); \
    oprig_int##V nan = (oprig_int##V)(0);                                            \
    FOR_EACH_CELL {                                                                  \
      const oprig_float##V v = CELL(TYPE, V);                                        \
      acc = select(acc, v, v > acc);                                                 \
      seen = select(seen, v, isnan(v));                                              \
      nan |= isnan(v);                                                               \
    }                                                                                \
    OPRIG_STORE_##TYPE##_##V(select(acc, seen, nan), y, win.out_base);               \
  }                                                                                  \
  POOL_KERNEL(pool_avg_##SUFFIX##_##V, T, V)                                         \
    oprig_float##V acc = (oprig_float##V)(0.0f);                                     \
    FOR_EACH_CELL acc += CELL(TYPE, V);                                              \
    OPRIG_STORE_##TYPE##_##V(acc / (float)win.divisor, y, win.out_base);             \
  }

#ifdef OPRIG_FP64
// The cpu kernel's requantisation: round(real / scale) half away from zero,
// plus the zero point, clamped to the codes.
inline int pool_requantize(const double real, const float scale, const int zero) {
  return (int)clamp(round(real / (double)scale) + (double)zero, 0.0, 255.0);
}
// acc = EXPR of each lane `a` of acc.
#define POOL_REQUANTIZE(V, acc, EXPR) \
  {                                   \
    int lanes[V];                     \
    OPRIG_SPILL_##V(acc, lanes);      \
    for (int j = 0; j < V; ++j) {     \
      const int a = lanes[j];         \
      lanes[j] = EXPR;                \
    }                                 \
    acc = OPRIG_FILL_##V(lanes);      \
  }
#else
#define POOL_REQUANTIZE(V, acc, EXPR) {}
#endif

// Quantised UINT_8.
#define POOL_CODE_KERNELS(V)                                                                                     \
  POOL_KERNEL(pool_max_u8_##V, uchar, V)                                                                         \
    oprig_int##V acc = (oprig_int##V)(0); /* no code is below 0; every window holds a cell */                    \
    FOR_EACH_CELL acc = max(acc, CELL(U8, V));                                                                   \
    if (!g.se) POOL_REQUANTIZE(V, acc, pool_requantize((double)scales.s0 * (double)(a - g.sc), scales.s1, g.sd)) \
    OPRIG_STORE_U8_##V(acc, y, win.out_base);                                                                    \
  }                                                                                                              \
  POOL_KERNEL(pool_avg_u8_##V, uchar, V)                                                                         \
    oprig_int##V acc = (oprig_int##V)(0);                                                                        \
    FOR_EACH_CELL acc += CELL(U8, V);                                                                            \
    if (g.se) {                                                                                                  \
      /* The mean in codes, (sum - cells * zero) / divisor, rounded half away from zero. */                      \
      const oprig_int##V a = acc - win.cells * g.sc;                                                             \
      const oprig_int##V m = (2 * select(a, -a, a < 0) + win.divisor) / (2 * win.divisor);                       \
      acc = g.sd + select(m, -m, a < 0);                                                                         \
    } else {                                                                                                     \
      POOL_REQUANTIZE(V, acc,                                                                                    \
                      pool_requantize((double)scales.s0 * ((double)a - (double)(win.cells * g.sc)) /             \
                                          (double)(float)win.divisor,                                            \
                                      scales.s1, g.sd))                                                          \
    }                                                                                                            \
    OPRIG_STORE_U8_##V(acc, y, win.out_base);                                                                    \
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
