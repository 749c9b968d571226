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
// The product itself (packing, register tile, requantisation tail) lives in
// common/dsp_quant_gemm.hpp, shared with org.oprig.builtins' FullyConnected.
#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "common/dsp_kernel.hpp"
#include "common/dsp_quant_gemm.hpp"
#include "common/kernel.hpp"
#include "matmul/quantized_product.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_matmul__dsp;

namespace {

struct MatMulDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  bool transpose_a = false, transpose_b = false;
  bool prepared = false;
  matmul::QuantizedProduct q;
  DspQuantGemm gemm;  // one weight matrix at a time
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
  DspQuantGemm& g = k->gemm;
  g.n = k->q.shape.n;
  g.k = k->q.shape.k;
  g.z_a = k->q.z_a;
  g.z_w = k->q.z_w;
  g.z_out = k->q.z_out;
  g.signed_a = k->q.signed_a();
  g.transpose_b = k->transpose_b;
  g.flip_w = false;
  g.multiplier = k->q.multiplier;
  g.range = k->q.range;
  dsp_quant_gemm_size(g);
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

void run_program(MatMulDsp& k, const uint8_t* a, const uint8_t* w, uint8_t* out) {
  const matmul::QuantizedProduct& q = k.q;
  const size_t m_size = q.shape.m, n_size = q.shape.n, k_size = q.shape.k;
  const DspGemmTail tail = dsp_gemm_tail(k.gemm);
  // A(m, k) at a + m * row_step + k * k_step.
  const size_t row_step = k.transpose_a ? 1 : k_size, k_step = k.transpose_a ? m_size : 1;
  uint64_t packed_matrix = ~uint64_t{0};
  for (uint64_t z = 0; z < q.shape.batches; ++z) {
    uint64_t a_matrix = 0, w_matrix = 0;
    q.shape.matrices_of(z, &a_matrix, &w_matrix);
    if (w_matrix != packed_matrix) {
      dsp_quant_gemm_pack(k.gemm, w + w_matrix * k_size * n_size, nullptr);
      packed_matrix = w_matrix;
    }
    const uint8_t* am = a + a_matrix * m_size * k_size;
    for (size_t m0 = 0; m0 < m_size; m0 += kDspGemmRows) {
      const size_t rows = std::min(kDspGemmRows, m_size - m0);
      const uint8_t* a_rows[kDspGemmRows];
      uint8_t* out_rows[kDspGemmRows];
      for (size_t r = 0; r < rows; ++r) {
        a_rows[r] = am + (m0 + r) * row_step;
        out_rows[r] = out + (z * m_size + m0 + r) * n_size;
      }
      dsp_quant_gemm_rows(k.gemm, a_rows, rows, k_step, out_rows, tail);
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
  dsp_quant_gemm_map(k->gemm);
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
