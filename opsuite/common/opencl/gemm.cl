// A tiled GEMM building block, C = A B with fp32 accumulation, in the
// design of CLBlast's xgemm (its code is not copied): the tile sizes are
// macros the host sets per device (common/gemm_tiles.hpp writes them as
// build options), never literals here. One work-group computes an
// OPRIG_GEMM_MWG x OPRIG_GEMM_NWG tile of C, staging OPRIG_GEMM_KWG-deep
// slices of A and B through local memory; its OPRIG_GEMM_NDIMC x
// OPRIG_GEMM_MDIMC work-items (local size x = n, y = m) each accumulate
// MWI x NWI outputs in registers: rows in chunks of OPRIG_GEMM_VWM
// contiguous rows, chunk c of work-item y at c * MDIMC * VWM + y * VWM
// (columns likewise with NDIMC, VWN), so local reads are contiguous within
// a chunk and conflict-free across work-items.
//
// Storage as BLAS names it: A(m, k) = OPRIG_GEMM_TRANS_A ? a[k lda + m] :
// a[m lda + k]; B(k, n) = OPRIG_GEMM_TRANS_B ? b[n ldb + k] : b[k ldb + n];
// elements of OPRIG_GEMM_T (float, or half read through vload_half when
// OPRIG_GEMM_HALF is 1). Both local tiles are k-major (row k holds the MWG
// or NWG values of one k, plus OPRIG_GEMM_PAD floats), so the compute loop
// reads each chunk as one aligned vector; staging walks global memory along
// its contiguous dimension (coalesced), and the padding spreads the
// transposing writes of a k-contiguous matrix over the banks. Elements
// outside the matrices (tails of M, N and K) are staged as zeros. With
// OPRIG_GEMM_PREFETCH the next slice is loaded into registers while the
// current one is multiplied; half elements stay in those registers as
// stored (ushort) and are widened only on their way to local memory, after
// that arithmetic, so nothing waits for the loads before it (a conversion
// right after the load does). Each output sums its products in k order
// whatever the tile, so every tile shape gives the same bits.
//
// Used by MatMul (matmul/opencl.cl); Conv2D's im2col path can use it too
// (weights as A with lda = Cin kh kw, the column matrix as B: C is then NCHW).
// Compiled only in programs built with the OPRIG_GEMM_* options.
#ifdef OPRIG_GEMM_MWG

#define OPRIG_GEMM_MWI (OPRIG_GEMM_MWG / OPRIG_GEMM_MDIMC)
#define OPRIG_GEMM_NWI (OPRIG_GEMM_NWG / OPRIG_GEMM_NDIMC)
#define OPRIG_GEMM_THREADS (OPRIG_GEMM_MDIMC * OPRIG_GEMM_NDIMC)
// Elements of a slice each work-item stages (the host's tiles divide evenly).
#define OPRIG_GEMM_A_PER (OPRIG_GEMM_KWG * OPRIG_GEMM_MWG / OPRIG_GEMM_THREADS)
#define OPRIG_GEMM_B_PER (OPRIG_GEMM_KWG * OPRIG_GEMM_NWG / OPRIG_GEMM_THREADS)
#define OPRIG_GEMM_A_STRIDE (OPRIG_GEMM_MWG + OPRIG_GEMM_PAD)
#define OPRIG_GEMM_B_STRIDE (OPRIG_GEMM_NWG + OPRIG_GEMM_PAD)
// Floats of the two local arrays the kernel declares and passes in.
#define OPRIG_GEMM_A_LOCAL (OPRIG_GEMM_KWG * OPRIG_GEMM_A_STRIDE)
#define OPRIG_GEMM_B_LOCAL (OPRIG_GEMM_KWG * OPRIG_GEMM_B_STRIDE)

