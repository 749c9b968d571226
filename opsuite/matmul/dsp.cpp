// Quantised MatMul on the dsp backend (the spec's DSP supplement): UINT_8 or
// INT_8 activations (in0) times INT_8 weights (in1), the integer rule of
// integer_reference.cpp, bit for bit, as HVX code on the simulator.
//
// The vrmpy family multiplies 4 bytes by 4 bytes into one 32-bit lane, so the
// weights of each output batch are first packed into "k-quads": for 4
// consecutive k and 32 consecutive columns n, one vector whose word j holds
// w[k..k+3][n0 + j]. Untransposed weights (rows of w[k][.] contiguous) are
// packed by two rounds of vshuff (bytes, then halfwords) of 4 rows, 128
// columns at a time; transposed ones (w[n][k..k+3] already a word) by
// gathering the 32 words with vinsert and vror. Column sums of the packed
// weights (vrmpy by 0x01010101) give each column's z_a correction once per
// batch: bias_n = K z_a z_w - z_a sum_k q_w.
//
// A register tile is 6 output rows x 128 columns (24 accumulators): per
// k-quad the 4 packed weight vectors are loaded once, and each row's k-quad
// (4 bytes of A, zero past K) is splatted and multiplied into its 4
// accumulators with vrmpy (VubVb for UINT_8, VbVb for INT_8): sum_k q_a q_w.
// The row's sum of q_a (vrmpy by ones) times z_w is subtracted, the bias
// added, then requantisation (oprig_dsp_apply_quantized_multiplier_w: vasl,
// srdhm, rdbpot), + z_out, clamp with vmax/vmin, two rounds of vpacke to
// 128 bytes and one store (predicated for a column tail).
#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "matmul/quantized_product.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_matmul__dsp;

namespace {

constexpr size_t kLanes = 32;                         // int32 lanes of a vector
constexpr size_t kBlock = OPRIG_DSP_VECTOR_BYTES;     // output columns per block
constexpr int kOnes = 0x01010101;

// Vector memory the kernel owns (mapped at execute): a vector's worth of bytes, vector-aligned.
struct alignas(OPRIG_DSP_VECTOR_BYTES) VectorSlot {
  uint8_t bytes[OPRIG_DSP_VECTOR_BYTES];
};

struct MatMulDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  bool transpose_a = false, transpose_b = false;
  bool prepared = false;
  matmul::QuantizedProduct q;
  size_t quads = 0, blocks = 0;      // ceil(K / 4), ceil(N / 128)
  std::vector<VectorSlot> packed;     // blocks x quads x 4 vectors: the k-quads of one weight matrix
  std::vector<VectorSlot> bias;       // blocks x 4 vectors: K z_a z_w - z_a sum_k q_w
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<MatMulDsp>(ctx, &oprig_matmul__dsp, out_kernel, [&](MatMulDsp& k) {
    k.transpose_a = scalar_param(params, num_params, "transpose_a").value_or(0) != 0;
    k.transpose_b = scalar_param(params, num_params, "transpose_b").value_or(0) != 0;
    return OPRIG_STATUS_OK;
  });
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<MatMulDsp>(handle);
  k->prepared = false;
  const oprig_status s = matmul::plan_quantized_product(inputs, num_inputs, outputs, num_outputs, k->transpose_a,
                                                        k->transpose_b, &k->q);
  if (s != OPRIG_STATUS_OK) return s;
  k->quads = (k->q.shape.k + 3) / 4;
  k->blocks = (k->q.shape.n + kBlock - 1) / kBlock;
  k->packed.assign(k->blocks * k->quads * 4, VectorSlot{});
  k->bias.assign(k->blocks * 4, VectorSlot{});
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

// The 4 bytes of `p` from k on, those at or past `k_size` zero, as one word
// (a scalar load of the DSP's scalar core; `stride` between consecutive k).
int32_t quad_word(const uint8_t* p, size_t k, size_t k_size, size_t stride) {
  uint32_t word = 0;
  for (size_t i = 0; i < 4 && k + i < k_size; ++i) word |= uint32_t{p[(k + i) * stride]} << (8 * i);
  return static_cast<int32_t>(word);
}

// Packs one weight matrix into k-quads and computes the column biases.
void pack_weights(MatMulDsp& k, const uint8_t* w) {
  const size_t n_size = k.q.shape.n, k_size = k.q.shape.k;
  const HVX_Vector ones = Q6_V_vsplat_R(kOnes);
  const HVX_Vector zero = Q6_V_vzero();
  for (size_t b = 0; b < k.blocks; ++b) {
    const size_t n0 = b * kBlock;
    VectorSlot* out = k.packed.data() + b * k.quads * 4;
    for (size_t quad = 0; quad < k.quads; ++quad) {
      const size_t k0 = quad * 4;
      if (!k.transpose_b) {
        HVX_Vector rows[4];
        for (size_t i = 0; i < 4; ++i)
          rows[i] = k0 + i < k_size ? oprig_dsp_load_bytes(w + (k0 + i) * n_size + n0, n_size - n0) : zero;
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
          for (size_t lane = kLanes; lane-- > 0;) {
            const size_t n = n0 + j * kLanes + lane;
            // Every word moves up one lane (vror by 124 bytes) and lane 0 takes column n.
            v = Q6_Vw_vinsert_VwR(Q6_V_vror_VR(v, OPRIG_DSP_VECTOR_BYTES - 4),
                                  n < n_size ? quad_word(w + n * k_size, k0, k_size, 1) : 0);
          }
          oprig_vmem_store(&out[quad * 4 + j], v);
        }
      }
    }
    // bias = K z_a z_w - z_a * column sums.
    const HVX_Vector za = Q6_V_vsplat_R(k.q.z_a);
    const HVX_Vector constant = Q6_V_vsplat_R(static_cast<int32_t>(k_size) * k.q.z_a * k.q.z_w);
    for (size_t j = 0; j < 4; ++j) {
      HVX_Vector sums = zero;
      for (size_t quad = 0; quad < k.quads; ++quad)
        sums = Q6_Vw_vrmpyacc_VwVbVb(sums, oprig_vmem_load(&out[quad * 4 + j]), ones);
      oprig_vmem_store(&k.bias[b * 4 + j], Q6_Vw_vsub_VwVw(constant, oprig_dsp_mul_lo_w(sums, za)));
    }
  }
}

