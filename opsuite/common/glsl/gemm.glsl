// A tiled GEMM building block for compute shaders, C = A B with fp32
// accumulation: the GLSL twin of common/opencl/gemm.cl (the same tiling,
// staging and work-item layout; read its header), with the tile as
// specialization constants the host sets from common/gemm_tiles.hpp:
//   constant 1: bit 0 A transposed, bit 1 B transposed (BLAS storage:
//               A(m, k) = A^T ? a[k lda + m] : a[m lda + k]; B likewise),
//               bit 2 prefetch the next slice into registers
//   constant 2: MWG | NWG << 16    constant 3: KWG | PAD << 16
//   constant 4: VWM | VWN << 8     constant 5: MDIMC    constant 6: NDIMC
// and the work-group NDIMC x MDIMC (x = n). Constant 7 is the includer's.
//
// Before including, a shader defines the loaders and the widening
//   uint oprig_gemm_a(uint index);  uint oprig_gemm_b(uint index);
//   bool oprig_gemm_high(uint index);
//   float oprig_gemm_widen(uint word, bool high);
// (index: an element of the storage of A or B; a loader returns the 32-bit
// word as stored that holds it, high says it is the word's upper fp16 half,
// widen makes its fp32 value; a word 0 is +0 in either half). The prefetched
// slice stays in registers as those words, untouched, and is widened only
// on its way to shared memory, after the arithmetic on the current slice:
// the loads stay in flight meanwhile (any instruction on a loaded value,
// even picking its half, waits for the load). oprig_gemm_tile() leaves this
// invocation's MWI x NWI results in oprig_gemm_acc[i * kGemmMaxWi + j].
//
// Register arrays are sized by literal maxima (kGemmMaxWi, kGemmMaxPer: the
// host's tiles stay within them: GemmTiles::valid) and every loop
// over them runs to the literal and skips the steps past the tile's own
// count (a spec constant the driver folds). So spirv-opt unrolls them when
// the shader is built, the arrays are plain values in the SPIR-V, and no
// driver has to unroll a loop over spec-constant bounds to keep them in
// registers: a driver that did not would put them in local memory (the
// likely cause of FP16 MatMul at 2048^3 running 16 times slower than FP32 on
// an H100, where the larger tile's conversions and stores made the loops too
// big for the driver to unroll).
//
// Used by MatMul (matmul/vulkan.comp); Conv2D's im2col path can use it too.
#ifndef OPRIG_GEMM_GLSL
#define OPRIG_GEMM_GLSL

#extension GL_EXT_control_flow_attributes : require

layout(constant_id = 1) const uint kGemmLayout = 0u;
layout(constant_id = 2) const uint kGemmTile = 32u | (32u << 16);
layout(constant_id = 3) const uint kGemmSlice = 16u;
layout(constant_id = 4) const uint kGemmVectors = 1u | (1u << 8);
layout(constant_id = 5) const uint kGemmMdimc = 8u;
layout(constant_id = 6) const uint kGemmNdimc = 8u;
layout(local_size_x_id = 6, local_size_y_id = 5) in;

const bool kGemmTransA = (kGemmLayout & 1u) != 0u;
const bool kGemmTransB = (kGemmLayout & 2u) != 0u;
const bool kGemmPrefetch = (kGemmLayout & 4u) != 0u;
const uint kGemmKwg = kGemmSlice & 0xffffu;
const uint kGemmPad = kGemmSlice >> 16;
const uint kGemmMwg = kGemmTile & 0xffffu;
const uint kGemmNwg = kGemmTile >> 16;
const uint kGemmVwm = kGemmVectors & 0xffu;
const uint kGemmVwn = kGemmVectors >> 8;
const uint kGemmMwi = kGemmMwg / kGemmMdimc;
const uint kGemmNwi = kGemmNwg / kGemmNdimc;
const uint kGemmThreads = kGemmMdimc * kGemmNdimc;
// Elements of a slice each invocation stages (the host's tiles divide evenly).
const uint kGemmAPer = kGemmKwg * kGemmMwg / kGemmThreads;
const uint kGemmBPer = kGemmKwg * kGemmNwg / kGemmThreads;
// Both local tiles k-major, PAD floats after each row of one k.
const uint kGemmAStride = kGemmMwg + kGemmPad;
const uint kGemmBStride = kGemmNwg + kGemmPad;
// The most any tile takes (GemmTiles::kMaxWi, kMaxPer in gemm_tiles.hpp).
const uint kGemmMaxWi = 8u;
const uint kGemmMaxPer = 16u;

