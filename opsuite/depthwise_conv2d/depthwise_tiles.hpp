// The innermost piece of the cpu DepthwiseConv2D: a tile of PX output pixels
// of one output row x all output channels, vectorised along the channels
// (NHWC keeps them adjacent in the input, the weights and the output).
//   AVX-512  8 pixels x 32 channels: 16 zmm accumulators
//   AVX2     6 pixels x 16 channels: 12 ymm accumulators
//   scalar   one pixel and channel at a time
// Input addresses are computed from the geometry: a whole tile whose every
// tap lies inside the image takes the path without checks; the tiles at the
// left and right edges (and the last, partial one) check each pixel and skip
// the taps that fall in the padding, as the reference does. Kernel rows that
// fall in the padding are skipped whole. The commonest case, a 3-wide kernel
// at stride 1 and multiplier 1, slides along the row instead: each input pixel
// is loaded once and multiplied into the (up to) three outputs that use it,
// PX + 2 loads per kernel row instead of 3 PX; input pixels in the padding
// are skipped, so it serves the edge tiles too.
// With a channel multiplier M > 1, output channel o reads input channel o / M:
// a vector of output channels loads the input channels it needs once and
// spreads them over its lanes with one permute (indices precomputed per block
// of channels in ChannelBlocks).
// The vector tiles accumulate from the bias with one FMA per tap in the same
// order, so AVX-512 and AVX2 agree bit for bit; the scalar one multiplies and
// adds separately (the baseline has no FMA).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace oprig::opsuite {
namespace {

// What a tile needs to know of the convolution (element counts, NHWC).
struct DepthwiseShape {
  const float* in;        // [batch, height, width, channels]
  const float* weights;   // [taps][c_out]
  const float* bias;      // [c_out], zeros when the op has none
  int64_t height = 0, width = 0, channels = 0, c_out = 0, multiplier = 1;
  int64_t kh = 0, kw = 0, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1, pad_top = 0, pad_left = 0;
};

// One tile: output row (n, oy), pixels [ox0, ox0 + px).
struct TileSpot {
  int64_t n, oy, ox0;
  size_t px;
};

// A 3-wide kernel at stride 1 and dilation 1 on the input channels as they
// are (multiplier 1): the sliding path applies.
inline bool slides_3_wide(const DepthwiseShape& s) {
  return s.kw == 3 && s.stride_w == 1 && s.dilation_w == 1 && s.multiplier == 1;
}

// Whether every tap of a full tile of `pixels` lies inside the image.
inline bool tile_inside(const DepthwiseShape& s, const TileSpot& t, size_t pixels) {
  const int64_t first = t.ox0 * s.stride_w - s.pad_left;
  const int64_t last = (t.ox0 + static_cast<int64_t>(pixels) - 1) * s.stride_w - s.pad_left + (s.kw - 1) * s.dilation_w;
  return t.px == pixels && first >= 0 && last < s.width;
}

// For the multiplier > 1 paths: per block of `width` output channels starting
// at o = width * j, the first input channel it reads (o / M), how many input
// channels from there exist (the load mask) and, per lane, which of them.
struct ChannelBlocks {
  std::vector<uint32_t> base, count;
  std::vector<int32_t> lanes;  // width per block

