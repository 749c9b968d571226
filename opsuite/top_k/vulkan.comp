#version 450
// TopK for the vulkan backend: opencl.cl's tile and sort paths (top_k_plan.hpp)
// over the uvec2 ranks of select_rank.glsl, one pipeline per mode and
// element type. FLOAT_16 values share 32-bit words, so the modes that pick
// the winners write only their indices there and mode 6 gathers the values
// word by word. Work-groups (and, in the 1-D modes, invocations) loop
// grid-stride: a dispatch may have fewer than the work needs. Integer
// arithmetic only: no optional feature.

layout(local_size_x_id = 1) in;
layout(constant_id = 2) const uint kType = 0u;    // 0 FLOAT_32, 1 FLOAT_16 (pairs in words), 2 INT_32
layout(constant_id = 3) const uint kMode = 0u;    // 0 tiles, 1 fill, 2 sort_local, 3 sort_step, 4 index_order, 5 emit, 6 f16 values
layout(constant_id = 4) const uint kShared = 1u;  // ranks in shared memory (modes 0 and 2)

#include "select_rank.glsl"

layout(std430, set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 1) buffer Values { uint values[]; };
layout(std430, set = 0, binding = 2) buffer Indices { int indices[]; };
layout(std430, set = 0, binding = 3) buffer Ranks { uvec2 ranks[]; };

layout(push_constant) uniform Params {
  uint lines, n, inner, k;
  uint k_log2, seg_log2, segs_log2, lane_fast;  // the tile pass
  uint part_len, line_len, flip, sorted;
  uint from_ranks, groups;                       // groups: the work-groups the work needs (modes 0, 2)
  uint line_log2, len_log2, block_log2, stage_log2;  // the sort path
  uint j_log2;
} p;

shared uvec2 buf[kShared];

// ---- elements, outputs ----

uint element_bits(uint e) {
  if (kType == 1u) return (x[e >> 1] >> ((e & 1u) << 4)) & 0xffffu;
  return x[e];
}
int key_of(uint bits) {
  if (kType == 0u) return oprig_key_f32(bits);
  if (kType == 1u) return oprig_key_f16(bits);
  return int(bits);
}
uint line_base(uint line) { return p.inner == 1u ? line * p.n : (line / p.inner) * p.n * p.inner + line % p.inner; }
uint output_of(uint line, uint t) {
  return p.inner == 1u ? line * p.k + t : ((line / p.inner) * p.k + t) * p.inner + line % p.inner;
}
// Element j of a line: `flip` 0 (largest first) or ~0.
uvec2 rank_of(uint line, uint j) {
  return oprig_rank(key_of(element_bits(line_base(line) + j * p.inner)) ^ int(p.flip), ~j);
}
void emit(uint line, uint t, uvec2 rank) {
  uint index = ~rank.y, out_at = output_of(line, t);
  indices[out_at] = int(index);
  if (kType != 1u) values[out_at] = x[line_base(line) + index * p.inner];
}

// ---- the network in shared memory (opencl.cl's topk_sort_runs, topk_reduce_runs) ----

void exchange(uint a, uint b, bool descending) {
  uvec2 u = buf[a], v = buf[b];
  if (oprig_rank_above(v, u) == descending && u != v) {
    buf[a] = v;
    buf[b] = u;
  }
}

void sort_runs(uint runs, uint k_log2, uint stride_log2, bool alternate) {
  if (k_log2 == 0u) return;
  uint K = 1u << k_log2, pairs = runs << (k_log2 - 1u);
  for (uint size = 2u; size <= K; size <<= 1) {
    for (uint j = size >> 1; j > 0u; j >>= 1) {
      for (uint q = gl_LocalInvocationIndex; q < pairs; q += gl_WorkGroupSize.x) {
        uint v = 2u * q - (q & (j - 1u));
        bool descending = size == K ? !(alternate && (v & K) != 0u) : (v & size) == 0u;
        uint a = ((v >> k_log2) << stride_log2) | (v & (K - 1u));
        exchange(a, a + j, descending);
      }
      barrier();
    }
  }
}

