// The blocked, packed fp32 GEMM behind the cpu MatMul (the GotoBLAS / BLIS
// loop nest): C[M x N] (row-major, row stride ldc) = A[M x K] * B[K x N] for
// one block of C's rows and columns. A and B are addressed through strides, so
// a transposed operand costs nothing but a different packing order.
//
//   for each KC-deep slice of K:
//     pack A[rows, slice] into MR-tall micro-panels            (L3)
//     for each NB-wide block of columns:
//       pack B[slice, block] into NR-wide micro-panels         (L2)
//       for each A micro-panel (kept in L1: MR x KC floats):
//         for each B micro-panel of the block (streamed from L2): micro-kernel
//
// The micro-panel kept in L1 is A's, the smaller one (the micro-kernels
// broadcast MR values of A against NR-wide vectors of B, MR < NR), as BLIS
// does for Skylake-X: 12 x 384 floats = 18 KiB next to a 48 KiB B stream.
// The first slice writes C, later ones add to it, so every element of C sums
// its products in the order of k whatever the block boundaries of rows and
// columns: results do not depend on how the work is split over threads, and
// every ISA with an FMA tile gives the same bits (the same KC for all).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace oprig::opsuite {
namespace {

// A [rows x cols] fp32 operand: element (r, c) at data[r * row_stride + c * col_stride].
struct StridedMatrix {
  const float* data;
  size_t row_stride, col_stride;
};

// Depth of a K slice, the same for every ISA (see above).
constexpr size_t kGemmKC = 384;
// Rows of A packed at once (bounds the packed-A workspace; L3-resident).
constexpr size_t kGemmMaxRows = 1536;

// Columns of B packed at once, a [KC x NB] block that fits L2 with room to
// spare: Tile::kBlockColumns (AVX-512: 480 columns, 720 KiB of Zen 5's 1 MiB;
// AVX2: 192 columns, 288 KiB of Zen 3's 512 KiB). Blocks of one call are
// evened out so that the last one is not a sliver.
template <class Tile>
size_t gemm_block_columns(size_t cols) {
  const size_t blocks = std::max<size_t>(1, (cols + Tile::kBlockColumns - 1) / Tile::kBlockColumns);
  const size_t even = (cols + blocks - 1) / blocks;
  return (even + Tile::kNR - 1) / Tile::kNR * Tile::kNR;
}

// Packed sizes in floats, for workspace planning.
template <class Tile>
size_t packed_a_floats(size_t rows) {
  return (std::min(rows, kGemmMaxRows) + Tile::kMR - 1) / Tile::kMR * Tile::kMR * kGemmKC;
}
template <class Tile>
size_t packed_b_floats(size_t cols) {
  return kGemmKC * gemm_block_columns<Tile>(cols);
}

// The two ways a micro-panel is filled: dst is k-major, W floats per k
// (dst[k * W + i] = lane i at depth k), lanes past `valid` are zeros.
//
// Lanes adjacent in memory for each k (A stored transposed, B as stored):
// one contiguous copy per k.
template <size_t W>
void pack_lanes_contiguous(const float* src, size_t k_stride, size_t valid, size_t depth, float* dst) {
  for (size_t k = 0; k < depth; ++k, src += k_stride, dst += W) {
    if (valid == W) {
      std::memcpy(dst, src, W * sizeof(float));  // a constant size: inlined moves
    } else {
      std::memcpy(dst, src, valid * sizeof(float));
      std::fill(dst + valid, dst + W, 0.0f);
    }
  }
}

// Each lane contiguous in k (A as stored, B stored transposed): a transpose,
// done 4 lanes x 4 k at a time in SSE registers (baseline x86-64), so every
// load and store moves 4 floats instead of 1.
template <size_t W>
void pack_lanes_strided(const float* src, size_t lane_stride, size_t valid, size_t depth, float* dst) {
  if (valid < W) std::memset(dst, 0, W * depth * sizeof(float));
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 4 <= valid; i += 4) {
    const float* r0 = src + i * lane_stride;
    const float* r1 = r0 + lane_stride;
    const float* r2 = r1 + lane_stride;
    const float* r3 = r2 + lane_stride;
    size_t k = 0;
    for (; k + 4 <= depth; k += 4) {
      __m128 a = _mm_loadu_ps(r0 + k), b = _mm_loadu_ps(r1 + k), c = _mm_loadu_ps(r2 + k), d = _mm_loadu_ps(r3 + k);
      _MM_TRANSPOSE4_PS(a, b, c, d);
      _mm_storeu_ps(dst + (k + 0) * W + i, a);
      _mm_storeu_ps(dst + (k + 1) * W + i, b);
      _mm_storeu_ps(dst + (k + 2) * W + i, c);
      _mm_storeu_ps(dst + (k + 3) * W + i, d);
    }
    for (; k < depth; ++k) {
      float* d = dst + k * W + i;
      d[0] = r0[k];
      d[1] = r1[k];
      d[2] = r2[k];
      d[3] = r3[k];
    }
  }
#endif
  for (; i < valid; ++i) {
    const float* r = src + i * lane_stride;
    for (size_t k = 0; k < depth; ++k) dst[k * W + i] = r[k];
  }
}

