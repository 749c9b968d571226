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
// The staged chunks form one pipeline (the tile's chunks of Q and K, its
// chunks of V, then the next tile's): each work-item loads its share of the
// next chunk from global memory into registers before the arithmetic on the
// current one, so the loads are in flight meanwhile, and stores them to
// local memory after.
// At the end the partial sums meet in red: out = O / l. Causal tiles stop
// at the last key their last query may see, and the work-groups with the
// most keys start first. A query whose every logit is -Inf keeps m = -Inf
// (exp of the difference uses 0 in its place, so no Inf - Inf) and l = 0:
// its output is NaN, as the spec says. More features than BE take more
// work-groups, each computing S again (the plan's Dv are at most 40).

#ifndef SDPA_TX
#define SDPA_TX 16
#endif
#ifndef SDPA_TY
#define SDPA_TY 8
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
// Each work-item's share of a staged chunk: Q and K elements, or V elements.
#define Q_SHARE (BQ * KC / SDPA_THREADS)
#define K_SHARE (BK * KC / SDPA_THREADS)
#define V_SHARE (VC * BE / SDPA_THREADS)
#define SHARE (Q_SHARE + K_SHARE > V_SHARE ? Q_SHARE + K_SHARE : V_SHARE)

inline float sdpa_load(global const float* base, const int half_io, const ulong i) {
  return half_io ? vload_half(i, (global const half*)base) : base[i];
}

inline float sdpa_exp(const float x) { return x == -INFINITY ? 0.0f : exp(x); }

typedef struct {
  global const float *query, *key, *value;
  int half_io, sq, sk, depth, value_depth;
  int q0, e0;
  ulong q_base, k_base, v_base;
} Tensors;

// This work-item's share of a chunk, from global memory into `share`; zeros
// outside the tensors (0 * a garbage value could be NaN). Q and K: depth
// d0..d0+KC-1 of the tile's queries and of keys j0..j0+BK-1.
inline void fetch_qk(const Tensors* t, const int j0, const int d0, const int tid, float* share) {
  for (int u = 0; u < Q_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS, i = t->q0 + n / KC, d = d0 + n % KC;
    share[u] = i < t->sq && d < t->depth ? sdpa_load(t->query, t->half_io, t->q_base + (ulong)i * t->depth + d) : 0.0f;
  }
  for (int u = 0; u < K_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS, j = j0 + n / KC, d = d0 + n % KC;
    share[Q_SHARE + u] =
        j < t->sk && d < t->depth ? sdpa_load(t->key, t->half_io, t->k_base + (ulong)j * t->depth + d) : 0.0f;
  }
}

// V: keys j..j+VC-1, the work-group's features.
inline void fetch_v(const Tensors* t, const int j, const int tid, float* share) {
  for (int u = 0; u < V_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS, jj = j + n / BE, e = t->e0 + n % BE;
    share[u] = jj < t->sk && e < t->value_depth
                   ? sdpa_load(t->value, t->half_io, t->v_base + (ulong)jj * t->value_depth + e)
                   : 0.0f;
  }
}

// The shares to local memory: Q and K transposed (depth-major), V as it is.
inline void store_qk(const int tid, const float* share, local float* qv, local float* ks) {
  for (int u = 0; u < Q_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS;
    qv[(n % KC) * QS * 4 + n / KC] = share[u];
  }
  for (int u = 0; u < K_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS;
    ks[(n % KC) * KS * 4 + n / KC] = share[Q_SHARE + u];
  }
}

inline void store_v(const int tid, const float* share, local float* qv) {
  for (int u = 0; u < V_SHARE; ++u) qv[tid + u * SDPA_THREADS] = share[u];
}

kernel __attribute__((reqd_work_group_size(SDPA_TX, SDPA_TY, 1))) void sdpa_flash(
    global float* out, global const float* query, global const float* key, global const float* value,
    global const float* mask, const int half_io, const int heads, const int sq, const int sk, const int depth,
    const int value_depth, const float scale, const int causal, const int has_mask, const long4 mask_strides) {
  // Q chunks and V chunks take turns in qv (a barrier apart).
  local float4 qv[QV_SIZE];
  local float4 ks[KC * KS];
  local float4 ps[BK * QS];
  local float red[BQ * SDPA_TX];

  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  const int tid = ty * SDPA_TX + tx;
  const int bh = (int)get_group_id(0);
  // Causal: the last tiles of queries see the most keys; they go first.
  const int tile = causal ? (int)(get_num_groups(1) - 1 - get_group_id(1)) : (int)get_group_id(1);
  Tensors t;
  t.query = query;
  t.key = key;
  t.value = value;
  t.half_io = half_io;
  t.sq = sq;
  t.sk = sk;
  t.depth = depth;
  t.value_depth = value_depth;
  t.q0 = tile * BQ;
  t.e0 = (int)get_group_id(2) * BE;
  t.q_base = (ulong)bh * (ulong)sq * (ulong)depth;
  t.k_base = (ulong)bh * (ulong)sk * (ulong)depth;
  t.v_base = (ulong)bh * (ulong)sk * (ulong)value_depth;
  const int q0 = t.q0;
  const long m_base = (long)(bh / heads) * mask_strides.s0 + (long)(bh % heads) * mask_strides.s1;

  float o[4][4], s[4][4], m[4], l[4];
  for (int r = 0; r < 4; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.0f;
    for (int e = 0; e < 4; ++e) o[r][e] = 0.0f;
  }
  // Top-left causal: query i sees keys j <= i; the tile's last query is q_last.
  const int q_last = min(sq, q0 + BQ) - 1;
  const int key_end = causal ? min(sk, q_last + 1) : sk;

  float share[SHARE];
  if (key_end > 0) fetch_qk(&t, 0, 0, tid, share);
  for (int j0 = 0; j0 < key_end; j0 += BK) {
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) s[r][c] = 0.0f;
    for (int d0 = 0; d0 < depth; d0 += KC) {
      barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's readers are done
      store_qk(tid, share, (local float*)qv, (local float*)ks);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (d0 + KC < depth) fetch_qk(&t, j0, d0 + KC, tid, share);
      else fetch_v(&t, j0, tid, share);
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

    // The softmax step: the logits, and each row's maximum over this work-item's four keys.
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
      for (int u = 0; u < SDPA_TX; ++u) {
        const float x = red[(4 * ty + r) * SDPA_TX + u];
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
    // Read after the first barrier of the V chunks.
    for (int c = 0; c < 4; ++c) ps[(4 * tx + c) * QS + ty] = (float4)(s[0][c], s[1][c], s[2][c], s[3][c]);

    const int keys = min(BK, key_end - j0);
    for (int jc = 0; jc < keys; jc += VC) {
      barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's readers are done
      store_v(tid, share, (local float*)qv);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (jc + VC < keys) fetch_v(&t, j0 + jc + VC, tid, share);
      else if (j0 + BK < key_end) fetch_qk(&t, j0 + BK, 0, tid, share);
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
    for (int u = 0; u < SDPA_TX; ++u) total += red[(4 * ty + r) * SDPA_TX + u];
    const ulong row = ((ulong)bh * (ulong)sq + (ulong)i) * (ulong)value_depth;
    for (int e = 0; e < 4; ++e) {
      const int ee = t.e0 + 4 * tx + e;
      if (ee >= value_depth) break;
      const float y = total == 0.0f ? NAN : o[r][e] / total;  // no key to attend to: NaN
      if (half_io) vstore_half_rte(y, row + ee, (global half*)out);
      else out[row + ee] = y;
    }
  }
}