// OPRIG_GEMM_R: an element in the prefetch registers; OPRIG_GEMM_WIDEN:
// element r of such registers as float.
#if OPRIG_GEMM_HALF
#define OPRIG_GEMM_T half
#define OPRIG_GEMM_R ushort
#define OPRIG_GEMM_LOAD(p, i) (((global const ushort*)(p))[i])
#define OPRIG_GEMM_WIDEN(regs, r) oprig_half_bits_to_float((regs)[r])  // fp16_bits.cl
#else
#define OPRIG_GEMM_T float
#define OPRIG_GEMM_R float
#define OPRIG_GEMM_LOAD(p, i) ((p)[i])
#define OPRIG_GEMM_WIDEN(regs, r) ((regs)[r])
#endif

// This work-item's row of accumulator row i, and column of accumulator
// column j, within the work-group's tile.
inline uint oprig_gemm_row(const uint i) {
  return (i / OPRIG_GEMM_VWM) * (OPRIG_GEMM_MDIMC * OPRIG_GEMM_VWM) + (uint)get_local_id(1) * OPRIG_GEMM_VWM +
         i % OPRIG_GEMM_VWM;
}
inline uint oprig_gemm_col(const uint j) {
  return (j / OPRIG_GEMM_VWN) * (OPRIG_GEMM_NDIMC * OPRIG_GEMM_VWN) + (uint)get_local_id(0) * OPRIG_GEMM_VWN +
         j % OPRIG_GEMM_VWN;
}

// A slice is KWG x `width` (width: MWG of A, NWG of B) at k0, x0 of a
// matrix whose element (x, k) is p[x ld + k] when k_contiguous, else
// p[k ld + x]. Work-item t stages its elements t, t + THREADS, ...: element
// e's (k, x) within the slice, consecutive work-items on consecutive
// addresses of global memory.
inline uint2 oprig_gemm_slot(const uint r, const bool k_contiguous, const uint width) {
  const uint e = (uint)get_local_id(1) * OPRIG_GEMM_NDIMC + (uint)get_local_id(0) + r * OPRIG_GEMM_THREADS;
  return k_contiguous ? (uint2)(e % OPRIG_GEMM_KWG, e / OPRIG_GEMM_KWG) : (uint2)(e / width, e % width);
}

// This work-item's `per` elements of the slice into registers, zeros
// outside k_left x x_left (the tails).
inline void oprig_gemm_fetch(global const OPRIG_GEMM_T* p, const uint ld, const bool k_contiguous, const uint k0,
                             const uint x0, const uint k_left, const uint x_left, const uint width, const uint per,
                             OPRIG_GEMM_R* regs) {
#pragma unroll
  for (uint r = 0; r < per; ++r) {
    const uint2 s = oprig_gemm_slot(r, k_contiguous, width);
    const uint at = k_contiguous ? (x0 + s.y) * ld + k0 + s.x : (k0 + s.x) * ld + x0 + s.y;
    regs[r] = s.x < k_left && s.y < x_left ? OPRIG_GEMM_LOAD(p, at) : (OPRIG_GEMM_R)0;  // +0 either way
  }
}

// The fetched elements, widened, into the k-major local tile.
inline void oprig_gemm_put(const OPRIG_GEMM_R* regs, const bool k_contiguous, const uint width, const uint per,
                           const uint stride, local float* tile) {
#pragma unroll
  for (uint r = 0; r < per; ++r) {
    const uint2 s = oprig_gemm_slot(r, k_contiguous, width);
    tile[s.x * stride + s.y] = OPRIG_GEMM_WIDEN(regs, r);
  }
}

