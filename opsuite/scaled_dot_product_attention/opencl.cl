// ScaledDotProductAttention for the opencl backend, FLOAT_32 and FLOAT_16
// (loaded by vload_half into fp32, computed in fp32, rounded once by
// vstore_half_rte), fused as FlashAttention does: the Sq x Sk logits never
// reach memory.
//
// One work-group of SDPA_TX x SDPA_TY work-items (the host's -D, chosen from
// the device's limits) owns one (batch, head), a tile of BQ = 4 SDPA_TY
// queries and a chunk of BE = 4 SDPA_TX output features, and walks the keys
// in tiles of BK = 4 SDPA_TX. Work-item (tx, ty) holds in registers the
// logits of queries 4ty..4ty+3 against keys 4tx..4tx+3 of the tile, and the
// unnormalised outputs of those queries for features 4tx..4tx+3: a 4 x 4
// register block in both products, fed by float4 reads of local memory.
// Per key tile:
//   S = Q K^T   depth in chunks of KC: the chunk of Q and of K staged
//               (transposed) in local memory, then KC rank-1 updates;
//   softmax     scale, the mask, causal and past-the-end keys (-Inf); the
//               tile's row maxima through local memory (red); the running
//               maximum m, the partial sums l and the outputs rescaled by
//               exp(m_old - m_new) (an online softmax); weights exp(s - m)
//               to local memory (ps, transposed);
//   O += P V    keys in chunks of VC, each chunk of V staged in local memory.
// At the end the partial sums meet in red: out = O / l. Causal tiles stop
// at the last key their last query may see. A query whose every logit is
// -Inf keeps m = -Inf (exp of the difference uses 0 in its place, so no
// Inf - Inf) and l = 0: its output is NaN, as the spec says. A wider chunk
// of features than BE recomputes S per chunk (the plan's Dv are at most 40).

#ifndef SDPA_TX
#define SDPA_TX 16
#endif
#ifndef SDPA_TY
#define SDPA_TY 16
#endif

#define SDPA_THREADS (SDPA_TX * SDPA_TY)
#define BQ (4 * SDPA_TY)  // queries per tile
#define BK (4 * SDPA_TX)  // keys per tile
#define BE (4 * SDPA_TX)  // output features per work-group
#define KC 16             // depth per staged chunk of Q and K
#define VC 16             // keys per staged chunk of V
// Row strides in float4 of the staged tiles; one float4 of padding spreads
// the transposing stores over the banks, and keeps every row 16-byte aligned.
#define QS (BQ / 4 + 1)
#define KS (BK / 4 + 1)
#define ES (BE / 4)
#define QV_SIZE (KC * QS > VC * ES ? KC * QS : VC * ES)

inline float sdpa_load(global const float* base, const int half_io, const ulong i) {
  return half_io ? vload_half(i, (global const half*)base) : base[i];
}

inline float sdpa_exp(const float x) { return x == -INFINITY ? 0.0f : exp(x); }