  void plan(size_t c_out, size_t channels, size_t multiplier, size_t width) {
    const size_t blocks = (c_out + width - 1) / width;
    base.assign(blocks, 0);
    count.assign(blocks, 0);
    lanes.assign(blocks * width, 0);
    for (size_t j = 0; j < blocks; ++j) {
      const size_t first = j * width / multiplier;
      base[j] = static_cast<uint32_t>(first);
      count[j] = static_cast<uint32_t>(std::min(width, channels - first));
      for (size_t l = 0; l < width; ++l) {
        const size_t o = std::min(j * width + l, c_out - 1);  // lanes past c_out: any valid index
        lanes[j * width + l] = static_cast<int32_t>(o / multiplier - first);
      }
    }
  }
};

struct DepthwiseTileScalar {
  static constexpr size_t kPixels = 1, kLanes = 1;
  static void run(const DepthwiseShape& s, const ChannelBlocks&, const TileSpot& t, float* out) {
    for (int64_t o = 0; o < s.c_out; ++o) {
      float acc = s.bias[o];
      const int64_t c = o / s.multiplier;
      for (int64_t ky = 0; ky < s.kh; ++ky) {
        const int64_t iy = t.oy * s.stride_h - s.pad_top + ky * s.dilation_h;
        if (iy < 0 || iy >= s.height) continue;
        for (int64_t kx = 0; kx < s.kw; ++kx) {
          const int64_t ix = t.ox0 * s.stride_w - s.pad_left + kx * s.dilation_w;
          if (ix < 0 || ix >= s.width) continue;
          acc += s.in[((t.n * s.height + iy) * s.width + ix) * s.channels + c] * s.weights[(ky * s.kw + kx) * s.c_out + o];
        }
      }
      out[o] = acc;
    }
  }
};

#if defined(__x86_64__)

struct DepthwiseTileAvx512 {
  static constexpr size_t kPixels = 8, kLanes = 16;
  __attribute__((target("avx512f,avx512vl,avx2,fma"))) static void run(const DepthwiseShape& s,
                                                                       const ChannelBlocks& blocks, const TileSpot& t,
                                                                       float* out) {
    if (slides_3_wide(s)) return slide3(s, t, out);
    const bool inside = tile_inside(s, t, kPixels);
    if (s.multiplier == 1) return inside ? tile<false, true>(s, blocks, t, out) : tile<false, false>(s, blocks, t, out);
    return inside ? tile<true, true>(s, blocks, t, out) : tile<true, false>(s, blocks, t, out);
  }

 private:
  // Input pixel j of a kernel row (j = p + kx) feeds output p = j - kx with
  // weight kx; walking j upwards, every output still gets kx = 0, 1, 2 in
  // that order, as in tile(), so both paths give the same bits.
  __attribute__((target("avx512f,avx512vl,avx2,fma"))) static void slide3(const DepthwiseShape& s, const TileSpot& t,
                                                                          float* out) {
    for (int64_t o = 0; o < s.c_out; o += 2 * kLanes) {
      const __mmask16 m0 = mask_of(s.c_out - o), m1 = mask_of(s.c_out - o - static_cast<int64_t>(kLanes));
      __m512 acc[kPixels][2];
      const __m512 b0 = _mm512_maskz_loadu_ps(m0, s.bias + o), b1 = _mm512_maskz_loadu_ps(m1, s.bias + o + kLanes);
#pragma GCC unroll 8
      for (size_t p = 0; p < kPixels; ++p) {
        acc[p][0] = b0;
        acc[p][1] = b1;
      }
      for (int64_t ky = 0; ky < s.kh; ++ky) {
        const int64_t iy = t.oy * s.stride_h - s.pad_top + ky * s.dilation_h;
        if (iy < 0 || iy >= s.height) continue;  // a kernel row in the padding adds nothing
        const float* w = s.weights + ky * 3 * s.c_out + o;
        __m512 w0[3], w1[3];
#pragma GCC unroll 3
        for (int kx = 0; kx < 3; ++kx) {
          w0[kx] = _mm512_maskz_loadu_ps(m0, w + kx * s.c_out);
          w1[kx] = _mm512_maskz_loadu_ps(m1, w + kx * s.c_out + kLanes);
        }
        const float* row = s.in + (t.n * s.height + iy) * s.width * s.channels + o;
        const int64_t ix0 = t.ox0 - s.pad_left;
#pragma GCC unroll 10
        for (size_t j = 0; j < kPixels + 2; ++j) {
          const int64_t ix = ix0 + static_cast<int64_t>(j);
          if (ix < 0 || ix >= s.width) continue;  // padding, or past the row: adds nothing
          const float* pixel = row + ix * s.channels;
          const __m512 x0 = _mm512_maskz_loadu_ps(m0, pixel), x1 = _mm512_maskz_loadu_ps(m1, pixel + kLanes);
#pragma GCC unroll 3
          for (size_t kx = 0; kx < 3; ++kx) {
            if (j < kx || j - kx >= kPixels) continue;
            acc[j - kx][0] = _mm512_fmadd_ps(x0, w0[kx], acc[j - kx][0]);
            acc[j - kx][1] = _mm512_fmadd_ps(x1, w1[kx], acc[j - kx][1]);
          }
        }
      }
#pragma GCC unroll 8
      for (size_t p = 0; p < kPixels; ++p) {
        if (p >= t.px) break;
        _mm512_mask_storeu_ps(out + p * s.c_out + o, m0, acc[p][0]);
        _mm512_mask_storeu_ps(out + p * s.c_out + o + kLanes, m1, acc[p][1]);
      }
    }
  }

