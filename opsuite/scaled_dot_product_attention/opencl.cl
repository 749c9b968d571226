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
// local memory after. The share waits as the bits loaded (FLOAT_16: the
// half's 16 bits) and is widened on its way to local memory: a conversion
// right after the load would wait for it before the arithmetic.
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

// Element i as stored: fp32 bits, or the half's bits; and its value.
inline uint sdpa_bits(global const float* base, const int half_io, const ulong i) {
  return half_io ? (uint)((global const ushort*)base)[i] : as_uint(base[i]);
}
inline float sdpa_widen(const int half_io, const uint bits) {
  return half_io ? oprig_half_bits_to_float(bits) : as_float(bits);  // common/opencl/fp16_bits.cl
}

typedef struct {
  global const float *query, *key, *value;
  int half_io, sq, sk, depth, value_depth;
  int q0, e0;
  ulong q_base, k_base, v_base;
} Tensors;

// This work-item's share of a chunk, from global memory into `share` as
// stored; zeros outside the tensors (0 * a garbage value could be NaN). Q
// and K: depth d0..d0+KC-1 of the tile's queries and of keys j0..j0+BK-1.
inline void fetch_qk(const Tensors* t, const int j0, const int d0, const int tid, uint* share) {
  for (int u = 0; u < Q_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS, i = t->q0 + n / KC, d = d0 + n % KC;
    share[u] = i < t->sq && d < t->depth ? sdpa_bits(t->query, t->half_io, t->q_base + (ulong)i * t->depth + d) : 0u;
  }
  for (int u = 0; u < K_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS, j = j0 + n / KC, d = d0 + n % KC;
    share[Q_SHARE + u] =
        j < t->sk && d < t->depth ? sdpa_bits(t->key, t->half_io, t->k_base + (ulong)j * t->depth + d) : 0u;
  }
}

// V: keys j..j+VC-1, the work-group's features.
inline void fetch_v(const Tensors* t, const int j, const int tid, uint* share) {
  for (int u = 0; u < V_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS, jj = j + n / BE, e = t->e0 + n % BE;
    share[u] = jj < t->sk && e < t->value_depth
                   ? sdpa_bits(t->value, t->half_io, t->v_base + (ulong)jj * t->value_depth + e)
                   : 0u;
  }
}

// The shares, widened, to local memory: Q and K transposed (depth-major), V as it is.
inline void store_qk(const int half_io, const int tid, const uint* share, local float* qv, local float* ks) {
  for (int u = 0; u < Q_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS;
    qv[(n % KC) * QS * 4 + n / KC] = sdpa_widen(half_io, share[u]);
  }
  for (int u = 0; u < K_SHARE; ++u) {
    const int n = tid + u * SDPA_THREADS;
    ks[(n % KC) * KS * 4 + n / KC] = sdpa_widen(half_io, share[Q_SHARE + u]);
  }
}

