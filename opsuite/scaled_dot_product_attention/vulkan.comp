#version 450
// ScaledDotProductAttention, vulkan: the fused flash-attention kernel of
// opencl.cl (read its header for the tiling, the pipeline of staged chunks
// and the online softmax), in GLSL. FLOAT_32 or FLOAT_16 (spec constant 3): every
// tensor is bound as 32-bit words, fp16 two to a word (fp16_bits.glsl: exact
// widening, the host's rounding), computed in fp32. The workgroup is TX x TY
// (spec constants 1 and 2: 16 x 8, or 8 x 8 where the device has less room);
// invocation (tx, ty) keeps the logits of queries 4ty..4ty+3 against keys
// 4tx..4tx+3 of a key tile and the outputs of those queries for features
// 4tx..4tx+3. Workgroup (x, y, z) = (batch and head, tile of 4 TY queries,
// chunk of 4 TX features). FLOAT_16 outputs: a word whose two halves belong
// to two invocations is written half by half with atomicAnd / atomicOr
// (core for 32-bit storage-buffer integers), other words whole.
//
// Drivers that flush fp32 denormals (lavapipe) flush the products and
// weights below 2^-126: each such term is below 2^-126 times the largest
// |v|, far inside the tolerance, and a weight that small is 0 in the cpu
// kernel too (its exp flushes below FLT_MIN). The plan's inputs are not
// denormal (fp16 inputs widen to normal fp32).

layout(local_size_x_id = 1, local_size_y_id = 2) in;
// One pipeline per type: lavapipe compiles a shader with both load paths inlined at every
// fetch several times slower.
layout(constant_id = 3) const bool kHalf = false;