  static __attribute__((target("avx512f,avx512vl,avx2,fma"))) __mmask16 mask_of(int64_t n) {
    return n >= static_cast<int64_t>(kLanes) ? __mmask16(0xFFFF) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1);
  }

  // The input vector for output channels [o, o + 16) at one input pixel.
  template <bool kSpread>
  __attribute__((target("avx512f,avx512vl,avx2,fma"), always_inline)) static inline __m512 input(
      const float* pixel, int64_t o, __mmask16 m, const ChannelBlocks& blocks) {
    if constexpr (!kSpread) {
      return _mm512_maskz_loadu_ps(m, pixel + o);
    } else {
      const size_t j = static_cast<size_t>(o) / kLanes;
      const __m512 v = _mm512_maskz_loadu_ps(mask_of(blocks.count[j]), pixel + blocks.base[j]);
      // The masked form with every lane set: GCC 12 warns that the plain form's
      // (unused) pass-through operand may be uninitialised.
      return _mm512_mask_permutexvar_ps(v, __mmask16(0xFFFF), _mm512_loadu_si512(blocks.lanes.data() + j * kLanes), v);
    }
  }

  template <bool kSpread, bool kInside>
  __attribute__((target("avx512f,avx512vl,avx2,fma"))) static void tile(const DepthwiseShape& s,
                                                                        const ChannelBlocks& blocks, const TileSpot& t,
                                                                        float* out) {
    const int64_t pixel_step = s.stride_w * s.channels;
    for (int64_t o = 0; o < s.c_out; o += 2 * kLanes) {
      const __mmask16 m0 = mask_of(s.c_out - o), m1 = mask_of(s.c_out - o - static_cast<int64_t>(kLanes));
      __m512 acc[kPixels][2];
      const __m512 b0 = _mm512_maskz_loadu_ps(m0, s.bias + o), b1 = _mm512_maskz_loadu_ps(m1, s.bias + o + kLanes);
#pragma GCC unroll 8
      for (size_t p = 0; p < kPixels; ++p) {
        acc[p][0] = b0;
        acc[p][1] = b1;
      }
      for (int64_t ky = 0; ky < s.kh; ++ky) {
        const int64_t iy = t.oy * s.stride_h - s.pad_top + ky * s.dilation_h;
        if (iy < 0 || iy >= s.height) continue;  // a kernel row in the padding adds nothing
        const float* row = s.in + (t.n * s.height + iy) * s.width * s.channels;
        for (int64_t kx = 0; kx < s.kw; ++kx) {
          const float* w = s.weights + (ky * s.kw + kx) * s.c_out + o;
          const __m512 w0 = _mm512_maskz_loadu_ps(m0, w), w1 = _mm512_maskz_loadu_ps(m1, w + kLanes);
          const int64_t ix0 = t.ox0 * s.stride_w - s.pad_left + kx * s.dilation_w;
#pragma GCC unroll 8
          for (size_t p = 0; p < kPixels; ++p) {
            if constexpr (!kInside) {
              const int64_t ix = ix0 + static_cast<int64_t>(p) * s.stride_w;
              if (p >= t.px || ix < 0 || ix >= s.width) continue;
            }
            const float* pixel = row + ix0 * s.channels + static_cast<int64_t>(p) * pixel_step;
            acc[p][0] = _mm512_fmadd_ps(input<kSpread>(pixel, o, m0, blocks), w0, acc[p][0]);
            if (m1) acc[p][1] = _mm512_fmadd_ps(input<kSpread>(pixel, o + kLanes, m1, blocks), w1, acc[p][1]);
          }
        }
      }
#pragma GCC unroll 8
      for (size_t p = 0; p < kPixels; ++p) {
        if (p >= t.px) break;
        _mm512_mask_storeu_ps(out + p * s.c_out + o, m0, acc[p][0]);
        _mm512_mask_storeu_ps(out + p * s.c_out + o + kLanes, m1, acc[p][1]);
      }
    }
  }
};

