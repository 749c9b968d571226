// Conv2D for the opencl backend, NCHW activations (the spec's GPU layout),
// weights [kernel_height, kernel_width, channel_in / group, channel_out],
// optional bias; FLOAT_32, or FLOAT_16 stored as half and computed in fp32
// (OPRIG_STORAGE_F16, common/opencl/float_storage.cl).
//
// An implicit GEMM per group, never writing an im2col matrix: for group g,
// out[co, p] = sum over k of w[k, co] * patch[k, p], where p runs over the
// output pixels of every image (batch x out_h x out_w) and k over the window
// in the weights' order (ky, kx, ci), so a weight row is contiguous in co and
// a patch row is a (strided) run of input pixels of one channel plane. A
// work-group owns a TILE_C x TILE_P tile of the output, walks k in steps of
// TILE_K and stages both operands of each step in local memory: the weights
// as they lie, the patch gathered from the image with zeros for padding and
// past the edges; double-buffered, so the next step is staged while this one
// is summed, with one barrier per step. Each work-item keeps WORK_C x WORK_P
// sums in registers (register blocking): WORK_C vectors of WORK_P
// neighbouring pixels, each k reading one vector of pixels and one of
// channels from local memory. The patch rows a work-item gathers advance by
// a fixed stride, so it walks (ci, kx, ky) with a cursor instead of dividing
// per element.
//
// Tile sizes are build options (CLBlast's way: one kernel text, numbers per
// device and shape chosen by opencl.cpp). The work-group is
// (TILE_P / WORK_P) x (TILE_C / WORK_C): work-item (lx, ly) owns pixels
// lx * WORK_P ... + WORK_P - 1 and channels ly * WORK_C ... + WORK_C - 1, so
// neighbouring work-items read neighbouring local words and write
// neighbouring pixels.
// A GPU takes a few sums per work-item over many work-items; a CPU device
// (PoCL) takes wide vectors (WORK_P 16: one AVX-512 register) over few.

#ifndef TILE_P
#error "the host defines TILE_P, TILE_C, TILE_K, WORK_P, WORK_C"
#endif

#define LX (TILE_P / WORK_P)
#define LY (TILE_C / WORK_C)
#define THREADS (LX * LY)
// The staging: per pass, each work-item writes PATCH_COLS columns of
// PATCH_ROWS-row bands of the patch, likewise the weights.
#if THREADS >= TILE_P
#define PATCH_ROWS (THREADS / TILE_P)
#define PATCH_COLS 1
#else
#define PATCH_ROWS 1
#define PATCH_COLS (TILE_P / THREADS)
#endif
#if THREADS >= TILE_C
#define WEIGHT_ROWS (THREADS / TILE_C)
#define WEIGHT_COLS 1
#else
#define WEIGHT_ROWS 1
#define WEIGHT_COLS (TILE_C / THREADS)
#endif
#if (THREADS % TILE_P != 0 && TILE_P % THREADS != 0) || (THREADS % TILE_C != 0 && TILE_C % THREADS != 0) || \
    TILE_K % PATCH_ROWS != 0 || TILE_K % WEIGHT_ROWS != 0
#error "the loaders need whole passes over the tiles"
#endif

#define PAIR_FLOATS (2 * TILE_K * (TILE_P + TILE_C))
#define LOCAL_FLOATS (PAIR_FLOATS > TILE_P * TILE_C ? PAIR_FLOATS : TILE_P * TILE_C)

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VEC CAT(float, WORK_P)
#define VLOAD CAT(vload, WORK_P)
#define VSTORE CAT(vstore, WORK_P)
#define VLOAD_C CAT(vload, WORK_C)
#define VSTORE_C CAT(vstore, WORK_C)
#if WORK_P < 2 || WORK_C < 2
#error "WORK_P and WORK_C are vector widths: 2, 4, 8 or 16"
#endif

// The place in k of the patch rows a work-item gathers: the next row's k and
// its (ci, kx, ky), advanced by the fixed stride of its rows.
typedef struct {
  int k, ci, kx, ky;
} Cursor;

inline void advance(Cursor* c, const int by, const int group_in, const int kernel_w) {
  c->k += by;
  c->ci += by;
  while (c->ci >= group_in) {
    c->ci -= group_in;
    if (++c->kx == kernel_w) {
      c->kx = 0;
      ++c->ky;
    }
  }
}

kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void conv2d_nchw(
    global const OPRIG_STORAGE_T* x, global const OPRIG_STORAGE_T* w, global const OPRIG_STORAGE_T* bias,
    global OPRIG_STORAGE_T* y,
    const int has_bias, const int pixels, const int out_hw, const int out_w, const int height, const int width,
    const int c_in, const int group_in, const int c_out, const int group_out, const int kernel_w, const int depth,
    const int stride_h, const int stride_w, const int dilation_h, const int dilation_w, const int pad_top,
    const int pad_left) {
  // Two buffers of both tiles while summing; the output tile afterwards.
  local float smem[LOCAL_FLOATS];
  local float(*patch)[TILE_K][TILE_P] = (local float(*)[TILE_K][TILE_P])smem;
  local float(*weights)[TILE_K][TILE_C] = (local float(*)[TILE_K][TILE_C])(smem + 2 * TILE_K * TILE_P);

  const int lx = get_local_id(0), ly = get_local_id(1);
  const int lid = ly * LX + lx;
  const int p0 = get_group_id(0) * TILE_P;
  const int c0 = get_group_id(1) * TILE_C;  // output channel within the group
  const int g = get_group_id(2);
  const int in_hw = height * width;

  // Where the patch columns this work-item stages start in the image.
  int x_base[PATCH_COLS], iy0[PATCH_COLS], ix0[PATCH_COLS];
  bool column_valid[PATCH_COLS];
#pragma unroll
  for (int m = 0; m < PATCH_COLS; ++m) {
    const int p = p0 + lid % TILE_P + m * THREADS;
    column_valid[m] = p < pixels;
    const int n = column_valid[m] ? p / out_hw : 0;
    const int r = column_valid[m] ? p - n * out_hw : 0;
    iy0[m] = (r / out_w) * stride_h - pad_top;
    ix0[m] = (r % out_w) * stride_w - pad_left;
    x_base[m] = (n * c_in + g * group_in) * in_hw + iy0[m] * width + ix0[m];
  }
  const int w_base = g * group_out + c0;
  const int first_row = lid / TILE_P;  // 0 when a work-item stages several columns
  Cursor cursor = {first_row, first_row % group_in, (first_row / group_in) % kernel_w,
                   (first_row / group_in) / kernel_w};

  VEC acc[WORK_C];
#pragma unroll
  for (int j = 0; j < WORK_C; ++j) acc[j] = 0.0f;

  const int steps = (depth + TILE_K - 1) / TILE_K;
  for (int step = 0; step <= steps; ++step) {
    if (step < steps) {  // stage step `step` into buffer step & 1
      const int k0 = step * TILE_K, buf = step & 1;
#pragma unroll
      for (int pass = 0; pass < TILE_K / PATCH_ROWS; ++pass) {
        const int row = first_row + pass * PATCH_ROWS;
        const int dy = cursor.ky * dilation_h, dx = cursor.kx * dilation_w;
        const int offset = cursor.ci * in_hw + dy * width + dx;
#pragma unroll
        for (int m = 0; m < PATCH_COLS; ++m) {
          const int iy = iy0[m] + dy, ix = ix0[m] + dx;
          const bool inside = column_valid[m] && cursor.k < depth && iy >= 0 && iy < height && ix >= 0 && ix < width;
          const float v = inside ? OPRIG_STORAGE_LOAD(x, x_base[m] + offset) : 0.0f;
          patch[buf][row][lid % TILE_P + m * THREADS] = v;
        }
        advance(&cursor, PATCH_ROWS, group_in, kernel_w);
      }
#pragma unroll
      for (int pass = 0; pass < TILE_K / WEIGHT_ROWS; ++pass) {
        const int row = lid / TILE_C + pass * WEIGHT_ROWS;
#pragma unroll
        for (int m = 0; m < WEIGHT_COLS; ++m) {
          const int col = lid % TILE_C + m * THREADS;
          const bool inside = c0 + col < group_out && k0 + row < depth;
          weights[buf][row][col] = inside ? OPRIG_STORAGE_LOAD(w, (k0 + row) * c_out + w_base + col) : 0.0f;
        }
      }
    }
    if (step > 0) {  // sum step - 1 from the other buffer
      const int buf = (step - 1) & 1;
#pragma unroll
      for (int kk = 0; kk < TILE_K; ++kk) {
        const VEC b = VLOAD(lx, &patch[buf][kk][0]);
        float a[WORK_C];
        VSTORE_C(VLOAD_C(ly, &weights[buf][kk][0]), 0, a);
#pragma unroll
        for (int j = 0; j < WORK_C; ++j) acc[j] = fma((VEC)(a[j]), b, acc[j]);
      }
    }
    // Step `step` is staged for everyone, and nobody reads step - 1's buffer
    // any more, which the next iteration stages into.
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // The output tile through local memory: each work-item stores runs of
  // neighbouring pixels of one channel, the tile is then written plane by
  // plane by neighbouring work-items (coalesced), and the conversion to
  // FLOAT_16 sits in one loop instead of one copy per sum (PoCL takes
  // minutes to compile 256 inlined vstore_half_rte).
#pragma unroll
  for (int j = 0; j < WORK_C; ++j) VSTORE(acc[j], 0, smem + (ly * WORK_C + j) * TILE_P + lx * WORK_P);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = lid; e < TILE_C * TILE_P; e += THREADS) {
    const int co = c0 + e / TILE_P, p = p0 + e % TILE_P;
    if (co >= group_out || p >= pixels) continue;
    const int channel = g * group_out + co;
    const int n = p / out_hw;
    const float b = has_bias ? OPRIG_STORAGE_LOAD(bias, channel) : 0.0f;
    OPRIG_STORAGE_STORE(y, (n * c_out + channel) * out_hw + (p - n * out_hw), smem[e] + b);
  }
}