// Rows per register tile: 6 rows x 4 accumulators + 4 weight vectors + a
// splat = 29 of HVX's 32 vector registers. Each weight vector loaded (2
// cycles of L2 traffic) feeds 6 vrmpy, so the multiply units, not the
// loads, bound the loop.
constexpr size_t kRows = 6;

// Output rows [m0, m0 + rows) of one batch: a_rows[r] is A(m0 + r, 0).
void run_rows(MatMulDsp& k, const uint8_t* const* a_rows, size_t rows, size_t a_stride, uint8_t* const* out_rows,
              const oprig_dsp_quantized_multiplier& mul, HVX_Vector z_w, HVX_Vector z_out, HVX_Vector lo,
              HVX_Vector hi) {
  const size_t n_size = k.q.shape.n, k_size = k.q.shape.k;
  const bool is_signed = k.q.signed_a();
  const HVX_Vector ones = Q6_V_vsplat_R(kOnes);
  HVX_Vector row_term[kRows];
  for (size_t r = 0; r < rows; ++r) {
    HVX_Vector row_sum = Q6_V_vzero();
    for (size_t quad = 0; quad < k.quads; ++quad) {
      const HVX_Vector splat = Q6_V_vsplat_R(quad_word(a_rows[r], quad * 4, k_size, a_stride));
      row_sum = is_signed ? Q6_Vw_vrmpyacc_VwVbVb(row_sum, splat, ones) : Q6_Vw_vrmpyacc_VwVubRb(row_sum, splat, kOnes);
    }
    row_term[r] = oprig_dsp_mul_lo_w(row_sum, z_w);
  }
  for (size_t b = 0; b < k.blocks; ++b) {
    const VectorSlot* packed = k.packed.data() + b * k.quads * 4;
    HVX_Vector acc[kRows][4];
    for (size_t j = 0; j < 4; ++j) {
      const HVX_Vector bias = oprig_vmem_load(&k.bias[b * 4 + j]);
      for (size_t r = 0; r < rows; ++r) acc[r][j] = Q6_Vw_vsub_VwVw(bias, row_term[r]);
    }
    for (size_t quad = 0; quad < k.quads; ++quad) {
      HVX_Vector weights[4];
      for (size_t j = 0; j < 4; ++j) weights[j] = oprig_vmem_load(&packed[quad * 4 + j]);
      for (size_t r = 0; r < rows; ++r) {
        const HVX_Vector splat = Q6_V_vsplat_R(quad_word(a_rows[r], quad * 4, k_size, a_stride));
        for (size_t j = 0; j < 4; ++j)
          acc[r][j] = is_signed ? Q6_Vw_vrmpyacc_VwVbVb(acc[r][j], splat, weights[j])
                                : Q6_Vw_vrmpyacc_VwVubVb(acc[r][j], splat, weights[j]);
      }
    }
    const size_t n0 = b * kBlock;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t j = 0; j < 4; ++j) {
        const HVX_Vector scaled = Q6_Vw_vadd_VwVw(oprig_dsp_apply_quantized_multiplier_w(acc[r][j], &mul), z_out);
        acc[r][j] = Q6_Vw_vmin_VwVw(Q6_Vw_vmax_VwVw(scaled, lo), hi);
      }
      const HVX_Vector bytes =
          Q6_Vb_vpacke_VhVh(Q6_Vh_vpacke_VwVw(acc[r][3], acc[r][2]), Q6_Vh_vpacke_VwVw(acc[r][1], acc[r][0]));
      oprig_dsp_store_bytes(out_rows[r] + n0, std::min(kBlock, n_size - n0), bytes);
    }
  }
}

