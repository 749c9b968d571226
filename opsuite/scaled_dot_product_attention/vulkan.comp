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
//
// Written so that no register array is indexed at run time, whatever the
// driver unrolls: every loop over the 4 x 4 blocks and the staged shares has
// a literal bound (the shares skip the steps past their spec-constant size)
// and holds no `continue` and no inner loop, so spirv-opt unrolls it when the
// shader is built and the arrays are plain values in the SPIR-V; the softmax
// works on whole vec4s, the row reductions read one vec4 per invocation, the
// products are explicit fma. The earlier form, loops over the arrays that
// only the driver could unroll, ran ten times slower than opencl.cl on an
// H100 (a driver that leaves such a loop rolled keeps the array in
// per-invocation local memory, every access a trip through L1).

#extension GL_EXT_control_flow_attributes : require

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
// Per invocation (ty, tx): a value for each of its four queries (row maxima, then partial sums).
shared vec4 red[TY * TX];

#define kMinusInf uintBitsToFloat(0xff800000u)
#define kNaN uintBitsToFloat(0x7fc00000u)

float load_mask(uint i) { return OPRIG_LOAD_F(mask_words, i, kHalf); }
// The word as stored that holds element i (FLOAT_16: two to a word), whether
// it is the upper half, and the element's value from the two.
uint word_of(uint i) { return kHalf ? i >> 1u : i; }
bool high_of(uint i) { return kHalf && (i & 1u) != 0u; }
float widen(uint word, bool high) {
  return kHalf ? half_to_float(high ? word >> 16u : word & 0xffffu) : uintBitsToFloat(word);
}

// exp, and exactly 0 for -Inf (the masked keys), component-wise.
vec4 exp_or_zero(vec4 x) { return mix(exp(x), vec4(0.0), equal(x, vec4(kMinusInf))); }

// Half n of the output, the other half of its word left as it is.
void store_half(uint n, uint bits) {
  uint word = n >> 1u, shift = 16u * (n & 1u);
  atomicAnd(out_words[word], ~(0xffffu << shift));
  atomicOr(out_words[word], bits << shift);
}

// The largest of x's components; a NaN is no maximum (it still reaches the sums).
float max_of(vec4 x) {
  float largest = kMinusInf;
  largest = x.x > largest ? x.x : largest;
  largest = x.y > largest ? x.y : largest;
  largest = x.z > largest ? x.z : largest;
  return x.w > largest ? x.w : largest;
}

// Output element first + e (value v; the next one's: next) when it is at
// most `last`. FLOAT_16: an element at an even index whose successor is this
// invocation's too takes it along in one whole word; the others go in half
// by half.
void store_output(uint first, uint last, uint e, float v, float next) {
  uint n = first + e;
  bool taken = e > 0u && ((n - 1u) & 1u) == 0u;  // written whole with element e - 1
  if (n > last) return;
  if (!kHalf) {
    out_words[n] = floatBitsToUint(v);
  } else if (!taken) {
    uint bits = float_to_half(v);
    if ((n & 1u) == 0u && n + 1u <= last && e < 3u) out_words[n >> 1u] = bits | (float_to_half(next) << 16u);
    else store_half(n, bits);
  }
}

// Written out as four calls: spirv-opt unrolls no loop that holds a loop, so
// a loop here would keep the caller's loop over rows (and the arrays it
// indexes) rolled.
void store_outputs(uint first, uint last, vec4 y) {
  store_output(first, last, 0u, y.x, y.y);
  store_output(first, last, 1u, y.y, y.z);
  store_output(first, last, 2u, y.z, y.w);
  store_output(first, last, 3u, y.w, 0.0);
}

// This invocation's share of a staged chunk: at most kMaxShare elements
// each of Q and K (TX, TY >= 8 and KC = VC = 16). The loops below run to
// kMaxShare, a literal, and skip the steps past the share (spec constants,
// folded when the pipeline is made), so spirv-opt unrolls them (it unrolls
// no loop with a `continue`) and `share` is indexed by constants only.
// The share waits in registers as the words loaded, untouched, and is
// widened only on its way to shared memory, after the arithmetic on the
// current chunk: the loads stay in flight meanwhile (any instruction on a
// loaded value, even picking its fp16 half, waits for the load).
const uint kMaxShare = 8u;
uint share[2u * kMaxShare];
uint share_high;  // bit u: element u of the share is its word's upper half
uint tid, q0, e0, q_base, k_base, v_base;

