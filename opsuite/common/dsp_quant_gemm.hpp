// The vrmpy quantised product of the dsp backend: out(m, n) = clamp(z_out +
// M * (sum_k (a(m,k) - z_a) (w(k,n) - z_w) + column_bias(n))), as HVX code on
// the simulator. Used by MatMul's dsp kernel (opsuite/matmul/dsp.cpp, where
// its design is described) and by org.oprig.builtins' FullyConnected on dsp
// (opsuite/builtins/dsp.cpp). Compiled in the dsp libraries only.
//
// The weights are INT_8 for vrmpy; UINT_8 weights (FullyConnected) are
// packed with their sign bit flipped, code - 128, and z_w - 128 as their zero
// point: the same differences w - z_w.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/quant.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

// Vector memory the kernel owns (mapped at execute): a vector's worth of bytes, vector-aligned.
struct alignas(OPRIG_DSP_VECTOR_BYTES) DspVectorSlot {
  uint8_t bytes[OPRIG_DSP_VECTOR_BYTES];
};

struct DspQuantGemm {
  size_t n = 0, k = 0;                 // output columns, depth
  int32_t z_a = 0, z_w = 0, z_out = 0;  // z_w of the weights as packed (INT_8)
  bool signed_a = false;                // INT_8 activations, else UINT_8
  bool transpose_b = false;             // weights stored w[n][k], else w[k][n]
  bool flip_w = false;                  // UINT_8 weights: packed as code ^ 0x80
  quant::Multiplier multiplier;
  quant::Range range;
  size_t quads = 0, blocks = 0;          // ceil(K / 4), ceil(N / 128)
  std::vector<DspVectorSlot> packed;     // blocks x quads x 4 vectors: the k-quads of one weight matrix
  std::vector<DspVectorSlot> bias;       // blocks x 4 vectors: K z_a z_w - z_a sum_k q_w (+ column_bias)
};

inline constexpr size_t kDspGemmLanes = 32;                      // int32 lanes of a vector
inline constexpr size_t kDspGemmBlock = OPRIG_DSP_VECTOR_BYTES;  // output columns per block
inline constexpr int kDspGemmOnes = 0x01010101;
// Rows per register tile: 6 rows x 4 accumulators + 4 weight vectors + a
// splat = 29 of HVX's 32 vector registers. Each weight vector loaded (2
// cycles of L2 traffic) feeds 6 vrmpy, so the multiply units, not the
// loads, bound the loop.
inline constexpr size_t kDspGemmRows = 6;

// Sizes the packed buffers for g.n and g.k (prepare).
inline void dsp_quant_gemm_size(DspQuantGemm& g) {
  g.quads = (g.k + 3) / 4;
  g.blocks = (g.n + kDspGemmBlock - 1) / kDspGemmBlock;
  g.packed.assign(g.blocks * g.quads * 4, DspVectorSlot{});
  g.bias.assign(g.blocks * 4, DspVectorSlot{});
}

// Maps the packed buffers (execute, after oprig_dsp_begin).
inline void dsp_quant_gemm_map(DspQuantGemm& g) {
  oprig_dsp_map_writable(g.packed.data(), g.packed.size() * sizeof(DspVectorSlot), "packed weights");
  oprig_dsp_map_writable(g.bias.data(), g.bias.size() * sizeof(DspVectorSlot), "column biases");
}

// The 4 bytes of `p` from k on, those at or past `k_size` zero, as one word
// (a scalar load of the DSP's scalar core; `stride` between consecutive k);
// `flip`: the sign bits of the real bytes flipped.
inline int32_t dsp_gemm_quad_word(const uint8_t* p, size_t k, size_t k_size, size_t stride, bool flip = false) {
  uint32_t word = 0;
  for (size_t i = 0; i < 4 && k + i < k_size; ++i)
    word |= uint32_t{static_cast<uint8_t>(p[(k + i) * stride] ^ (flip ? 0x80 : 0))} << (8 * i);
  return static_cast<int32_t>(word);
}

