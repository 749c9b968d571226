// The Eigen formulation of attention that bench.cpp measures the cpu kernel
// against (eigen_peer.cpp), built once per vector ISA.
#pragma once

#include <cstdint>

namespace oprig::opsuite::sdpa_peer {

struct EigenPeerProblem {
  int64_t query_len = 0, key_len = 0, depth = 0, value_depth = 0;
  float scale = 1;
  bool causal = false;
  const float* query = nullptr;  // [heads, Sq, D]
  const float* key = nullptr;    // [heads, Sk, D]
  const float* value = nullptr;  // [heads, Sk, Dv]
  float* out = nullptr;          // [heads, Sq, Dv]
};

// Heads [head_begin, head_end); `logits` holds Sq * Sk floats of scratch.
namespace avx2 {
void attention(const EigenPeerProblem& p, int64_t head_begin, int64_t head_end, float* logits);
}
namespace avx512 {
void attention(const EigenPeerProblem& p, int64_t head_begin, int64_t head_end, float* logits);
}

}  // namespace oprig::opsuite::sdpa_peer