// This invocation's share of a chunk, from the buffers into `share`; zeros
// outside the tensors (0 * a garbage value could be NaN). Q and K: depth
// d0..d0+KC-1 of the tile's queries and of keys j0..j0+BK-1.
void fetch_qk(uint j0, uint d0) {
  uint high = 0u;
  [[unroll]] for (uint u = 0u; u < kMaxShare; ++u) {
    if (u < kQShare) {
      uint n = tid + u * kThreads, i = q0 + n / KC, d = d0 + n % KC, at = q_base + i * p.depth + d;
      share[u] = i < p.sq && d < p.depth ? query_words[word_of(at)] : 0u;
      high |= high_of(at) ? 1u << u : 0u;
    }
  }
  [[unroll]] for (uint u = 0u; u < kMaxShare; ++u) {
    if (u < kKShare) {
      uint n = tid + u * kThreads, j = j0 + n / KC, d = d0 + n % KC, at = k_base + j * p.depth + d;
      share[kMaxShare + u] = j < p.sk && d < p.depth ? key_words[word_of(at)] : 0u;
      high |= high_of(at) ? 1u << (kMaxShare + u) : 0u;
    }
  }
  share_high = high;
}

// V: keys j..j+VC-1, the workgroup's features.
void fetch_v(uint j) {
  uint high = 0u;
  [[unroll]] for (uint u = 0u; u < kMaxShare; ++u) {
    if (u < kVShare) {
      uint n = tid + u * kThreads, jj = j + n / BE, e = e0 + n % BE, at = v_base + jj * p.value_depth + e;
      share[u] = jj < p.sk && e < p.value_depth ? value_words[word_of(at)] : 0u;
      high |= high_of(at) ? 1u << u : 0u;
    }
  }
  share_high = high;
}

float shared_value(uint u) { return widen(share[u], (share_high & (1u << u)) != 0u); }

// The shares to shared memory: Q and K transposed (depth-major), V as it is.
void store_qk() {
  [[unroll]] for (uint u = 0u; u < kMaxShare; ++u) {
    if (u < kQShare) {
      uint n = tid + u * kThreads, at = (n % KC) * QS * 4u + n / KC;
      qv[at >> 2u][at & 3u] = shared_value(u);
    }
  }
  [[unroll]] for (uint u = 0u; u < kMaxShare; ++u) {
    if (u < kKShare) {
      uint n = tid + u * kThreads, at = (n % KC) * KS * 4u + n / KC;
      ks[at >> 2u][at & 3u] = shared_value(kMaxShare + u);
    }
  }
}