// acc[i * NWI + j] = sum over k of A(m0 + row(i), k) B(k, n0 + col(j)), for
// the tile at (m0, n0) of the m x n result. Every work-item of the group
// must call it (it holds barriers); `as` and `bs` are the local arrays of
// OPRIG_GEMM_A_LOCAL and OPRIG_GEMM_B_LOCAL floats.
inline void oprig_gemm_tile(global const OPRIG_GEMM_T* a, const uint lda, global const OPRIG_GEMM_T* b,
                            const uint ldb, const uint m, const uint n, const uint k, const uint m0, const uint n0,
                            local float* as, local float* bs, float* acc) {
  uint rows[OPRIG_GEMM_MWI], cols[OPRIG_GEMM_NWI];
#pragma unroll
  for (uint i = 0; i < OPRIG_GEMM_MWI; ++i) rows[i] = oprig_gemm_row(i);
#pragma unroll
  for (uint j = 0; j < OPRIG_GEMM_NWI; ++j) cols[j] = oprig_gemm_col(j);
#pragma unroll
  for (uint e = 0; e < OPRIG_GEMM_MWI * OPRIG_GEMM_NWI; ++e) acc[e] = 0.0f;
  // With OPRIG_GEMM_PREFETCH (GPU tiles) the next slice's global loads are
  // in flight while the current one is multiplied out of local memory
  // (software pipelining); PoCL runs twice as slow with it.
  OPRIG_GEMM_R a_next[OPRIG_GEMM_A_PER], b_next[OPRIG_GEMM_B_PER];
  if (OPRIG_GEMM_PREFETCH && k > 0) {
    oprig_gemm_fetch(a, lda, !OPRIG_GEMM_TRANS_A, 0, m0, k, m - m0, OPRIG_GEMM_MWG, OPRIG_GEMM_A_PER, a_next);
    oprig_gemm_fetch(b, ldb, OPRIG_GEMM_TRANS_B, 0, n0, k, n - n0, OPRIG_GEMM_NWG, OPRIG_GEMM_B_PER, b_next);
  }
  for (uint k0 = 0; k0 < k; k0 += OPRIG_GEMM_KWG) {
    barrier(CLK_LOCAL_MEM_FENCE);  // the previous slice has been read
    if (!OPRIG_GEMM_PREFETCH) {
      oprig_gemm_fetch(a, lda, !OPRIG_GEMM_TRANS_A, k0, m0, k - k0, m - m0, OPRIG_GEMM_MWG, OPRIG_GEMM_A_PER, a_next);
      oprig_gemm_fetch(b, ldb, OPRIG_GEMM_TRANS_B, k0, n0, k - k0, n - n0, OPRIG_GEMM_NWG, OPRIG_GEMM_B_PER, b_next);
    }
    oprig_gemm_put(a_next, !OPRIG_GEMM_TRANS_A, OPRIG_GEMM_MWG, OPRIG_GEMM_A_PER, OPRIG_GEMM_A_STRIDE, as);
    oprig_gemm_put(b_next, OPRIG_GEMM_TRANS_B, OPRIG_GEMM_NWG, OPRIG_GEMM_B_PER, OPRIG_GEMM_B_STRIDE, bs);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint k1 = k0 + OPRIG_GEMM_KWG;
    if (OPRIG_GEMM_PREFETCH && k1 < k) {
      oprig_gemm_fetch(a, lda, !OPRIG_GEMM_TRANS_A, k1, m0, k - k1, m - m0, OPRIG_GEMM_MWG, OPRIG_GEMM_A_PER, a_next);
      oprig_gemm_fetch(b, ldb, OPRIG_GEMM_TRANS_B, k1, n0, k - k1, n - n0, OPRIG_GEMM_NWG, OPRIG_GEMM_B_PER, b_next);
    }
#pragma unroll 4
    for (uint kk = 0; kk < OPRIG_GEMM_KWG; ++kk) {
      float av[OPRIG_GEMM_MWI], bv[OPRIG_GEMM_NWI];
#pragma unroll
      for (uint i = 0; i < OPRIG_GEMM_MWI; ++i) av[i] = as[kk * OPRIG_GEMM_A_STRIDE + rows[i]];
#pragma unroll
      for (uint j = 0; j < OPRIG_GEMM_NWI; ++j) bv[j] = bs[kk * OPRIG_GEMM_B_STRIDE + cols[j]];
#pragma unroll
      for (uint i = 0; i < OPRIG_GEMM_MWI; ++i)
#pragma unroll
        for (uint j = 0; j < OPRIG_GEMM_NWI; ++j) acc[i * OPRIG_GEMM_NWI + j] = fma(av[i], bv[j], acc[i * OPRIG_GEMM_NWI + j]);
    }
  }
}

#endif  // OPRIG_GEMM_MWG
