// The innermost piece of the cpu MatMul: one register tile of C computed from
// a packed micro-panel of A (MR rows, k-major: a[k * MR + i]) and a packed
// micro-panel of B (NR columns, k-major: b[k * NR + j]), kc steps long.
// Each ISA has its own tile, chosen to keep every accumulator in a register
// with room for the B vectors and one broadcast of A, and its own width of
// the B block kept in L2 (kBlockColumns, gemm_blocked.hpp):
//   AVX-512  12 x 32: 24 zmm accumulators, 2 B loads and 12 broadcasts per k
//   AVX2      6 x 16: 12 ymm accumulators (the Haswell-era classic)
//   scalar    4 x  8: plain C the compiler vectorises at the baseline (SSE2)
// The vector tiles accumulate every k with one FMA in the same order, so
// AVX-512 and AVX2 give the same bits; the scalar tile multiplies and adds
// separately (the baseline has no FMA) and differs by rounding only.
//
// Contract of every micro-kernel: C[i][j] (i < mr, j < nr; rows ldc apart)
// becomes (accumulate ? C[i][j] : 0) + sum_k a[k][i] * b[k][j]; elements
// outside mr x nr are neither read nor written. Packed panels are zero-padded
// to the full tile, so partial tiles cost a full tile's arithmetic.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstddef>

namespace oprig::opsuite {
namespace {

struct MicroTileScalar {
  static constexpr size_t kMR = 4, kNR = 8, kBlockColumns = 128;
  static void run(size_t kc, const float* a, const float* b, float* c, size_t ldc, bool accumulate, size_t mr,
                  size_t nr) {
    float acc[kMR][kNR] = {};
    for (size_t k = 0; k < kc; ++k, a += kMR, b += kNR)
      for (size_t i = 0; i < kMR; ++i)
        for (size_t j = 0; j < kNR; ++j) acc[i][j] += a[i] * b[j];
    for (size_t i = 0; i < mr; ++i)
      for (size_t j = 0; j < nr; ++j) c[i * ldc + j] = (accumulate ? c[i * ldc + j] : 0.0f) + acc[i][j];
  }
};

#if defined(__x86_64__)

struct MicroTileAvx2 {
  static constexpr size_t kMR = 6, kNR = 16, kBlockColumns = 192;
  __attribute__((target("avx2,fma"))) static void run(size_t kc, const float* a, const float* b, float* c,
                                                      size_t ldc, bool accumulate, size_t mr, size_t nr) {
    __m256 acc[kMR][2];
#pragma GCC unroll 6
    for (size_t i = 0; i < kMR; ++i) acc[i][0] = acc[i][1] = _mm256_setzero_ps();
    // C's tile is read back only after the k loop: fetch it now, behind the arithmetic.
    for (size_t i = 0; i < mr; ++i) _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc), _MM_HINT_T0);
#pragma GCC unroll 2
    for (size_t k = 0; k < kc; ++k, a += kMR, b += kNR) {
      const __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
#pragma GCC unroll 6
      for (size_t i = 0; i < kMR; ++i) {
        const __m256 ai = _mm256_broadcast_ss(a + i);
        acc[i][0] = _mm256_fmadd_ps(ai, b0, acc[i][0]);
        acc[i][1] = _mm256_fmadd_ps(ai, b1, acc[i][1]);
      }
    }
    if (mr == kMR && nr == kNR) {
#pragma GCC unroll 6
      for (size_t i = 0; i < kMR; ++i) {
        float* row = c + i * ldc;
        __m256 lo = acc[i][0], hi = acc[i][1];
        if (accumulate) {
          lo = _mm256_add_ps(_mm256_loadu_ps(row), lo);
          hi = _mm256_add_ps(_mm256_loadu_ps(row + 8), hi);
        }
        _mm256_storeu_ps(row, lo);
        _mm256_storeu_ps(row + 8, hi);
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
      for (size_t j = 0; j < nr; ++j) c[i * ldc + j] = (accumulate ? c[i * ldc + j] : 0.0f) + tile[i][j];
  }
};

struct MicroTileAvx512 {
  static constexpr size_t kMR = 12, kNR = 32, kBlockColumns = 480;
  __attribute__((target("avx512f,avx512vl,avx2,fma"))) static void run(size_t kc, const float* a, const float* b,
                                                                       float* c, size_t ldc, bool accumulate,
                                                                       size_t mr, size_t nr) {
    __m512 acc[kMR][2];
#pragma GCC unroll 12
    for (size_t i = 0; i < kMR; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
    // C's tile is read back only after the k loop: fetch it now, behind the arithmetic.
    for (size_t i = 0; i < mr; ++i) {
      _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + 16), _MM_HINT_T0);
    }
#pragma GCC unroll 2
    for (size_t k = 0; k < kc; ++k, a += kMR, b += kNR) {
      const __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
#pragma GCC unroll 12
      for (size_t i = 0; i < kMR; ++i) {
        const __m512 ai = _mm512_set1_ps(a[i]);
        acc[i][0] = _mm512_fmadd_ps(ai, b0, acc[i][0]);
        acc[i][1] = _mm512_fmadd_ps(ai, b1, acc[i][1]);
      }
    }
    // Partial tiles: masks for the columns, a bound for the rows.
    const __mmask16 m0 = nr >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << nr) - 1);
    const __mmask16 m1 = nr >= 32 ? __mmask16(0xFFFF) : nr <= 16 ? __mmask16(0) : __mmask16((1u << (nr - 16)) - 1);
#pragma GCC unroll 12
    for (size_t i = 0; i < kMR; ++i) {
      if (i >= mr) break;
      float* row = c + i * ldc;
      __m512 lo = acc[i][0], hi = acc[i][1];
      if (accumulate) {
        lo = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, row), lo);
        hi = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, row + 16), hi);
      }
      _mm512_mask_storeu_ps(row, m0, lo);
      _mm512_mask_storeu_ps(row + 16, m1, hi);
    }
  }
};

#endif

}  // namespace
}  // namespace oprig::opsuite