inline void store_v(const int half_io, const int tid, const uint* share, local float* qv) {
  for (int u = 0; u < V_SHARE; ++u) qv[tid + u * SDPA_THREADS] = sdpa_widen(half_io, share[u]);
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

  // Row r: logits of query 4ty + r against keys 4tx..4tx+3 (s), its outputs
  // for features 4tx..4tx+3 (o), running maximum (m) and partial sum (l).
  float4 s[4], o[4];
  float m[4], l[4];
  for (int r = 0; r < 4; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.0f;
    o[r] = (float4)(0.0f);
  }
  // Top-left causal: query i sees keys j <= i; the tile's last query is q_last.
  const int q_last = min(sq, q0 + BQ) - 1;
  const int key_end = causal ? min(sk, q_last + 1) : sk;

  uint share[SHARE];
  if (key_end > 0) fetch_qk(&t, 0, 0, tid, share);
  for (int j0 = 0; j0 < key_end; j0 += BK) {
    for (int r = 0; r < 4; ++r) s[r] = (float4)(0.0f);
    for (int d0 = 0; d0 < depth; d0 += KC) {
      barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's readers are done
      store_qk(half_io, tid, share, (local float*)qv, (local float*)ks);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (d0 + KC < depth) fetch_qk(&t, j0, d0 + KC, tid, share);
      else fetch_v(&t, j0, tid, share);
#pragma unroll
      for (int d = 0; d < KC; ++d) {
        const float4 a = qv[d * QS + ty];
        const float4 b = ks[d * KS + tx];
        s[0] += a.x * b;
        s[1] += a.y * b;
        s[2] += a.z * b;
        s[3] += a.w * b;
      }
    }

    // The softmax step: the logits, and each row's maximum over this work-item's four keys.
    const int4 j = (int4)(j0 + 4 * tx) + (int4)(0, 1, 2, 3);
    for (int r = 0; r < 4; ++r) {
      const int i = q0 + 4 * ty + r;
      float4 x = s[r] * scale;
      if (has_mask && i < sq) {
        const long row = m_base + i * mask_strides.s2;
        float mask_values[4];
        for (int c = 0; c < 4; ++c) {
          const int jc = j0 + 4 * tx + c;
          mask_values[c] = jc < sk ? sdpa_load(mask, half_io, (ulong)(row + jc * mask_strides.s3)) : 0.0f;
        }
        x += vload4(0, mask_values);
      }
      // Past the last key, past the last query, and above the diagonal when causal: -Inf.
      const int4 out_of_reach = j >= sk | (int4)(-(i >= sq)) | (causal ? j > i : (int4)(0));
      x = select(x, (float4)(-INFINITY), out_of_reach);
      s[r] = x;
      // fmax passes over a NaN logit (which still reaches the sums through exp).
      red[(4 * ty + r) * SDPA_TX + tx] = fmax(fmax(x.x, x.y), fmax(x.z, x.w));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < 4; ++r) {
      float largest = m[r];
      for (int u = 0; u < SDPA_TX; ++u) largest = fmax(largest, red[(4 * ty + r) * SDPA_TX + u]);
      // While every key so far is masked the maximum is -Inf; 0 stands in for
      // it. exp(-Inf) = 0 (OpenCL's edge cases): masked keys weigh nothing.
      const float subtrahend = largest == -INFINITY ? 0.0f : largest;
      const float alpha = exp(m[r] - subtrahend);
      m[r] = largest;
      s[r] = exp(s[r] - subtrahend);
      l[r] = l[r] * alpha + ((s[r].x + s[r].y) + (s[r].z + s[r].w));
      o[r] *= alpha;
    }
    // Read after the first barrier of the V chunks.
    ps[(4 * tx + 0) * QS + ty] = (float4)(s[0].x, s[1].x, s[2].x, s[3].x);
    ps[(4 * tx + 1) * QS + ty] = (float4)(s[0].y, s[1].y, s[2].y, s[3].y);
    ps[(4 * tx + 2) * QS + ty] = (float4)(s[0].z, s[1].z, s[2].z, s[3].z);
    ps[(4 * tx + 3) * QS + ty] = (float4)(s[0].w, s[1].w, s[2].w, s[3].w);

    const int keys = min(BK, key_end - j0);
    for (int jc = 0; jc < keys; jc += VC) {
      barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's readers are done
      store_v(half_io, tid, share, (local float*)qv);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (jc + VC < keys) fetch_v(&t, j0 + jc + VC, tid, share);
      else if (j0 + BK < key_end) fetch_qk(&t, j0 + BK, 0, tid, share);
#pragma unroll
      for (int jj = 0; jj < VC; ++jj) {
        const float4 p = ps[(jc + jj) * QS + ty];
        const float4 v = qv[jj * ES + tx];
        o[0] += p.x * v;
        o[1] += p.y * v;
        o[2] += p.z * v;
        o[3] += p.w * v;
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
    float y[4];
    vstore4(total == 0.0f ? (float4)(NAN) : o[r] / total, 0, y);  // no key to attend to: NaN
    for (int e = 0; e < 4; ++e) {
      const int ee = t.e0 + 4 * tx + e;
      if (ee >= value_depth) break;
      if (half_io) vstore_half_rte(y[e], row + ee, (global half*)out);
      else out[row + ee] = y[e];
    }
  }
}
