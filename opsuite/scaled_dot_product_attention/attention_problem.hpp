// One ScaledDotProductAttention execution as the cpu kernel's tile code sees
// it: shapes, the resolved scale, the tensors, and the mask's strides with
// broadcasting folded in (0 along a dimension the mask repeats).
#pragma once

#include <cstdint>

namespace oprig::opsuite::sdpa {

struct AttentionProblem {
  int64_t batch = 0, heads = 0;
  int64_t query_len = 0, key_len = 0;   // Sq, Sk
  int64_t depth = 0, value_depth = 0;   // D (query and key), Dv (value and output)
  float scale = 1;
  bool causal = false;
  bool half = false;                    // FLOAT_16 tensors (widened to fp32, rounded once at the end)
  const void* query = nullptr;          // [B, H, Sq, D]
  const void* key = nullptr;            // [B, H, Sk, D]
  const void* value = nullptr;          // [B, H, Sk, Dv]
  const void* mask = nullptr;           // additive, broadcast to [B, H, Sq, Sk]; nullptr: none
  int64_t mask_strides[4] = {};         // elements per step in b, h, i, j; 0 where broadcast
  void* out = nullptr;                  // [B, H, Sq, Dv]
};

// Keys per block of the online softmax. The same on every ISA path, so that
// each query's sums are formed in the same order everywhere.
constexpr int64_t kKeyBlock = 64;

}  // namespace oprig::opsuite::sdpa