layout(std430, set = 0, binding = 0) buffer Out { uint out_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Query { uint query_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer Key { uint key_words[]; };
layout(std430, set = 0, binding = 3) readonly buffer Value { uint value_words[]; };
layout(std430, set = 0, binding = 4) readonly buffer Mask { uint mask_words[]; };

layout(push_constant) uniform Params {
  uint heads;
  uint sq, sk;              // query and key lengths
  uint depth, value_depth;  // D, Dv
  float scale;
  uint causal, has_mask;
  uint mask_b, mask_h, mask_i, mask_j;  // the mask's element strides (0 where it repeats)
} p;

#include "fp16_bits.glsl"

const uint TX = gl_WorkGroupSize.x;
const uint TY = gl_WorkGroupSize.y;
const uint kThreads = TX * TY;
const uint BQ = 4u * TY;  // queries per tile
const uint BK = 4u * TX;  // keys per tile
const uint BE = 4u * TX;  // features per workgroup
const uint KC = 16u;      // depth per staged chunk of Q and K
const uint VC = 16u;      // keys per staged chunk of V
// Row strides in vec4; one vec4 of padding spreads the transposing stores over the banks.
const uint QS = TY + 1u;
const uint KS = TX + 1u;
const uint ES = TX;
// Each invocation's share of a staged chunk: Q and K elements, or V elements.
const uint kQShare = BQ * KC / kThreads;
const uint kKShare = BK * KC / kThreads;
const uint kVShare = VC * BE / kThreads;

// Q chunks and V chunks take turns in qv (a barrier apart).
shared vec4 qv[KC * QS > VC * ES ? KC * QS : VC * ES];
shared vec4 ks[KC * KS];
shared vec4 ps[BK * QS];
shared float red[BQ * TX];

#define kMinusInf uintBitsToFloat(0xff800000u)
#define kNaN uintBitsToFloat(0x7fc00000u)

float load_query(uint i) { return OPRIG_LOAD_F(query_words, i, kHalf); }
float load_key(uint i) { return OPRIG_LOAD_F(key_words, i, kHalf); }
float load_value(uint i) { return OPRIG_LOAD_F(value_words, i, kHalf); }
float load_mask(uint i) { return OPRIG_LOAD_F(mask_words, i, kHalf); }

float exp_or_zero(float x) { return x == kMinusInf ? 0.0 : exp(x); }

// Half n of the output, the other half of its word left as it is.
void store_half(uint n, uint bits) {
  uint word = n >> 1u, shift = 16u * (n & 1u);
  atomicAnd(out_words[word], ~(0xffffu << shift));
  atomicOr(out_words[word], bits << shift);
}

// This invocation's share of a staged chunk (at most 16 elements: TX, TY >= 8).
float share[16];
uint tid, q0, e0, q_base, k_base, v_base;

// This invocation's share of a chunk, from the buffers into `share`; zeros
// outside the tensors (0 * a garbage value could be NaN). Q and K: depth
// d0..d0+KC-1 of the tile's queries and of keys j0..j0+BK-1.
void fetch_qk(uint j0, uint d0) {
  for (uint u = 0u; u < kQShare; ++u) {
    uint n = tid + u * kThreads, i = q0 + n / KC, d = d0 + n % KC;
    share[u] = i < p.sq && d < p.depth ? load_query(q_base + i * p.depth + d) : 0.0;
  }
  for (uint u = 0u; u < kKShare; ++u) {
    uint n = tid + u * kThreads, j = j0 + n / KC, d = d0 + n % KC;
    share[kQShare + u] = j < p.sk && d < p.depth ? load_key(k_base + j * p.depth + d) : 0.0;
  }
}

// V: keys j..j+VC-1, the workgroup's features.
void fetch_v(uint j) {
  for (uint u = 0u; u < kVShare; ++u) {
    uint n = tid + u * kThreads, jj = j + n / BE, e = e0 + n % BE;
    share[u] = jj < p.sk && e < p.value_depth ? load_value(v_base + jj * p.value_depth + e) : 0.0;
  }
}

// The shares to shared memory: Q and K transposed (depth-major), V as it is.
void store_qk() {
  for (uint u = 0u; u < kQShare; ++u) {
    uint n = tid + u * kThreads, at = (n % KC) * QS * 4u + n / KC;
    qv[at >> 2u][at & 3u] = share[u];
  }
  for (uint u = 0u; u < kKShare; ++u) {
    uint n = tid + u * kThreads, at = (n % KC) * KS * 4u + n / KC;
    ks[at >> 2u][at & 3u] = share[kQShare + u];
  }
}

void store_v() {
  for (uint u = 0u; u < kVShare; ++u) {
    uint n = tid + u * kThreads;
    qv[n >> 2u][n & 3u] = share[u];
  }
}

void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  tid = ty * TX + tx;
  uint bh = gl_WorkGroupID.x;
  // Causal: the last tiles of queries see the most keys; they go first.
  uint tile = p.causal != 0u ? gl_NumWorkGroups.y - 1u - gl_WorkGroupID.y : gl_WorkGroupID.y;
  q0 = tile * BQ;
  e0 = gl_WorkGroupID.z * BE;
  q_base = bh * p.sq * p.depth;
  k_base = bh * p.sk * p.depth;
  v_base = bh * p.sk * p.value_depth;
  uint m_base = (bh / p.heads) * p.mask_b + (bh % p.heads) * p.mask_h;

  // Row r: logits of query 4ty + r against keys 4tx..4tx+3 (s), its outputs
  // for features 4tx..4tx+3 (o), running maximum (m) and partial sum (l).
  vec4 s[4], o[4];
  float m[4], l[4];
  for (uint r = 0u; r < 4u; ++r) {
    m[r] = kMinusInf;
    l[r] = 0.0;
    o[r] = vec4(0.0);
  }
  // Top-left causal: query i sees keys j <= i; the tile's last query is q_last.
  uint q_last = min(p.sq, q0 + BQ) - 1u;
  uint key_end = p.causal != 0u ? min(p.sk, q_last + 1u) : p.sk;

  if (key_end > 0u) fetch_qk(0u, 0u);
  for (uint j0 = 0u; j0 < key_end; j0 += BK) {
    for (uint r = 0u; r < 4u; ++r) s[r] = vec4(0.0);
    for (uint d0 = 0u; d0 < p.depth; d0 += KC) {
      barrier();  // the previous chunk's readers are done
      store_qk();
      barrier();
      if (d0 + KC < p.depth) fetch_qk(j0, d0 + KC);
      else fetch_v(j0);
      for (uint d = 0u; d < KC; ++d) {
        vec4 a = qv[d * QS + ty];
        vec4 b = ks[d * KS + tx];
        for (uint r = 0u; r < 4u; ++r) s[r] += a[r] * b;
      }
    }

    // The softmax step: the logits, and each row's maximum over this invocation's four keys.
    for (uint r = 0u; r < 4u; ++r) {
      uint i = q0 + 4u * ty + r;
      float largest = kMinusInf;
      for (uint c = 0u; c < 4u; ++c) {
        uint j = j0 + 4u * tx + c;
        float x = s[r][c] * p.scale;
        if (i >= p.sq || j >= p.sk || (p.causal != 0u && j > i)) {
          x = kMinusInf;
        } else if (p.has_mask != 0u) {
          x += load_mask(m_base + i * p.mask_i + j * p.mask_j);
        }
        s[r][c] = x;
        largest = x > largest ? x : largest;  // a NaN logit is no maximum (it still reaches the sums)
      }
      red[(4u * ty + r) * TX + tx] = largest;
    }
    barrier();
    for (uint r = 0u; r < 4u; ++r) {
      float largest = m[r];
      for (uint u = 0u; u < TX; ++u) {
        float x = red[(4u * ty + r) * TX + u];
        largest = x > largest ? x : largest;
      }
      // While every key so far is masked the maximum is -Inf; 0 stands in for it.
      float subtrahend = largest == kMinusInf ? 0.0 : largest;
      float alpha = exp_or_zero(m[r] - subtrahend);
      m[r] = largest;
      for (uint c = 0u; c < 4u; ++c) s[r][c] = exp_or_zero(s[r][c] - subtrahend);
      l[r] = l[r] * alpha + ((s[r].x + s[r].y) + (s[r].z + s[r].w));
      o[r] *= alpha;
    }
    // Read after the first barrier of the V chunks.
    for (uint c = 0u; c < 4u; ++c) ps[(4u * tx + c) * QS + ty] = vec4(s[0][c], s[1][c], s[2][c], s[3][c]);

    uint keys = min(BK, key_end - j0);
    for (uint jc = 0u; jc < keys; jc += VC) {
      barrier();  // the previous chunk's readers are done
      store_v();
      barrier();
      if (jc + VC < keys) fetch_v(j0 + jc + VC);
      else if (j0 + BK < key_end) fetch_qk(j0 + BK, 0u);
      for (uint jj = 0u; jj < VC; ++jj) {
        vec4 w = ps[(jc + jj) * QS + ty];
        vec4 v = qv[jj * ES + tx];
        for (uint r = 0u; r < 4u; ++r) o[r] += w[r] * v;
      }
    }
  }

  // l of each query: the sum of its invocations' partial sums, in tx order.
  barrier();  // the last readers of red are done
  for (uint r = 0u; r < 4u; ++r) red[(4u * ty + r) * TX + tx] = l[r];
  barrier();
  for (uint r = 0u; r < 4u; ++r) {
    uint i = q0 + 4u * ty + r;
    if (i >= p.sq || e0 + 4u * tx >= p.value_depth) break;
    float total = 0.0;
    for (uint u = 0u; u < TX; ++u) total += red[(4u * ty + r) * TX + u];
    uint row = (bh * p.sq + i) * p.value_depth;
    uint first = row + e0 + 4u * tx;  // this invocation's elements: first .. last
    uint last = row + min(e0 + 4u * tx + 4u, p.value_depth) - 1u;
    float y[4];
    for (uint e = 0u; e < 4u; ++e) y[e] = total == 0.0 ? kNaN : o[r][e] / total;  // no key to attend to: NaN
    if (!kHalf) {
      for (uint n = first; n <= last; ++n) out_words[n] = floatBitsToUint(y[n - first]);
      continue;
    }
    for (uint n = first; n <= last; ++n) {
      uint bits = float_to_half(y[n - first]);
      if ((n & 1u) == 0u && n + 1u <= last) {  // both halves of the word are this invocation's
        out_words[n >> 1u] = bits | (float_to_half(y[n + 1u - first]) << 16u);
        ++n;
      } else {
        store_half(n, bits);
      }
    }
  }
}