void store_v() {
  [[unroll]] for (uint u = 0u; u < kMaxShare; ++u) {
    if (u < kVShare) {
      uint n = tid + u * kThreads;
      qv[n >> 2u][n & 3u] = shared_value(u);
    }
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
  vec4 m = vec4(kMinusInf), l = vec4(0.0);
  [[unroll]] for (uint r = 0u; r < 4u; ++r) o[r] = vec4(0.0);
  // Top-left causal: query i sees keys j <= i; the tile's last query is q_last.
  uint q_last = min(p.sq, q0 + BQ) - 1u;
  uint key_end = p.causal != 0u ? min(p.sk, q_last + 1u) : p.sk;

  if (key_end > 0u) fetch_qk(0u, 0u);
  for (uint j0 = 0u; j0 < key_end; j0 += BK) {
    [[unroll]] for (uint r = 0u; r < 4u; ++r) s[r] = vec4(0.0);
    for (uint d0 = 0u; d0 < p.depth; d0 += KC) {
      barrier();  // the previous chunk's readers are done
      store_qk();
      barrier();
      if (d0 + KC < p.depth) fetch_qk(j0, d0 + KC);
      else fetch_v(j0);
      [[unroll]] for (uint d = 0u; d < KC; ++d) {
        vec4 a = qv[d * QS + ty];
        vec4 b = ks[d * KS + tx];
        s[0] = fma(vec4(a.x), b, s[0]);
        s[1] = fma(vec4(a.y), b, s[1]);
        s[2] = fma(vec4(a.z), b, s[2]);
        s[3] = fma(vec4(a.w), b, s[3]);
      }
    }

    // The softmax step: the logits, and each row's maximum over this invocation's four keys.
    uvec4 j = uvec4(j0 + 4u * tx) + uvec4(0u, 1u, 2u, 3u);
    vec4 row_max;
    [[unroll]] for (uint r = 0u; r < 4u; ++r) {
      uint i = q0 + 4u * ty + r;
      vec4 x = s[r] * p.scale;
      if (p.has_mask != 0u && i < p.sq) {
        uint at = m_base + i * p.mask_i;
        x += vec4(j.x < p.sk ? load_mask(at + j.x * p.mask_j) : 0.0, j.y < p.sk ? load_mask(at + j.y * p.mask_j) : 0.0,
                  j.z < p.sk ? load_mask(at + j.z * p.mask_j) : 0.0, j.w < p.sk ? load_mask(at + j.w * p.mask_j) : 0.0);
      }
      // Past the last key, past the last query, and above the diagonal when causal: -Inf.
      bvec4 out_of_reach = greaterThanEqual(j, uvec4(p.sk));
      if (i >= p.sq) out_of_reach = bvec4(true);
      if (p.causal != 0u) out_of_reach = bvec4(uvec4(out_of_reach) | uvec4(greaterThan(j, uvec4(i))));
      x = mix(x, vec4(kMinusInf), out_of_reach);
      s[r] = x;
      row_max[r] = max_of(x);
    }
    red[ty * TX + tx] = row_max;
    barrier();
    // The running maxima over the tile's keys (the invocations of row ty, in tx order).
    vec4 largest = m;
    [[unroll]] for (uint u = 0u; u < TX; ++u) {
      vec4 x = red[ty * TX + u];
      largest = mix(largest, x, greaterThan(x, largest));
    }
    // While every key so far is masked the maximum is -Inf; 0 stands in for it.
    vec4 subtrahend = mix(largest, vec4(0.0), equal(largest, vec4(kMinusInf)));
    vec4 alpha = exp_or_zero(m - subtrahend);
    m = largest;
    [[unroll]] for (uint r = 0u; r < 4u; ++r) {
      s[r] = exp_or_zero(s[r] - subtrahend[r]);
      l[r] = l[r] * alpha[r] + ((s[r].x + s[r].y) + (s[r].z + s[r].w));
      o[r] *= alpha[r];
    }
    // Read after the first barrier of the V chunks.
    ps[(4u * tx + 0u) * QS + ty] = vec4(s[0].x, s[1].x, s[2].x, s[3].x);
    ps[(4u * tx + 1u) * QS + ty] = vec4(s[0].y, s[1].y, s[2].y, s[3].y);
    ps[(4u * tx + 2u) * QS + ty] = vec4(s[0].z, s[1].z, s[2].z, s[3].z);
    ps[(4u * tx + 3u) * QS + ty] = vec4(s[0].w, s[1].w, s[2].w, s[3].w);

    uint keys = min(BK, key_end - j0);
    for (uint jc = 0u; jc < keys; jc += VC) {
      barrier();  // the previous chunk's readers are done
      store_v();
      barrier();
      if (jc + VC < keys) fetch_v(j0 + jc + VC);
      else if (j0 + BK < key_end) fetch_qk(j0 + BK, 0u);
      [[unroll]] for (uint jj = 0u; jj < VC; ++jj) {
        vec4 w = ps[(jc + jj) * QS + ty];
        vec4 v = qv[jj * ES + tx];
        o[0] = fma(vec4(w.x), v, o[0]);
        o[1] = fma(vec4(w.y), v, o[1]);
        o[2] = fma(vec4(w.z), v, o[2]);
        o[3] = fma(vec4(w.w), v, o[3]);
      }
    }
  }

  // l of each query: the sum of its invocations' partial sums, in tx order.
  barrier();  // the last readers of red are done
  red[ty * TX + tx] = l;
  barrier();
  vec4 totals = vec4(0.0);
  [[unroll]] for (uint u = 0u; u < TX; ++u) totals += red[ty * TX + u];
  [[unroll]] for (uint r = 0u; r < 4u; ++r) {
    uint i = q0 + 4u * ty + r;
    if (i < p.sq && e0 + 4u * tx < p.value_depth) {
      uint row = (bh * p.sq + i) * p.value_depth;
      uint first = row + e0 + 4u * tx;  // this invocation's elements: first .. last
      uint last = row + min(e0 + 4u * tx + 4u, p.value_depth) - 1u;
      vec4 y = totals[r] == 0.0 ? vec4(kNaN) : o[r] / totals[r];  // no key to attend to: NaN
      store_outputs(first, last, y);
    }
  }
}