void reduce_runs(uint segs, uint seg_log2, uint k_log2) {
  uint K = 1u << k_log2;
  for (uint d_log2 = 0u; k_log2 + d_log2 < seg_log2; ++d_log2) {
    uint pairs_log2 = seg_log2 - k_log2 - d_log2 - 1u;
    uint run_gap = 1u << (k_log2 + d_log2);
    for (uint q = gl_LocalInvocationIndex; q < segs << (pairs_log2 + k_log2); q += gl_WorkGroupSize.x) {
      uint s = q >> (pairs_log2 + k_log2), m = (q >> k_log2) & ((1u << pairs_log2) - 1u);
      uint a = (s << seg_log2) + 2u * m * run_gap + (q & (K - 1u));
      buf[a] = oprig_rank_max(buf[a], buf[a + run_gap]);
    }
    barrier();
    if (k_log2 == 0u) continue;
    for (uint j = K >> 1; j > 0u; j >>= 1) {
      for (uint q = gl_LocalInvocationIndex; q < segs << (pairs_log2 + k_log2 - 1u); q += gl_WorkGroupSize.x) {
        uint run = q >> (k_log2 - 1u), w = q & ((K >> 1) - 1u);
        uint s = run >> pairs_log2, m = run & ((1u << pairs_log2) - 1u);
        uint a = (s << seg_log2) + 2u * m * run_gap + 2u * w - (w & (j - 1u));
        exchange(a, a + j, pairs_log2 == 0u || (m & 1u) == 0u);
      }
      barrier();
    }
  }
}

// ---- mode 0: the tile pass (opencl.cl's TOPK_TILES_KERNEL) ----

void tiles(uint g) {
  uint lid = gl_LocalInvocationIndex, group = gl_WorkGroupSize.x;
  uint K = 1u << p.k_log2, seg = 1u << p.seg_log2, segs = 1u << p.segs_log2;
  uint first_line = g << p.segs_log2;
  uint part = gl_WorkGroupID.y, parts = gl_NumWorkGroups.y;
  uint from = part * p.part_len, len = min(p.part_len, p.line_len - from);
  uint kept = 0u;
  for (uint done = 0u; done < len;) {
    uint fresh = min(seg - kept, len - done);
    for (uint q = lid; q < segs << p.seg_log2; q += group) {
      uint s = p.lane_fast != 0u ? q >> p.seg_log2 : q & (segs - 1u);
      uint t = p.lane_fast != 0u ? q & (seg - 1u) : q >> p.segs_log2;
      if (t < kept) continue;
      uint line = first_line + s, j = from + done + (t - kept);
      uvec2 r = uvec2(0u);
      if (line < p.lines && t - kept < fresh) r = p.from_ranks != 0u ? ranks[line * p.line_len + j] : rank_of(line, j);
      buf[(s << p.seg_log2) + t] = r;
    }
    barrier();
    sort_runs(segs << (p.seg_log2 - p.k_log2), p.k_log2, p.k_log2, seg > K);
    reduce_runs(segs, p.seg_log2, p.k_log2);
    done += fresh;
    kept = K;
  }
  if (parts > 1u) {
    for (uint q = lid; q < segs * p.k; q += group) {
      uint s = q / p.k, t = q % p.k, line = first_line + s;
      if (line < p.lines) ranks[(line * parts + part) * p.k + t] = buf[(s << p.seg_log2) + t];
    }
  } else {
    if (p.sorted == 0u) {
      for (uint q = lid; q < segs << p.k_log2; q += group) {
        uint a = ((q >> p.k_log2) << p.seg_log2) + (q & (K - 1u));
        buf[a] = (q & (K - 1u)) < p.k ? uvec2(1u, buf[a].y) : uvec2(0u);
      }
      barrier();
      sort_runs(segs, p.k_log2, p.seg_log2, false);
    }
    for (uint q = lid; q < segs * p.k; q += group) {
      uint s = q / p.k, t = q % p.k, line = first_line + s;
      if (line < p.lines) emit(line, t, buf[(s << p.seg_log2) + t]);
    }
  }
  barrier();  // the shared ranks are refilled for the next work-group's lines
}