// rows x depth of A starting at (row0, k0) into MR-tall micro-panels.
template <size_t MR>
void pack_a(const StridedMatrix& a, size_t row0, size_t rows, size_t k0, size_t depth, float* dst) {
  for (size_t p = 0; p < rows; p += MR, dst += MR * depth) {
    const float* src = a.data + (row0 + p) * a.row_stride + k0 * a.col_stride;
    const size_t valid = std::min(MR, rows - p);
    if (a.row_stride == 1) pack_lanes_contiguous<MR>(src, a.col_stride, valid, depth, dst);
    else pack_lanes_strided<MR>(src, a.row_stride, valid, depth, dst);
  }
}

// depth x cols of B starting at (k0, col0) into NR-wide micro-panels.
template <size_t NR>
void pack_b(const StridedMatrix& b, size_t k0, size_t depth, size_t col0, size_t cols, float* dst) {
  for (size_t p = 0; p < cols; p += NR, dst += NR * depth) {
    const float* src = b.data + k0 * b.row_stride + (col0 + p) * b.col_stride;
    const size_t valid = std::min(NR, cols - p);
    if (b.col_stride == 1) pack_lanes_contiguous<NR>(src, b.row_stride, valid, depth, dst);
    else pack_lanes_strided<NR>(src, b.col_stride, valid, depth, dst);
  }
}

// C[row0 .. row0+rows) x [col0 .. col0+cols) of C = A * B with K = depth_total
// (> 0). packed_a holds packed_a_floats<Tile>(rows) floats and packed_b
// packed_b_floats<Tile>(cols), both 64-byte aligned.
template <class Tile>
void gemm_block(const StridedMatrix& a, const StridedMatrix& b, size_t depth_total, float* c, size_t ldc,
                size_t row0, size_t rows, size_t col0, size_t cols, float* packed_a, float* packed_b) {
  constexpr size_t MR = Tile::kMR, NR = Tile::kNR;
  const size_t nb = gemm_block_columns<Tile>(cols);
  for (size_t m0 = 0; m0 < rows; m0 += kGemmMaxRows) {
    const size_t mc = std::min(kGemmMaxRows, rows - m0);
    for (size_t k0 = 0; k0 < depth_total; k0 += kGemmKC) {
      const size_t kc = std::min(kGemmKC, depth_total - k0);
      const bool accumulate = k0 > 0;
      pack_a<MR>(a, row0 + m0, mc, k0, kc, packed_a);
      for (size_t n0 = 0; n0 < cols; n0 += nb) {
        const size_t ncols = std::min(nb, cols - n0);
        pack_b<NR>(b, k0, kc, col0 + n0, ncols, packed_b);
        for (size_t m = 0; m < mc; m += MR) {
          const float* ap = packed_a + (m / MR) * MR * kc;
          float* c_row = c + (row0 + m0 + m) * ldc + col0 + n0;
          const size_t mr = std::min(MR, mc - m);
          for (size_t n = 0; n < ncols; n += NR)
            Tile::run(kc, ap, packed_b + (n / NR) * NR * kc, c_row + n, ldc, accumulate, mr, std::min(NR, ncols - n));
        }
      }
    }
  }
}

}  // namespace
}  // namespace oprig::opsuite
