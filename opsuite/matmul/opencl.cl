// MatMul for the opencl backend: one work-group per OPRIG_GEMM_MWG x
// OPRIG_GEMM_NWG tile of one output matrix (the tiled GEMM of
// common/opencl/gemm.cl, accumulating in fp32), dimension 2 of the range
// walking the broadcast batch. The host builds one program per element
// type, transpose pair and tile shape (OPRIG_GEMM_HALF, OPRIG_GEMM_TRANS_A,
// OPRIG_GEMM_TRANS_B, the tile macros). FLOAT_16 is widened exactly by
// vload_half and rounded once by vstore_half_rte.
//
// Batch: output matrix z has the coordinates of z over the `batch_rank`
// merged batch dimensions (outermost first); A's matrix index is the sum of
// coordinate x a_strides (0 where A broadcasts), B's likewise.

kernel void matmul(global const OPRIG_GEMM_T* a, global const OPRIG_GEMM_T* b, global OPRIG_GEMM_T* y,
                   const uint m, const uint n, const uint k, const uint batch_rank, const uint8 batch_dims,
                   const uint8 a_strides, const uint8 b_strides) {
  // Aligned for the vector reads of a chunk.
  local float as[OPRIG_GEMM_A_LOCAL] __attribute__((aligned(16)));
  local float bs[OPRIG_GEMM_B_LOCAL] __attribute__((aligned(16)));
  const uint dims[8] = {batch_dims.s0, batch_dims.s1, batch_dims.s2, batch_dims.s3,
                        batch_dims.s4, batch_dims.s5, batch_dims.s6, batch_dims.s7};
  const uint a_step[8] = {a_strides.s0, a_strides.s1, a_strides.s2, a_strides.s3,
                          a_strides.s4, a_strides.s5, a_strides.s6, a_strides.s7};
  const uint b_step[8] = {b_strides.s0, b_strides.s1, b_strides.s2, b_strides.s3,
                          b_strides.s4, b_strides.s5, b_strides.s6, b_strides.s7};
  const uint z = (uint)get_group_id(2);
  uint rest = z, a_matrix = 0, b_matrix = 0;
  for (uint d = batch_rank; d-- > 0;) {
    const uint coord = rest % dims[d];
    rest /= dims[d];
    a_matrix += coord * a_step[d];
    b_matrix += coord * b_step[d];
  }
  const uint m0 = (uint)get_group_id(1) * OPRIG_GEMM_MWG, n0 = (uint)get_group_id(0) * OPRIG_GEMM_NWG;
  float acc[OPRIG_GEMM_MWI * OPRIG_GEMM_NWI];
  oprig_gemm_tile(a + (ulong)a_matrix * m * k, OPRIG_GEMM_TRANS_A ? m : k, b + (ulong)b_matrix * k * n,
                  OPRIG_GEMM_TRANS_B ? k : n, m, n, k, m0, n0, as, bs, acc);
  global OPRIG_GEMM_T* out = y + (ulong)z * m * n;
#pragma unroll
  for (uint i = 0; i < OPRIG_GEMM_MWI; ++i) {
    const uint row = m0 + oprig_gemm_row(i);
#pragma unroll
    for (uint j = 0; j < OPRIG_GEMM_NWI; ++j) {
      const uint col = n0 + oprig_gemm_col(j);
      if (row < m && col < n) {
#if OPRIG_GEMM_HALF
        vstore_half_rte(acc[i * OPRIG_GEMM_NWI + j], row * n + col, out);
#else
        out[row * n + col] = acc[i * OPRIG_GEMM_NWI + j];
#endif
      }
    }
  }
}