// ---- the sort path: each line's ranks at line << line_log2 ----

bool descending_at(uint t, uint size) { return (size >> p.len_log2) != 0u || (t & size) == 0u; }

void sort_local(uint g) {
  uint lid = gl_LocalInvocationIndex, group = gl_WorkGroupSize.x;
  uint B = 1u << p.block_log2, blocks_log2 = p.len_log2 - p.block_log2;
  uint line = g >> blocks_log2, start = (g & ((1u << blocks_log2) - 1u)) << p.block_log2;
  uint base = (line << p.line_log2) + start;
  for (uint q = lid; q < B; q += group) buf[q] = ranks[base + q];
  barrier();
  uint first_size = p.stage_log2 == 0u ? 2u : 1u << p.stage_log2;
  uint last_size = p.stage_log2 == 0u ? B : 1u << p.stage_log2;
  for (uint size = first_size; size <= last_size; size <<= 1) {
    for (uint j = min(size, B) >> 1; j > 0u; j >>= 1) {
      for (uint q = lid; q < B / 2u; q += group) {
        uint v = 2u * q - (q & (j - 1u));
        exchange(v, v + j, descending_at(start + v, size));
      }
      barrier();
    }
  }
  for (uint q = lid; q < B; q += group) ranks[base + q] = buf[q];
  barrier();
}

void main() {
  if (kMode == 0u || kMode == 2u) {
    for (uint g = gl_WorkGroupID.x; g < p.groups; g += gl_NumWorkGroups.x) {
      if (kMode == 0u) tiles(g);
      else sort_local(g);
    }
    return;
  }
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (kMode == 1u) {  // fill: element t of every line, or an empty rank past its end
    for (uint e = gl_GlobalInvocationID.x; e < p.lines << p.line_log2; e += stride) {
      uint line = e >> p.line_log2, t = e & ((1u << p.line_log2) - 1u);
      ranks[e] = t < p.n ? rank_of(line, t) : uvec2(0u);
    }
  } else if (kMode == 3u) {  // sort_step: one pair per invocation
    uint half_len_log2 = p.len_log2 - 1u, j = 1u << p.j_log2;
    for (uint q = gl_GlobalInvocationID.x; q < p.lines << half_len_log2; q += stride) {
      uint line = q >> half_len_log2, w = q & ((1u << half_len_log2) - 1u);
      uint v = 2u * w - (w & (j - 1u)), a = (line << p.line_log2) + v;
      uvec2 u = ranks[a], o = ranks[a + j];
      if (oprig_rank_above(o, u) == descending_at(v, 1u << p.stage_log2) && u != o) {
        ranks[a] = o;
        ranks[a + j] = u;
      }
    }
  } else if (kMode == 4u) {  // index_order
    for (uint q = gl_GlobalInvocationID.x; q < p.lines << p.k_log2; q += stride) {
      uint line = q >> p.k_log2, t = q & ((1u << p.k_log2) - 1u), a = (line << p.line_log2) + t;
      ranks[a] = t < p.k ? uvec2(1u, ranks[a].y) : uvec2(0u);
    }
  } else if (kMode == 5u) {  // emit the first k ranks of every line
    for (uint q = gl_GlobalInvocationID.x; q < p.lines * p.k; q += stride)
      emit(q / p.k, q % p.k, ranks[((q / p.k) << p.line_log2) + q % p.k]);
  } else {  // FLOAT_16 values from the indices, a word (two outputs) per invocation
    uint total = p.lines * p.k, block = p.k * p.inner;
    for (uint w = gl_GlobalInvocationID.x; w < (total + 1u) / 2u; w += stride) {
      uint word = 0u, kept_bits = 0xffffffffu;
      for (uint h = 0u; h < 2u; ++h) {
        uint e = 2u * w + h;
        if (e >= total) break;
        uint o = e / block, rest = e % block, i = rest % p.inner;
        uint line = o * p.inner + i;
        word |= element_bits(line_base(line) + uint(indices[e]) * p.inner) << (16u * h);
        kept_bits &= ~(0xffffu << (16u * h));
      }
      values[w] = word | (values[w] & kept_bits);
    }
  }
}