shared float oprig_gemm_as[kGemmKwg * kGemmAStride];
shared float oprig_gemm_bs[kGemmKwg * kGemmBStride];
float oprig_gemm_acc[kGemmMaxWi * kGemmMaxWi];
uint oprig_gemm_a_next[kGemmMaxPer];
uint oprig_gemm_b_next[kGemmMaxPer];
uint oprig_gemm_a_high = 0u, oprig_gemm_b_high = 0u;  // bit r: element r is its word's high half

// This invocation's row of accumulator row i, and column of accumulator
// column j, within the work-group's tile.
uint oprig_gemm_row(uint i) {
  return (i / kGemmVwm) * (kGemmMdimc * kGemmVwm) + gl_LocalInvocationID.y * kGemmVwm + i % kGemmVwm;
}
uint oprig_gemm_col(uint j) {
  return (j / kGemmVwn) * (kGemmNdimc * kGemmVwn) + gl_LocalInvocationID.x * kGemmVwn + j % kGemmVwn;
}

// A slice is KWG x `width` (width: MWG of A, NWG of B) at k0, x0 of a
// matrix whose element (x, k) is at base + x ld + k when k_contiguous, else
// base + k ld + x. Invocation t stages its elements t, t + THREADS, ...:
// element e's (k, x) within the slice, consecutive invocations on
// consecutive addresses.
uvec2 oprig_gemm_slot(uint r, bool k_contiguous, uint width) {
  uint e = gl_LocalInvocationID.y * kGemmNdimc + gl_LocalInvocationID.x + r * kGemmThreads;
  return k_contiguous ? uvec2(e % kGemmKwg, e / kGemmKwg) : uvec2(e / width, e % width);
}

// The words holding this invocation's elements of the slice of A (is_a) or
// B into registers, zeros outside k_left x x_left (the tails).
void oprig_gemm_fetch(bool is_a, uint base, uint ld, bool k_contiguous, uint k0, uint x0, uint k_left, uint x_left) {
  uint width = is_a ? kGemmMwg : kGemmNwg;
  uint high = 0u;
  [[unroll]] for (uint r = 0u; r < kGemmMaxPer; ++r) {
    if (r < (is_a ? kGemmAPer : kGemmBPer)) {
      uvec2 s = oprig_gemm_slot(r, k_contiguous, width);
      uint index = base + (k_contiguous ? (x0 + s.y) * ld + k0 + s.x : (k0 + s.x) * ld + x0 + s.y);
      bool inside = s.x < k_left && s.y < x_left;
      if (is_a)
        oprig_gemm_a_next[r] = inside ? oprig_gemm_a(index) : 0u;
      else
        oprig_gemm_b_next[r] = inside ? oprig_gemm_b(index) : 0u;
      high |= oprig_gemm_high(index) ? 1u << r : 0u;
    }
  }
  if (is_a)
    oprig_gemm_a_high = high;
  else
    oprig_gemm_b_high = high;
}

