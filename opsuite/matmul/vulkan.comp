#version 450
// MatMul, vulkan: one workgroup per MWG x NWG tile of one output matrix
// (the tiled GEMM of common/glsl/gemm.glsl, specialised by the host on the
// tile and the transposes, accumulating in fp32), the output matrices along
// z (a workgroup walks z by the dispatch's depth when there are more
// matrices than workgroups in z). Spec constant 7 = 1: FLOAT_16, in pairs
// in 32-bit words, widened and rounded once in integer arithmetic exactly
// as the host does (fp16_bits.glsl). An fp16 word whose two halves this
// invocation computes is written whole; a half whose neighbour belongs to
// another invocation (an odd N, a row or matrix boundary) is written with
// atomicAnd / atomicOr on its own 16 bits, so no invocation overwrites
// another's half.
//
// Batch: output matrix z has the coordinates of z over the `batch_rank`
// merged batch dimensions (outermost first); A's matrix index is the sum of
// coordinate x a_strides (0 where A broadcasts), B's likewise.

layout(constant_id = 7) const bool kHalf = false;

layout(std430, set = 0, binding = 0) readonly buffer A { uint a_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 2) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint m, n, k;
  uint batches;
  uint batch_rank;
  uint dims[6];
  uint a_strides[6];
  uint b_strides[6];
} p;

#include "fp16_bits.glsl"

// gemm.glsl's loaders: the word holding element i, which half of it.
uint oprig_gemm_a(uint i) { return a_words[kHalf ? i >> 1 : i]; }
uint oprig_gemm_b(uint i) { return b_words[kHalf ? i >> 1 : i]; }
bool oprig_gemm_high(uint i) { return kHalf && (i & 1u) != 0u; }
float oprig_gemm_widen(uint word, bool high) {
  return kHalf ? half_to_float(high ? word >> 16 : word & 0xffffu) : uintBitsToFloat(word);
}

#include "gemm.glsl"

// Half `e & 1` of word e >> 1 of y, which another invocation may share.
void store_half_alone(uint e, uint h) {
  uint shift = 16u * (e & 1u);
  atomicAnd(y_words[e >> 1], ~(0xffffu << shift));
  atomicOr(y_words[e >> 1], h << shift);
}

// Loops without `continue`, so that spirv-opt unrolls them (gemm.glsl).
void store(uint base, uint m0, uint n0) {
  [[unroll]] for (uint i = 0u; i < kGemmMaxWi; ++i) {
    uint row = m0 + oprig_gemm_row(i);
    [[unroll]] for (uint j = 0u; j < kGemmMaxWi; ++j) {
      uint col = n0 + oprig_gemm_col(j);
      uint e = base + row * p.n + col;
      float v = oprig_gemm_acc[i * kGemmMaxWi + j];
      if (i < kGemmMwi && j < kGemmNwi && row < p.m && col < p.n) {
        if (!kHalf) {
          y_words[e] = floatBitsToUint(v);
        } else {
          // Columns j and j + 1 are adjacent when they are in one chunk of VWN.
          bool pair_next = j + 1u < kGemmNwi && (j + 1u) % kGemmVwn != 0u && col + 1u < p.n;
          bool pair_prev = j % kGemmVwn != 0u;  // col - 1 is this invocation's (col > n0 >= 0)
          if ((e & 1u) == 0u && pair_next) {
            float next = oprig_gemm_acc[min(i * kGemmMaxWi + j + 1u, kGemmMaxWi * kGemmMaxWi - 1u)];
            y_words[e >> 1] = float_to_half(v) | (float_to_half(next) << 16);
          } else if ((e & 1u) == 0u || !pair_prev) {
            store_half_alone(e, float_to_half(v));
          }
          // Else: written whole with its low half, at column j - 1.
        }
      }
    }
  }
}

void main() {
  uint m0 = gl_WorkGroupID.y * kGemmMwg, n0 = gl_WorkGroupID.x * kGemmNwg;
  for (uint z = gl_WorkGroupID.z; z < p.batches; z += gl_NumWorkGroups.z) {
    uint rest = z, a_matrix = 0u, b_matrix = 0u;
    for (uint d = p.batch_rank; d-- > 0u;) {
      uint coord = rest % p.dims[d];
      rest /= p.dims[d];
      a_matrix += coord * p.a_strides[d];
      b_matrix += coord * p.b_strides[d];
    }
    oprig_gemm_tile(a_matrix * p.m * p.k, kGemmTransA ? p.m : p.k, b_matrix * p.k * p.n, kGemmTransB ? p.k : p.n,
                    p.m, p.n, p.k, m0, n0);
    store(z * p.m * p.n, m0, n0);
  }
}