kernel __attribute__((reqd_work_group_size(SDPA_TX, SDPA_TY, 1))) void sdpa_flash(
    global float* out, global const float* query, global const float* key, global const float* value,
    global const float* mask, const int half_io, const int heads, const int sq, const int sk, const int depth,
    const int value_depth, const float scale, const int causal, const int has_mask, const long4 mask_strides) {
  // Q chunks and V chunks take turns in qv (a barrier apart).
  local float4 qv[QV_SIZE];
  local float4 ks[KC * KS];
  local float4 ps[BK * QS];
  local float red[BQ * SDPA_TX];
  local float* const qv1 = (local float*)qv;
  local float* const ks1 = (local float*)ks;

  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  const int tid = ty * SDPA_TX + tx;
  const int bh = (int)get_group_id(0);
  const int q0 = (int)get_group_id(1) * BQ;
  const int e0 = (int)get_group_id(2) * BE;
  const ulong q_base = (ulong)bh * (ulong)sq * (ulong)depth;
  const ulong k_base = (ulong)bh * (ulong)sk * (ulong)depth;
  const ulong v_base = (ulong)bh * (ulong)sk * (ulong)value_depth;
  const long m_base = (long)(bh / heads) * mask_strides.s0 + (long)(bh % heads) * mask_strides.s1;

  float o[4][4], m[4], l[4];
  for (int r = 0; r < 4; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.0f;
    for (int e = 0; e < 4; ++e) o[r][e] = 0.0f;
  }
  // Top-left causal: query i sees keys j <= i; the tile's last query is q_last.
  const int q_last = min(sq, q0 + BQ) - 1;
  const int key_end = causal ? min(sk, q_last + 1) : sk;

  for (int j0 = 0; j0 < key_end; j0 += BK) {
    float s[4][4];
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) s[r][c] = 0.0f;
    for (int d0 = 0; d0 < depth; d0 += KC) {
      barrier(CLK_LOCAL_MEM_FENCE);  // the previous readers of qv and ks are done
      for (int n = tid; n < BQ * KC; n += SDPA_THREADS) {
        const int q = n / KC, d = n % KC;
        const int i = q0 + q, dd = d0 + d;
        qv1[d * QS * 4 + q] = i < sq && dd < depth ? sdpa_load(query, half_io, q_base + (ulong)i * depth + dd) : 0.0f;
      }
      for (int n = tid; n < BK * KC; n += SDPA_THREADS) {
        const int jj = n / KC, d = n % KC;
        const int j = j0 + jj, dd = d0 + d;
        ks1[d * KS * 4 + jj] = j < sk && dd < depth ? sdpa_load(key, half_io, k_base + (ulong)j * depth + dd) : 0.0f;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
      for (int d = 0; d < KC; ++d) {
        const float4 a = qv[d * QS + ty];
        const float4 b = ks[d * KS + tx];
        s[0][0] += a.x * b.x; s[0][1] += a.x * b.y; s[0][2] += a.x * b.z; s[0][3] += a.x * b.w;
        s[1][0] += a.y * b.x; s[1][1] += a.y * b.y; s[1][2] += a.y * b.z; s[1][3] += a.y * b.w;
        s[2][0] += a.z * b.x; s[2][1] += a.z * b.y; s[2][2] += a.z * b.z; s[2][3] += a.z * b.w;
        s[3][0] += a.w * b.x; s[3][1] += a.w * b.y; s[3][2] += a.w * b.z; s[3][3] += a.w * b.w;
      }
    }

    // Logits, and each row's maximum over this work-item's four keys.
    for (int r = 0; r < 4; ++r) {
      const int i = q0 + 4 * ty + r;
      float largest = -INFINITY;
      for (int c = 0; c < 4; ++c) {
        const int j = j0 + 4 * tx + c;
        float x = s[r][c] * scale;
        if (i >= sq || j >= sk || (causal && j > i)) {
          x = -INFINITY;
        } else if (has_mask) {
          x += sdpa_load(mask, half_io, (ulong)(m_base + i * mask_strides.s2 + j * mask_strides.s3));
        }
        s[r][c] = x;
        largest = x > largest ? x : largest;  // a NaN logit is no maximum (it still reaches the sums)
      }
      red[(4 * ty + r) * SDPA_TX + tx] = largest;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < 4; ++r) {
      float largest = m[r];
      for (int t = 0; t < SDPA_TX; ++t) {
        const float x = red[(4 * ty + r) * SDPA_TX + t];
        largest = x > largest ? x : largest;
      }
      // While every key so far is masked the maximum is -Inf; 0 stands in for it.
      const float subtrahend = largest == -INFINITY ? 0.0f : largest;
      const float alpha = sdpa_exp(m[r] - subtrahend);
      m[r] = largest;
      float sum = 0.0f;
      for (int c = 0; c < 4; ++c) {
        s[r][c] = sdpa_exp(s[r][c] - subtrahend);
        sum += s[r][c];
      }
      l[r] = l[r] * alpha + sum;
      for (int e = 0; e < 4; ++e) o[r][e] *= alpha;
    }
    for (int c = 0; c < 4; ++c) ps[(4 * tx + c) * QS + ty] = (float4)(s[0][c], s[1][c], s[2][c], s[3][c]);

    const int keys = min(BK, key_end - j0);
    for (int jc = 0; jc < keys; jc += VC) {
      barrier(CLK_LOCAL_MEM_FENCE);  // ps is written; the previous readers of qv are done
      for (int n = tid; n < VC * BE; n += SDPA_THREADS) {
        const int jj = n / BE, e = n % BE;
        const int j = j0 + jc + jj, ee = e0 + e;
        // Zeros past the last key: their weights are 0, and 0 * garbage could be NaN.
        qv1[n] = j < sk && ee < value_depth ? sdpa_load(value, half_io, v_base + (ulong)j * value_depth + ee) : 0.0f;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
      for (int jj = 0; jj < VC; ++jj) {
        const float4 p = ps[(jc + jj) * QS + ty];
        const float4 v = qv[jj * ES + tx];
        o[0][0] += p.x * v.x; o[0][1] += p.x * v.y; o[0][2] += p.x * v.z; o[0][3] += p.x * v.w;
        o[1][0] += p.y * v.x; o[1][1] += p.y * v.y; o[1][2] += p.y * v.z; o[1][3] += p.y * v.w;
        o[2][0] += p.z * v.x; o[2][1] += p.z * v.y; o[2][2] += p.z * v.z; o[2][3] += p.z * v.w;
        o[3][0] += p.w * v.x; o[3][1] += p.w * v.y; o[3][2] += p.w * v.z; o[3][3] += p.w * v.w;
      }
    }
  }

  // l of each query: the sum of its work-items' partial sums, in tx order.
  barrier(CLK_LOCAL_MEM_FENCE);  // the last readers of red are done
  for (int r = 0; r < 4; ++r) red[(4 * ty + r) * SDPA_TX + tx] = l[r];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = 0; r < 4; ++r) {
    const int i = q0 + 4 * ty + r;
    if (i >= sq) break;
    float total = 0.0f;
    for (int t = 0; t < SDPA_TX; ++t) total += red[(4 * ty + r) * SDPA_TX + t];
    const ulong row = ((ulong)bh * (ulong)sq + (ulong)i) * (ulong)value_depth;
    for (int e = 0; e < 4; ++e) {
      const int ee = e0 + 4 * tx + e;
      if (ee >= value_depth) break;
      const float y = total == 0.0f ? NAN : o[r][e] / total;  // no key to attend to: NaN
      if (half_io) vstore_half_rte(y, row + ee, (global half*)out);
      else out[row + ee] = y;
    }
  }
}