// The fetched elements, widened, into the k-major shared tiles.
void oprig_gemm_put() {
  [[unroll]] for (uint r = 0u; r < kGemmMaxPer; ++r) {
    if (r < kGemmAPer) {
      uvec2 s = oprig_gemm_slot(r, !kGemmTransA, kGemmMwg);
      oprig_gemm_as[s.x * kGemmAStride + s.y] =
          oprig_gemm_widen(oprig_gemm_a_next[r], (oprig_gemm_a_high & (1u << r)) != 0u);
    }
  }
  [[unroll]] for (uint r = 0u; r < kGemmMaxPer; ++r) {
    if (r < kGemmBPer) {
      uvec2 s = oprig_gemm_slot(r, kGemmTransB, kGemmNwg);
      oprig_gemm_bs[s.x * kGemmBStride + s.y] =
          oprig_gemm_widen(oprig_gemm_b_next[r], (oprig_gemm_b_high & (1u << r)) != 0u);
    }
  }
}

// oprig_gemm_acc[i * kGemmMaxWi + j] = sum over k of A(m0 + row(i), k) B(k, n0 + col(j))
// for the tile at (m0, n0) of the m x n product of the matrices at a_base
// and b_base. Every invocation of the work-group must call it (barriers).
void oprig_gemm_tile(uint a_base, uint lda, uint b_base, uint ldb, uint m, uint n, uint k, uint m0, uint n0) {
  uint rows[kGemmMaxWi], cols[kGemmMaxWi];
  [[unroll]] for (uint i = 0u; i < kGemmMaxWi; ++i) rows[i] = oprig_gemm_row(i);
  [[unroll]] for (uint j = 0u; j < kGemmMaxWi; ++j) cols[j] = oprig_gemm_col(j);
  [[unroll]] for (uint e = 0u; e < kGemmMaxWi * kGemmMaxWi; ++e) oprig_gemm_acc[e] = 0.0;
  // With prefetch (GPU tiles) the next slice's global loads are in flight
  // while the current one is multiplied out of shared memory.
  if (kGemmPrefetch && k > 0u) {
    oprig_gemm_fetch(true, a_base, lda, !kGemmTransA, 0u, m0, k, m - m0);
    oprig_gemm_fetch(false, b_base, ldb, kGemmTransB, 0u, n0, k, n - n0);
  }
  for (uint k0 = 0u; k0 < k; k0 += kGemmKwg) {
    barrier();  // the previous slice has been read
    if (!kGemmPrefetch) {
      oprig_gemm_fetch(true, a_base, lda, !kGemmTransA, k0, m0, k - k0, m - m0);
      oprig_gemm_fetch(false, b_base, ldb, kGemmTransB, k0, n0, k - k0, n - n0);
    }
    oprig_gemm_put();
    barrier();
    uint k1 = k0 + kGemmKwg;
    if (kGemmPrefetch && k1 < k) {
      oprig_gemm_fetch(true, a_base, lda, !kGemmTransA, k1, m0, k - k1, m - m0);
      oprig_gemm_fetch(false, b_base, ldb, kGemmTransB, k1, n0, k - k1, n - n0);
    }
    for (uint kk = 0u; kk < kGemmKwg; ++kk) {
      float av[kGemmMaxWi], bv[kGemmMaxWi];
      [[unroll]] for (uint i = 0u; i < kGemmMaxWi; ++i)
        if (i < kGemmMwi) av[i] = oprig_gemm_as[kk * kGemmAStride + rows[i]];
      [[unroll]] for (uint j = 0u; j < kGemmMaxWi; ++j)
        if (j < kGemmNwi) bv[j] = oprig_gemm_bs[kk * kGemmBStride + cols[j]];
      [[unroll]] for (uint i = 0u; i < kGemmMaxWi; ++i)
        [[unroll]] for (uint j = 0u; j < kGemmMaxWi; ++j)
          if (i < kGemmMwi && j < kGemmNwi)
            oprig_gemm_acc[i * kGemmMaxWi + j] = fma(av[i], bv[j], oprig_gemm_acc[i * kGemmMaxWi + j]);
    }
  }
}

#endif