// Packs one weight matrix into k-quads and computes the column biases;
// column_bias (INT_32, n of them, in simulator memory) is added when given.
inline void dsp_quant_gemm_pack(DspQuantGemm& g, const uint8_t* w, const int32_t* column_bias) {
  const size_t n_size = g.n, k_size = g.k;
  const HVX_Vector ones = Q6_V_vsplat_R(kDspGemmOnes);
  const HVX_Vector zero = Q6_V_vzero();
  // Splatted only where used: MatMul's packing runs the instructions it ran
  // before FullyConnected shared it (the same simulated cycles).
  const HVX_Vector sign = g.flip_w ? Q6_Vb_vsplat_R(0x80) : zero;
  for (size_t b = 0; b < g.blocks; ++b) {
    const size_t n0 = b * kDspGemmBlock;
    DspVectorSlot* out = g.packed.data() + b * g.quads * 4;
    for (size_t quad = 0; quad < g.quads; ++quad) {
      const size_t k0 = quad * 4;
      if (!g.transpose_b) {
        HVX_Vector rows[4];
        for (size_t i = 0; i < 4; ++i) {
          rows[i] = k0 + i < k_size ? oprig_dsp_load_bytes(w + (k0 + i) * n_size + n0, n_size - n0) : zero;
          if (g.flip_w && k0 + i < k_size) rows[i] = Q6_V_vxor_VV(rows[i], sign);
        }
        const HVX_VectorPair p01 = Q6_W_vshuff_VVR(rows[1], rows[0], -1);
        const HVX_VectorPair p23 = Q6_W_vshuff_VVR(rows[3], rows[2], -1);
        const HVX_VectorPair lo = Q6_W_vshuff_VVR(Q6_V_lo_W(p23), Q6_V_lo_W(p01), -2);
        const HVX_VectorPair hi = Q6_W_vshuff_VVR(Q6_V_hi_W(p23), Q6_V_hi_W(p01), -2);
        oprig_vmem_store(&out[quad * 4 + 0], Q6_V_lo_W(lo));
        oprig_vmem_store(&out[quad * 4 + 1], Q6_V_hi_W(lo));
        oprig_vmem_store(&out[quad * 4 + 2], Q6_V_lo_W(hi));
        oprig_vmem_store(&out[quad * 4 + 3], Q6_V_hi_W(hi));
      } else {
        // w[n][k0..k0+3] is one word per column: 32 of them gathered per vector.
        for (size_t j = 0; j < 4; ++j) {
          HVX_Vector v = zero;
          for (size_t lane = kDspGemmLanes; lane-- > 0;) {
            const size_t n = n0 + j * kDspGemmLanes + lane;
            // Every word moves up one lane (vror by 124 bytes) and lane 0 takes column n.
            v = Q6_Vw_vinsert_VwR(Q6_V_vror_VR(v, OPRIG_DSP_VECTOR_BYTES - 4),
                                  n < n_size ? dsp_gemm_quad_word(w + n * k_size, k0, k_size, 1, g.flip_w) : 0);
          }
          oprig_vmem_store(&out[quad * 4 + j], v);
        }
      }
    }
    // bias = K z_a z_w - z_a * column sums (+ column_bias).
    const HVX_Vector za = Q6_V_vsplat_R(g.z_a);
    // Wrapping like the vector sums (no signed overflow on the host for a deep K).
    const HVX_Vector constant = Q6_V_vsplat_R(static_cast<int32_t>(static_cast<uint32_t>(k_size) *
                                                                   static_cast<uint32_t>(g.z_a) *
                                                                   static_cast<uint32_t>(g.z_w)));
    for (size_t j = 0; j < 4; ++j) {
      HVX_Vector sums = zero;
      for (size_t quad = 0; quad < g.quads; ++quad)
        sums = Q6_Vw_vrmpyacc_VwVbVb(sums, oprig_vmem_load(&out[quad * 4 + j]), ones);
      HVX_Vector bias = Q6_Vw_vsub_VwVw(constant, oprig_dsp_mul_lo_w(sums, za));
      const size_t first = n0 + j * kDspGemmLanes;
      if (column_bias != nullptr && first < n_size)
        bias = Q6_Vw_vadd_VwVw(bias, oprig_dsp_load_bytes(column_bias + first, (n_size - first) * sizeof(int32_t)));
      oprig_vmem_store(&g.bias[b * 4 + j], bias);
    }
  }
}

