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
// Before including, a shader defines the element loaders
//   float oprig_gemm_a(uint index);  float oprig_gemm_b(uint index);
// (index into the storage of A and B: fp32 words, fp16 in pairs, or a
// column matrix computed on the fly). oprig_gemm_tile() leaves this
// invocation's MWI x NWI results in oprig_gemm_acc.
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

shared float oprig_gemm_as[kGemmKwg * kGemmAStride];
shared float oprig_gemm_bs[kGemmKwg * kGemmBStride];
float oprig_gemm_acc[kGemmMwi * kGemmNwi];
float oprig_gemm_a_next[kGemmAPer];
float oprig_gemm_b_next[kGemmBPer];

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

// This invocation's elements of the slice of A (is_a) or B into registers,
// zeros outside k_left x x_left (the tails).
void oprig_gemm_fetch(bool is_a, uint base, uint ld, bool k_contiguous, uint k0, uint x0, uint k_left, uint x_left) {
  uint width = is_a ? kGemmMwg : kGemmNwg;
  [[unroll]] for (uint r = 0u; r < (is_a ? kGemmAPer : kGemmBPer); ++r) {
    uvec2 s = oprig_gemm_slot(r, k_contiguous, width);
    uint index = base + (k_contiguous ? (x0 + s.y) * ld + k0 + s.x : (k0 + s.x) * ld + x0 + s.y);
    bool inside = s.x < k_left && s.y < x_left;
    if (is_a)
      oprig_gemm_a_next[r] = inside ? oprig_gemm_a(index) : 0.0;
    else
      oprig_gemm_b_next[r] = inside ? oprig_gemm_b(index) : 0.0;
  }
}

// The fetched elements into the k-major shared tiles.
void oprig_gemm_put() {
  [[unroll]] for (uint r = 0u; r < kGemmAPer; ++r) {
    uvec2 s = oprig_gemm_slot(r, !kGemmTransA, kGemmMwg);
    oprig_gemm_as[s.x * kGemmAStride + s.y] = oprig_gemm_a_next[r];
  }
  [[unroll]] for (uint r = 0u; r < kGemmBPer; ++r) {
    uvec2 s = oprig_gemm_slot(r, kGemmTransB, kGemmNwg);
    oprig_gemm_bs[s.x * kGemmBStride + s.y] = oprig_gemm_b_next[r];
  }
}

// oprig_gemm_acc[i * NWI + j] = sum over k of A(m0 + row(i), k) B(k, n0 + col(j))
// for the tile at (m0, n0) of the m x n product of the matrices at a_base
// and b_base. Every invocation of the work-group must call it (barriers).
void oprig_gemm_tile(uint a_base, uint lda, uint b_base, uint ldb, uint m, uint n, uint k, uint m0, uint n0) {
  uint rows[kGemmMwi], cols[kGemmNwi];
  [[unroll]] for (uint i = 0u; i < kGemmMwi; ++i) rows[i] = oprig_gemm_row(i);
  [[unroll]] for (uint j = 0u; j < kGemmNwi; ++j) cols[j] = oprig_gemm_col(j);
  [[unroll]] for (uint e = 0u; e < kGemmMwi * kGemmNwi; ++e) oprig_gemm_acc[e] = 0.0;
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
      float av[kGemmMwi], bv[kGemmNwi];
      [[unroll]] for (uint i = 0u; i < kGemmMwi; ++i) av[i] = oprig_gemm_as[kk * kGemmAStride + rows[i]];
      [[unroll]] for (uint j = 0u; j < kGemmNwi; ++j) bv[j] = oprig_gemm_bs[kk * kGemmBStride + cols[j]];
      [[unroll]] for (uint i = 0u; i < kGemmMwi; ++i)
        [[unroll]] for (uint j = 0u; j < kGemmNwi; ++j)
          oprig_gemm_acc[i * kGemmNwi + j] = fma(av[i], bv[j], oprig_gemm_acc[i * kGemmNwi + j]);
    }
  }
}

#endif