void run_program(MatMulDsp& k, const uint8_t* a, const uint8_t* w, uint8_t* out) {
  const matmul::QuantizedProduct& q = k.q;
  const size_t m_size = q.shape.m, n_size = q.shape.n, k_size = q.shape.k;
  const oprig_dsp_quantized_multiplier mul =
      oprig_dsp_make_quantized_multiplier(q.multiplier.m, q.multiplier.left - q.multiplier.right);
  const HVX_Vector z_w = Q6_V_vsplat_R(q.z_w), z_out = Q6_V_vsplat_R(q.z_out);
  const HVX_Vector lo = Q6_V_vsplat_R(q.range.lo), hi = Q6_V_vsplat_R(q.range.hi);
  // A(m, k) at a + m * row_step + k * k_step.
  const size_t row_step = k.transpose_a ? 1 : k_size, k_step = k.transpose_a ? m_size : 1;
  uint64_t packed_matrix = ~uint64_t{0};
  for (uint64_t z = 0; z < q.shape.batches; ++z) {
    uint64_t a_matrix = 0, w_matrix = 0;
    q.shape.matrices_of(z, &a_matrix, &w_matrix);
    if (w_matrix != packed_matrix) {
      pack_weights(k, w + w_matrix * k_size * n_size);
      packed_matrix = w_matrix;
    }
    const uint8_t* am = a + a_matrix * m_size * k_size;
    for (size_t m0 = 0; m0 < m_size; m0 += kRows) {
      const size_t rows = std::min(kRows, m_size - m0);
      const uint8_t* a_rows[kRows];
      uint8_t* out_rows[kRows];
      for (size_t r = 0; r < rows; ++r) {
        a_rows[r] = am + (m0 + r) * row_step;
        out_rows[r] = out + (z * m_size + m0 + r) * n_size;
      }
      run_rows(k, a_rows, rows, k_step, out_rows, mul, z_w, z_out, lo, hi);
    }
  }
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info != nullptr) info->dsp_cycles = 0;
  auto* k = from_handle<MatMulDsp>(handle);
  if (!k->prepared || num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr ||
      info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->q.shape.batches * k->q.shape.m * k->q.shape.n == 0) return OPRIG_STATUS_OK;
  if (const oprig_status s = oprig_dsp_begin(k->ctx); s != OPRIG_STATUS_OK) return s;
  oprig_dsp_map_writable(k->packed.data(), k->packed.size() * sizeof(VectorSlot), "packed weights");
  oprig_dsp_map_writable(k->bias.data(), k->bias.size() * sizeof(VectorSlot), "column biases");
  run_program(*k, static_cast<const uint8_t*>(inputs[0].data), static_cast<const uint8_t*>(inputs[1].data),
              static_cast<uint8_t*>(outputs[0].data));
  return oprig_dsp_end(info);
}

void destroy(oprig_kernel* handle) { delete from_handle<MatMulDsp>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = from_handle<const MatMulDsp>(handle)->q.shape.cost();
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_matmul__dsp = {"MatMul", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
