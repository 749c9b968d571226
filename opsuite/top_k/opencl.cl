// TopK for the opencl backend: the tile path and the sort path of
// top_k_plan.hpp over the ranks of common/opencl/select_rank.cl (greater is
// better: the key, bitwise-not for the smallest first, then ~index). Each
// kernel that reads elements or writes values exists per element type
// (f32, f16, i32); the values written are the input's elements, bit for bit.

// Rank of element j of a line: `flip` is 0 (largest first) or -1.
#define TOPK_RANK(KEY, v, j, flip) oprig_rank(KEY(v) ^ (flip), ~(uint)(j))
#define TOPK_KEY_OF_INT(v) (v)

// Offset of element 0 of a line; of its element j: + j x inner.
inline ulong topk_line_base(const uint line, const uint n, const uint inner) {
  return inner == 1 ? (ulong)line * n : (ulong)(line / inner) * n * inner + line % inner;
}
// Offset of output t (of k) of a line.
inline ulong topk_output(const uint line, const uint t, const uint k, const uint inner) {
  return inner == 1 ? (ulong)line * k + t : ((ulong)(line / inner) * k + t) * inner + line % inner;
}

// After it, buf[a] >= buf[b] (descending) or buf[a] <= buf[b].
inline void topk_exchange(local ulong* buf, const uint a, const uint b, const bool descending) {
  const ulong u = buf[a], v = buf[b];
  if ((u < v) == descending) {
    buf[a] = v;
    buf[b] = u;
  }
}