// The splatted constants of the requantisation tail, made once an execute.
struct DspGemmTail {
  oprig_dsp_quantized_multiplier mul;
  HVX_Vector z_w, z_out, lo, hi;
};
inline DspGemmTail dsp_gemm_tail(const DspQuantGemm& g) {
  return {oprig_dsp_make_quantized_multiplier(g.multiplier.m, g.multiplier.left - g.multiplier.right),
          Q6_V_vsplat_R(g.z_w), Q6_V_vsplat_R(g.z_out), Q6_V_vsplat_R(g.range.lo), Q6_V_vsplat_R(g.range.hi)};
}

// Output rows [m0, m0 + rows) (rows <= kDspGemmRows) against the packed
// weights: a_rows[r] is A(m0 + r, 0), `a_stride` between consecutive k.
inline void dsp_quant_gemm_rows(const DspQuantGemm& g, const uint8_t* const* a_rows, size_t rows, size_t a_stride,
                                uint8_t* const* out_rows, const DspGemmTail& t) {
  const size_t n_size = g.n, k_size = g.k;
  const bool is_signed = g.signed_a;
  const HVX_Vector ones = Q6_V_vsplat_R(kDspGemmOnes);
  HVX_Vector row_term[kDspGemmRows];
  for (size_t r = 0; r < rows; ++r) {
    HVX_Vector row_sum = Q6_V_vzero();
    for (size_t quad = 0; quad < g.quads; ++quad) {
      const HVX_Vector splat = Q6_V_vsplat_R(dsp_gemm_quad_word(a_rows[r], quad * 4, k_size, a_stride));
      row_sum = is_signed ? Q6_Vw_vrmpyacc_VwVbVb(row_sum, splat, ones)
                          : Q6_Vw_vrmpyacc_VwVubRb(row_sum, splat, kDspGemmOnes);
    }
    row_term[r] = oprig_dsp_mul_lo_w(row_sum, t.z_w);
  }
  for (size_t b = 0; b < g.blocks; ++b) {
    const DspVectorSlot* packed = g.packed.data() + b * g.quads * 4;
    HVX_Vector acc[kDspGemmRows][4];
    for (size_t j = 0; j < 4; ++j) {
      const HVX_Vector bias = oprig_vmem_load(&g.bias[b * 4 + j]);
      for (size_t r = 0; r < rows; ++r) acc[r][j] = Q6_Vw_vsub_VwVw(bias, row_term[r]);
    }
    for (size_t quad = 0; quad < g.quads; ++quad) {
      HVX_Vector weights[4];
      for (size_t j = 0; j < 4; ++j) weights[j] = oprig_vmem_load(&packed[quad * 4 + j]);
      for (size_t r = 0; r < rows; ++r) {
        const HVX_Vector splat = Q6_V_vsplat_R(dsp_gemm_quad_word(a_rows[r], quad * 4, k_size, a_stride));
        for (size_t j = 0; j < 4; ++j)
          acc[r][j] = is_signed ? Q6_Vw_vrmpyacc_VwVbVb(acc[r][j], splat, weights[j])
                                : Q6_Vw_vrmpyacc_VwVubVb(acc[r][j], splat, weights[j]);
      }
    }
    const size_t n0 = b * kDspGemmBlock;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t j = 0; j < 4; ++j) {
        const HVX_Vector scaled = Q6_Vw_vadd_VwVw(oprig_dsp_apply_quantized_multiplier_w(acc[r][j], &t.mul), t.z_out);
        acc[r][j] = Q6_Vw_vmin_VwVw(Q6_Vw_vmax_VwVw(scaled, t.lo), t.hi);
      }
      const HVX_Vector bytes =
          Q6_Vb_vpacke_VhVh(Q6_Vh_vpacke_VwVw(acc[r][3], acc[r][2]), Q6_Vh_vpacke_VwVw(acc[r][1], acc[r][0]));
      oprig_dsp_store_bytes(out_rows[r] + n0, std::min(kDspGemmBlock, n_size - n0), bytes);
    }
  }
}

}  // namespace oprig::opsuite
