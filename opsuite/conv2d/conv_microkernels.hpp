// The innermost piece of the cpu Conv2D: one register tile of MR output pixels
// x NR output channels, as an "indirect GEMM" (XNNPACK's igemm): the kernel
// gets, for every tap of the filter window, MR pointers to the input pixels
// that tap reads (NHWC: each points at that pixel's channels of the group;
// padding points at a row of zeros), broadcasts one input channel of each
// pixel at a time and multiplies it into NR output channels of packed weights.
// No im2col copy is made and the whole sum over taps and channels stays in
// registers, starting from the bias.
//   AVX-512  12 x 32: 24 zmm accumulators, 2 weight loads and 12 broadcasts per step
//   AVX2      6 x 16: 12 ymm accumulators
//   scalar    4 x  8: plain C the compiler vectorises at the baseline (SSE2)
// The vector tiles accumulate with one FMA per product in the same order
// (taps, then channels), so AVX-512 and AVX2 agree bit for bit.
//
// Contract: out[i * ldo + j] = bias[j] + sum over t < taps, c < cin of
// rows[t * MR + i][c] * w[(t * cin + c) * NR + j], for i < mr, j < nr; nothing
// else is written. `w` is zero-padded to NR columns, `bias` to NR values.
#pragma once

#include <immintrin.h>

#include <cstddef>

namespace oprig::opsuite {
namespace {

struct ConvTileScalar {
  static constexpr size_t kMR = 4, kNR = 8;
  static void run(size_t taps, size_t cin, const float* const* rows, const float* w, const float* bias, float* out,
                  size_t ldo, size_t mr, size_t nr) {
    float acc[kMR][kNR];
    for (size_t i = 0; i < kMR; ++i)
      for (size_t j = 0; j < kNR; ++j) acc[i][j] = bias[j];
    for (size_t t = 0; t < taps; ++t, rows += kMR)
      for (size_t c = 0; c < cin; ++c, w += kNR)
        for (size_t i = 0; i < kMR; ++i)
          for (size_t j = 0; j < kNR; ++j) acc[i][j] += rows[i][c] * w[j];
    for (size_t i = 0; i < mr; ++i)
      for (size_t j = 0; j < nr; ++j) out[i * ldo + j] = acc[i][j];
  }
};

#if defined(__x86_64__)

struct ConvTileAvx2 {
  static constexpr size_t kMR = 6, kNR = 16;
  __attribute__((target("avx2,fma"))) static void run(size_t taps, size_t cin, const float* const* rows,
                                                      const float* w, const float* bias, float* out, size_t ldo,
                                                      size_t mr, size_t nr) {
    __m256 acc[kMR][2];
    const __m256 bias0 = _mm256_loadu_ps(bias), bias1 = _mm256_loadu_ps(bias + 8);
#pragma GCC unroll 6
    for (size_t i = 0; i < kMR; ++i) {
      acc[i][0] = bias0;
      acc[i][1] = bias1;
    }
    for (size_t t = 0; t < taps; ++t, rows += kMR) {
      const float* r[kMR];
#pragma GCC unroll 6
      for (size_t i = 0; i < kMR; ++i) r[i] = rows[i];
#pragma GCC unroll 2
      for (size_t c = 0; c < cin; ++c, w += kNR) {
        const __m256 w0 = _mm256_load_ps(w), w1 = _mm256_load_ps(w + 8);
#pragma GCC unroll 6
        for (size_t i = 0; i < kMR; ++i) {
          const __m256 x = _mm256_broadcast_ss(r[i] + c);
          acc[i][0] = _mm256_fmadd_ps(x, w0, acc[i][0]);
          acc[i][1] = _mm256_fmadd_ps(x, w1, acc[i][1]);
        }
      }
    }
    if (nr == kNR) {
#pragma GCC unroll 6
      for (size_t i = 0; i < kMR; ++i) {
        if (i >= mr) break;
        _mm256_storeu_ps(out + i * ldo, acc[i][0]);
        _mm256_storeu_ps(out + i * ldo + 8, acc[i][1]);
      }
      return;
    }
    alignas(32) float tile[kMR][kNR];
#pragma GCC unroll 6
    for (size_t i = 0; i < kMR; ++i) {
      _mm256_store_ps(tile[i], acc[i][0]);
      _mm256_store_ps(tile[i] + 8, acc[i][1]);
    }
    for (size_t i = 0; i < mr; ++i)
      for (size_t j = 0; j < nr; ++j) out[i * ldo + j] = tile[i][j];
  }
};

struct ConvTileAvx512 {
  static constexpr size_t kMR = 12, kNR = 32;
  __attribute__((target("avx512f,avx512vl,avx2,fma"))) static void run(size_t taps, size_t cin, const float* const* rows,
                                                                       const float* w, const float* bias, float* out,
                                                                       size_t ldo, size_t mr, size_t nr) {
    __m512 acc[kMR][2];
    const __m512 bias0 = _mm512_loadu_ps(bias), bias1 = _mm512_loadu_ps(bias + 16);
    // The output tile is written after the whole window sum: ask for its lines now.
    for (size_t i = 0; i < mr; ++i) {
      __builtin_prefetch(out + i * ldo, 1, 3);
      __builtin_prefetch(out + i * ldo + 16, 1, 3);
    }
#pragma GCC unroll 12
    for (size_t i = 0; i < kMR; ++i) {
      acc[i][0] = bias0;
      acc[i][1] = bias1;
    }
    for (size_t t = 0; t < taps; ++t, rows += kMR) {
      const float* r[kMR];
#pragma GCC unroll 12
      for (size_t i = 0; i < kMR; ++i) r[i] = rows[i];
#pragma GCC unroll 2
      for (size_t c = 0; c < cin; ++c, w += kNR) {
        const __m512 w0 = _mm512_load_ps(w), w1 = _mm512_load_ps(w + 16);
#pragma GCC unroll 12
        for (size_t i = 0; i < kMR; ++i) {
          const __m512 x = _mm512_set1_ps(r[i][c]);
          acc[i][0] = _mm512_fmadd_ps(x, w0, acc[i][0]);
          acc[i][1] = _mm512_fmadd_ps(x, w1, acc[i][1]);
        }
      }
    }
    const __mmask16 m0 = nr >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << nr) - 1);
    const __mmask16 m1 = nr >= 32 ? __mmask16(0xFFFF) : nr <= 16 ? __mmask16(0) : __mmask16((1u << (nr - 16)) - 1);
#pragma GCC unroll 12
    for (size_t i = 0; i < kMR; ++i) {
      if (i >= mr) break;
      _mm512_mask_storeu_ps(out + i * ldo, m0, acc[i][0]);
      _mm512_mask_storeu_ps(out + i * ldo + 16, m1, acc[i][1]);
    }
  }
};

#endif

}  // namespace
}  // namespace oprig::opsuite
