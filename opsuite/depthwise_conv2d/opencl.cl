// DepthwiseConv2D for the opencl backend: NHWC activations, weights
// [kernel_height, kernel_width, 1, channels * multiplier], optional bias;
// FLOAT_32, or FLOAT_16 stored as half and computed in fp32
// (OPRIG_STORAGE_F16, common/opencl/float_storage.cl). Output channel o reads
// input channel o / multiplier.
//
// Bound by memory, so one pass over it (device_grid.hpp says why this
// shape): work-item (v, column, n) computes output channels DW_VEC v ..
// DW_VEC v + DW_VEC - 1 (DW_VEC 4: as one float4 or half4, the host's choice
// where the channels line up) of output rows 4 s .. 4 s + 3 at output column
// ox (column = s out_w + ox) of image n, summing the bias then the taps in
// kernel order. Each tap's input vector comes straight from global memory;
// the weights of a tap are read once for the four rows.

#ifndef DW_VEC
#define DW_VEC 1
#endif
#define DW_ROWS 4  // device_grid.hpp's kRows

#if DW_VEC == 4
#define DW_T float4
#ifdef OPRIG_STORAGE_F16
#define DW_LOAD(p, i) vloada_half4((i) / 4, (p))
#define DW_STORE(p, i, v) vstorea_half4_rte((v), (i) / 4, (p))
#else
#define DW_LOAD(p, i) (((global const float4*)(p))[(i) / 4])
#define DW_STORE(p, i, v) (((global float4*)(p))[(i) / 4] = (v))
#endif
#else
#define DW_T float
#define DW_LOAD(p, i) OPRIG_STORAGE_LOAD(p, i)
#define DW_STORE(p, i, v) OPRIG_STORAGE_STORE(p, i, v)
#endif

kernel void depthwise_nhwc(global const OPRIG_STORAGE_T* x, global const OPRIG_STORAGE_T* w,
                           global const OPRIG_STORAGE_T* bias, global OPRIG_STORAGE_T* y, const int has_bias,
                           const int height, const int width, const int channels, const int multiplier,
                           const int out_h, const int out_w, const int kernel_h, const int kernel_w,
                           const int stride_h, const int stride_w, const int dilation_h, const int dilation_w,
                           const int pad_top, const int pad_left, const int columns) {
  const int c_out = channels * multiplier;
  const int o = (int)get_global_id(0) * DW_VEC;  // first output channel
  const int column = (int)get_global_id(1);
  if (o >= c_out || column >= columns) return;
  const int ox = column % out_w, oy0 = column / out_w * DW_ROWS;
  const int n = (int)get_global_id(2);
  const int c = o / multiplier;  // DW_VEC 4 only with multiplier 1
  const DW_T b = has_bias ? DW_LOAD(bias, o) : (DW_T)(0.0f);
  DW_T acc[DW_ROWS];
#pragma unroll
  for (int r = 0; r < DW_ROWS; ++r) acc[r] = b;
  const int iy0 = oy0 * stride_h - pad_top, ix0 = ox * stride_w - pad_left;
  for (int ky = 0; ky < kernel_h; ++ky)
    for (int kx = 0; kx < kernel_w; ++kx) {
      const int ix = ix0 + kx * dilation_w;
      if (ix < 0 || ix >= width) continue;
      const DW_T wv = DW_LOAD(w, (ky * kernel_w + kx) * c_out + o);
#pragma unroll
      for (int r = 0; r < DW_ROWS; ++r) {
        const int iy = iy0 + r * stride_h + ky * dilation_h;  // rows past out_h: summed, never stored
        if (iy >= 0 && iy < height)
          acc[r] = fma(DW_LOAD(x, ((n * height + iy) * width + ix) * channels + c), wv, acc[r]);
      }
    }
#pragma unroll
  for (int r = 0; r < DW_ROWS; ++r)
    if (oy0 + r < out_h) DW_STORE(y, ((n * out_h + oy0 + r) * out_w + ox) * c_out + o, acc[r]);
}