// Sorts `runs` runs of K = 1 << k_log2 ranks, run r at r << stride_log2:
// descending, or with `alternate` ascending where r is odd (so that runs
// 2m and 2m + 1 form a bitonic sequence). Every work-item must call it.
inline void topk_sort_runs(local ulong* buf, const uint runs, const uint k_log2, const uint stride_log2,
                           const bool alternate) {
  if (k_log2 == 0) return;
  const uint lid = get_local_id(0), group = get_local_size(0);
  const uint K = 1u << k_log2, pairs = runs << (k_log2 - 1);
  for (uint size = 2; size <= K; size <<= 1) {
    for (uint j = size >> 1; j > 0; j >>= 1) {
      for (uint p = lid; p < pairs; p += group) {
        const uint v = 2 * p - (p & (j - 1));  // run-major position of the pair's first rank
        const bool descending = size == K ? !(alternate && (v & K) != 0) : (v & size) == 0;
        const uint a = ((v >> k_log2) << stride_log2) | (v & (K - 1));
        topk_exchange(buf, a, a + j, descending);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}

// Each of `segs` segments of 1 << seg_log2 ranks, sorted in alternating
// runs of K, to its K best, sorted descending, at its start: neighbouring
// runs d apart merge in pairs (the greater of each position, then a
// bitonic merge), d = 1, 2, 4, ... Every work-item must call it.
inline void topk_reduce_runs(local ulong* buf, const uint segs, const uint seg_log2, const uint k_log2) {
  const uint lid = get_local_id(0), group = get_local_size(0);
  const uint K = 1u << k_log2;
  for (uint d_log2 = 0; k_log2 + d_log2 < seg_log2; ++d_log2) {
    const uint pairs_log2 = seg_log2 - k_log2 - d_log2 - 1;  // run pairs per segment
    const uint run_gap = 1u << (k_log2 + d_log2);            // from run 2m d to run (2m + 1) d
    for (uint q = lid; q < segs << (pairs_log2 + k_log2); q += group) {
      const uint s = q >> (pairs_log2 + k_log2), m = (q >> k_log2) & ((1u << pairs_log2) - 1);
      const uint a = (s << seg_log2) + 2 * m * run_gap + (q & (K - 1));
      buf[a] = max(buf[a], buf[a + run_gap]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (k_log2 == 0) continue;
    for (uint j = K >> 1; j > 0; j >>= 1) {
      for (uint p = lid; p < segs << (pairs_log2 + k_log2 - 1); p += group) {
        const uint run = p >> (k_log2 - 1), w = p & ((K >> 1) - 1);
        const uint s = run >> pairs_log2, m = run & ((1u << pairs_log2) - 1);
        const uint a = (s << seg_log2) + 2 * m * run_gap + 2 * w - (w & (j - 1));
        topk_exchange(buf, a, a + j, pairs_log2 == 0 || (m & 1) == 0);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}

// The tile path. Work-group g holds lines g x segs .. + segs, part p
// (dimension 1) of each: elements p x part_len .. of the line, which is
// the input's (from_ranks 0) or `line_len` ranks in `ranks` (from_ranks 1:
// the parts' winners of a first pass). One part writes indices and values;
// several write each part's k best ranks to `ranks`.
#define TOPK_TILES_KERNEL(name, T, KEY)                                                                            \
  kernel void name(global const T* x, global ulong* ranks, global T* values, global int* indices, const uint lines, \
                   const uint n, const uint inner, const uint k, const uint k_log2, const uint seg_log2,           \
                   const uint segs_log2, const uint lane_fast, const uint part_len, const uint line_len,           \
                   const int flip, const uint sorted, const uint from_ranks, local ulong* buf) {                   \
    const uint lid = get_local_id(0), group = get_local_size(0);                                                  \
    const uint K = 1u << k_log2, seg = 1u << seg_log2, segs = 1u << segs_log2;                                    \
    const uint first_line = (uint)get_group_id(0) << segs_log2;                                                   \
    const uint part = (uint)get_group_id(1), parts = (uint)get_num_groups(1);                                     \
    const uint from = part * part_len, len = min(part_len, line_len - from);                                      \
    uint kept = 0; /* ranks at each segment's start holding the best so far */                                   \
    for (uint done = 0; done < len;) {                                                                            \
      const uint fresh = min(seg - kept, len - done);                                                             \
      for (uint q = lid; q < segs << seg_log2; q += group) {                                                      \
        const uint s = lane_fast ? q >> seg_log2 : q & (segs - 1);                                                \
        const uint t = lane_fast ? q & (seg - 1) : q >> segs_log2;                                                \
        if (t < kept) continue;                                                                                   \
        const uint line = first_line + s, j = from + done + (t - kept);                                           \
        ulong r = 0;                                                                                              \
        if (line < lines && t - kept < fresh)                                                                     \
          r = from_ranks ? ranks[(ulong)line * line_len + j]                                                      \
                         : TOPK_RANK(KEY, x[topk_line_base(line, n, inner) + (ulong)j * inner], j, flip);         \
        buf[(s << seg_log2) + t] = r;                                                                             \
      }                                                                                                           \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                               \
      topk_sort_runs(buf, segs << (seg_log2 - k_log2), k_log2, k_log2, seg > K);                                  \
      topk_reduce_runs(buf, segs, seg_log2, k_log2);                                                              \
      done += fresh;                                                                                              \
      kept = K;                                                                                                   \
    }                                                                                                             \
    if (parts > 1) {                                                                                              \
      for (uint q = lid; q < segs * k; q += group) {                                                              \
        const uint s = q / k, t = q % k, line = first_line + s;                                                   \
        if (line < lines) ranks[((ulong)line * parts + part) * k + t] = buf[(s << seg_log2) + t];                 \
      }                                                                                                           \
      return;                                                                                                     \
    }                                                                                                             \
    if (!sorted) {                                                                                                \
      for (uint q = lid; q < segs << k_log2; q += group) {                                                        \
        const uint a = ((q >> k_log2) << seg_log2) + (q & (K - 1));                                               \
        buf[a] = (q & (K - 1)) < k ? upsample(1u, (uint)buf[a]) : 0;                                              \
      }                                                                                                           \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                               \
      topk_sort_runs(buf, segs, k_log2, seg_log2, false);                                                         \
    }                                                                                                             \
    for (uint q = lid; q < segs * k; q += group) {                                                                \
      const uint s = q / k, t = q % k, line = first_line + s;                                                     \
      if (line >= lines) continue;                                                                                \
      const uint index = ~(uint)buf[(s << seg_log2) + t];                                                         \
      const ulong out = topk_output(line, t, k, inner);                                                           \
      indices[out] = (int)index;                                                                                  \
      values[out] = x[topk_line_base(line, n, inner) + (ulong)index * inner];                                     \
    }                                                                                                             \
  }

TOPK_TILES_KERNEL(topk_tiles_f32, uint, oprig_key_f32)
TOPK_TILES_KERNEL(topk_tiles_f16, ushort, oprig_key_f16)
TOPK_TILES_KERNEL(topk_tiles_i32, int, TOPK_KEY_OF_INT)

// ---- the sort path: each line's ranks at line << line_log2 in `ranks` ----

// Element t of every line, or an empty rank past the line's end.
#define TOPK_FILL_KERNEL(name, T, KEY)                                                                          \
  kernel void name(global const T* x, global ulong* ranks, const uint lines, const uint n, const uint inner,   \
                   const uint line_log2, const int flip) {                                                     \
    const ulong e = get_global_id(0);                                                                           \
    const uint line = (uint)(e >> line_log2), t = (uint)e & ((1u << line_log2) - 1);                           \
    if (line >= lines) return;                                                                                  \
    ranks[e] = t < n ? TOPK_RANK(KEY, x[topk_line_base(line, n, inner) + (ulong)t * inner], t, flip) : 0;      \
  }

TOPK_FILL_KERNEL(topk_fill_f32, uint, oprig_key_f32)
TOPK_FILL_KERNEL(topk_fill_f16, ushort, oprig_key_f16)
TOPK_FILL_KERNEL(topk_fill_i32, int, TOPK_KEY_OF_INT)

// Bitonic sort, descending, of the first 1 << len_log2 ranks of each line:
// in stage `size` the block of position t runs descending where t & size
// is 0 (and in the last stage, size = len, everywhere).
inline bool topk_descending(const uint t, const uint size, const uint len_log2) {
  return size >> len_log2 != 0 || (t & size) == 0;
}

// One work-group per block of 1 << block_log2 ranks (blocks of a line
// consecutive): stage_log2 0 sorts each block (every stage up to the block
// size); otherwise the steps below the block of stage 1 << stage_log2.
kernel void topk_sort_local(global ulong* ranks, const uint line_log2, const uint len_log2, const uint block_log2,
                            const uint stage_log2, local ulong* buf) {
  const uint lid = get_local_id(0), group = get_local_size(0);
  const uint B = 1u << block_log2;
  const uint blocks_log2 = len_log2 - block_log2;
  const uint g = (uint)get_group_id(0), line = g >> blocks_log2;
  const uint start = (g & ((1u << blocks_log2) - 1)) << block_log2;  // position in the line
  global ulong* block = ranks + ((ulong)line << line_log2) + start;
  for (uint q = lid; q < B; q += group) buf[q] = block[q];
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint first_size = stage_log2 == 0 ? 2 : 1u << stage_log2;
  const uint last_size = stage_log2 == 0 ? B : 1u << stage_log2;
  for (uint size = first_size; size <= last_size; size <<= 1) {
    for (uint j = min(size, B) >> 1; j > 0; j >>= 1) {
      for (uint p = lid; p < B / 2; p += group) {
        const uint v = 2 * p - (p & (j - 1));
        topk_exchange(buf, v, v + j, topk_descending(start + v, size, len_log2));
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  for (uint q = lid; q < B; q += group) block[q] = buf[q];
}

// Step j = 1 << j_log2 of stage 1 << stage_log2 across blocks, one pair per
// work-item.
kernel void topk_sort_step(global ulong* ranks, const uint line_log2, const uint len_log2, const uint stage_log2,
                           const uint j_log2) {
  const ulong p = get_global_id(0);
  const uint line = (uint)(p >> (len_log2 - 1)), w = (uint)p & ((1u << (len_log2 - 1)) - 1);
  const uint j = 1u << j_log2, v = 2 * w - (w & (j - 1));
  global ulong* row = ranks + ((ulong)line << line_log2);
  const ulong u = row[v], o = row[v + j];
  if ((u < o) == topk_descending(v, 1u << stage_log2, len_log2)) {
    row[v] = o;
    row[v + j] = u;
  }
}

// Index order: the first k ranks of each line take one common key, the
// rest of the first K are emptied; sorting K then lists the k by index.
kernel void topk_index_order(global ulong* ranks, const uint line_log2, const uint k, const uint k_log2) {
  const ulong q = get_global_id(0);
  const uint line = (uint)(q >> k_log2), t = (uint)q & ((1u << k_log2) - 1);
  global ulong* r = ranks + ((ulong)line << line_log2) + t;
  *r = t < k ? upsample(1u, (uint)*r) : 0;
}

// Output t < k of every line from its sorted ranks.
#define TOPK_EMIT_KERNEL(name, T)                                                                               \
  kernel void name(global const T* x, global const ulong* ranks, global T* values, global int* indices,        \
                   const uint lines, const uint n, const uint inner, const uint k, const uint line_log2) {     \
    const ulong q = get_global_id(0);                                                                           \
    const uint line = (uint)(q / k), t = (uint)(q % k);                                                         \
    if (line >= lines) return;                                                                                  \
    const uint index = ~(uint)ranks[((ulong)line << line_log2) + t];                                            \
    const ulong out = topk_output(line, t, k, inner);                                                           \
    indices[out] = (int)index;                                                                                  \
    values[out] = x[topk_line_base(line, n, inner) + (ulong)index * inner];                                     \
  }

TOPK_EMIT_KERNEL(topk_emit_32, uint)
TOPK_EMIT_KERNEL(topk_emit_16, ushort)