struct DepthwiseTileAvx2 {
  static constexpr size_t kPixels = 6, kLanes = 8;
  __attribute__((target("avx2,fma"))) static void run(const DepthwiseShape& s, const ChannelBlocks& blocks,
                                                      const TileSpot& t, float* out) {
    if (slides_3_wide(s)) return slide3(s, t, out);
    const bool inside = tile_inside(s, t, kPixels);
    if (s.multiplier == 1) return inside ? tile<false, true>(s, blocks, t, out) : tile<false, false>(s, blocks, t, out);
    return inside ? tile<true, true>(s, blocks, t, out) : tile<true, false>(s, blocks, t, out);
  }

 private:
  template <int kHalf>
  __attribute__((target("avx2,fma"), always_inline)) static inline void slide3_half(const DepthwiseShape& s,
                                                                                   const float* w, const float* row,
                                                                                   int64_t ix0, __m256i m,
                                                                                   __m256 (&acc)[6][2]) {
    const __m256 w0 = _mm256_maskload_ps(w + kHalf * kLanes, m);
    const __m256 w1 = _mm256_maskload_ps(w + s.c_out + kHalf * kLanes, m);
    const __m256 w2 = _mm256_maskload_ps(w + 2 * s.c_out + kHalf * kLanes, m);
#pragma GCC unroll 8
    for (size_t j = 0; j < kPixels + 2; ++j) {
      const int64_t ix = ix0 + static_cast<int64_t>(j);
      if (ix < 0 || ix >= s.width) continue;  // padding, or past the row: adds nothing
      const __m256 x = _mm256_maskload_ps(row + ix * s.channels + kHalf * kLanes, m);
      if (j < kPixels) acc[j][kHalf] = _mm256_fmadd_ps(x, w0, acc[j][kHalf]);
      if (j >= 1 && j - 1 < kPixels) acc[j - 1][kHalf] = _mm256_fmadd_ps(x, w1, acc[j - 1][kHalf]);
      if (j >= 2) acc[j - 2][kHalf] = _mm256_fmadd_ps(x, w2, acc[j - 2][kHalf]);
    }
  }

  // As DepthwiseTileAvx512::slide3.
  __attribute__((target("avx2,fma"))) static void slide3(const DepthwiseShape& s, const TileSpot& t, float* out) {
    for (int64_t o = 0; o < s.c_out; o += 2 * kLanes) {
      const bool second = s.c_out - o > static_cast<int64_t>(kLanes);
      const __m256i m0 = mask_of(s.c_out - o), m1 = mask_of(s.c_out - o - static_cast<int64_t>(kLanes));
      __m256 acc[kPixels][2];
      const __m256 b0 = _mm256_maskload_ps(s.bias + o, m0), b1 = _mm256_maskload_ps(s.bias + o + kLanes, m1);
#pragma GCC unroll 6
      for (size_t p = 0; p < kPixels; ++p) {
        acc[p][0] = b0;
        acc[p][1] = b1;
      }
      for (int64_t ky = 0; ky < s.kh; ++ky) {
        const int64_t iy = t.oy * s.stride_h - s.pad_top + ky * s.dilation_h;
        if (iy < 0 || iy >= s.height) continue;  // a kernel row in the padding adds nothing
        const float* w = s.weights + ky * 3 * s.c_out + o;
        const float* row = s.in + (t.n * s.height + iy) * s.width * s.channels + o;
        // One half (8 channels) at a time: 12 accumulators + 3 weights + 1 input = 16 ymm.
        slide3_half<0>(s, w, row, t.ox0 - s.pad_left, m0, acc);
        if (second) slide3_half<1>(s, w, row, t.ox0 - s.pad_left, m1, acc);
      }
#pragma GCC unroll 6
      for (size_t p = 0; p < kPixels; ++p) {
        if (p >= t.px) break;
        _mm256_maskstore_ps(out + p * s.c_out + o, m0, acc[p][0]);
        _mm256_maskstore_ps(out + p * s.c_out + o + kLanes, m1, acc[p][1]);
      }
    }
  }

  // Lanes [0, n) of a mask vector set.
  static __attribute__((target("avx2,fma"))) __m256i mask_of(int64_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(std::clamp<int64_t>(n, 0, kLanes))),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }

  template <bool kSpread>
  __attribute__((target("avx2,fma"), always_inline)) static inline __m256 input(const float* pixel, int64_t o,
                                                                               __m256i m, const ChannelBlocks& blocks) {
    if constexpr (!kSpread) {
      return _mm256_maskload_ps(pixel + o, m);
    } else {
      const size_t j = static_cast<size_t>(o) / kLanes;
      const __m256 v = _mm256_maskload_ps(pixel + blocks.base[j], mask_of(blocks.count[j]));
      return _mm256_permutevar8x32_ps(
          v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blocks.lanes.data() + j * kLanes)));
    }
  }

  template <bool kSpread, bool kInside>
  __attribute__((target("avx2,fma"))) static void tile(const DepthwiseShape& s, const ChannelBlocks& blocks,
                                                       const TileSpot& t, float* out) {
    const int64_t pixel_step = s.stride_w * s.channels;
    for (int64_t o = 0; o < s.c_out; o += 2 * kLanes) {
      const bool second = s.c_out - o > static_cast<int64_t>(kLanes);
      const __m256i m0 = mask_of(s.c_out - o), m1 = mask_of(s.c_out - o - static_cast<int64_t>(kLanes));
      __m256 acc[kPixels][2];
      const __m256 b0 = _mm256_maskload_ps(s.bias + o, m0), b1 = _mm256_maskload_ps(s.bias + o + kLanes, m1);
#pragma GCC unroll 6
      for (size_t p = 0; p < kPixels; ++p) {
        acc[p][0] = b0;
        acc[p][1] = b1;
      }
      for (int64_t ky = 0; ky < s.kh; ++ky) {
        const int64_t iy = t.oy * s.stride_h - s.pad_top + ky * s.dilation_h;
        if (iy < 0 || iy >= s.height) continue;  // a kernel row in the padding adds nothing
        const float* row = s.in + (t.n * s.height + iy) * s.width * s.channels;
        for (int64_t kx = 0; kx < s.kw; ++kx) {
          const float* w = s.weights + (ky * s.kw + kx) * s.c_out + o;
          const __m256 w0 = _mm256_maskload_ps(w, m0), w1 = _mm256_maskload_ps(w + kLanes, m1);
          const int64_t ix0 = t.ox0 * s.stride_w - s.pad_left + kx * s.dilation_w;
#pragma GCC unroll 6
          for (size_t p = 0; p < kPixels; ++p) {
            if constexpr (!kInside) {
              const int64_t ix = ix0 + static_cast<int64_t>(p) * s.stride_w;
              if (p >= t.px || ix < 0 || ix >= s.width) continue;
            }
            const float* pixel = row + ix0 * s.channels + static_cast<int64_t>(p) * pixel_step;
            acc[p][0] = _mm256_fmadd_ps(input<kSpread>(pixel, o, m0, blocks), w0, acc[p][0]);
            if (second) acc[p][1] = _mm256_fmadd_ps(input<kSpread>(pixel, o + kLanes, m1, blocks), w1, acc[p][1]);
          }
        }
      }
#pragma GCC unroll 6
      for (size_t p = 0; p < kPixels; ++p) {
        if (p >= t.px) break;
        _mm256_maskstore_ps(out + p * s.c_out + o, m0, acc[p][0]);
        _mm256_maskstore_ps(out + p * s.c_out + o + kLanes, m1, acc[p][1]);
      }
    }
  }
};

#endif

}  // namespace
}  // namespace oprig::opsuite
