// MultiClassNms, opencl: the greedy selection on the device in four kernels
// (opencl.cpp enqueues them; vulkan_*.comp are the same algorithm in GLSL).
//  1. nms_sort, a work-group per (batch item, class): the scores above the
//     threshold become unique 64-bit keys (score key, inverted box index:
//     equal scores go by lower box index), gathered into the class's segment
//     and sorted there, highest first, by a bitonic network: in local memory
//     up to a block, with global steps between blocks beyond it.
//  2. nms_suppress, a work-group per (batch item, class): the sorted
//     candidates a chunk of up to one work-group size at a time. Each
//     work-item tests its candidate against the boxes kept in earlier
//     chunks, then the group fills the chunk's suppression bitmask (row r:
//     the later candidates r suppresses), and one work-item walks the rows
//     still in the running in order, keeping each and OR-ing its row into
//     the removed set: a few word operations per kept box. Stops at `limit`
//     kept boxes.
//  3. nms_merge, a work-group per batch item: the classes' kept lists (each
//     in the merged order already) cut to max_detections by bisecting the
//     score key, then every selected detection's place by binary searches
//     in the other classes' lists; writes detection_classes and
//     num_detections, and the selection for the gathers.
//  4. nms_gather, one work-item per output element: detection_boxes,
//     detection_scores and each detection_features copied bit for bit from
//     the inputs, 0 past a batch item's count.
// Every decision is made on integers or on IEEE double operations written as
// the reference writes them: no contraction (the pragma below) and fp64
// division, correctly rounded in OpenCL C. Scores are compared as ordered
// integers and box coordinates widened to double from their bits, so a
// device that flushes fp32 denormals decides as the reference does. The
// result does not depend on the work-group size: every grouping computes the
// same greedy order, and integer sums do not depend on their order.
//
// FLOAT_32, or FLOAT_16 with -D NMS_HALF (as ushort bits: vload_half widens
// exactly; the gather copies 16-bit elements).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#ifdef NMS_HALF
typedef ushort nms_elem;
#define NMS_BITS(p, i) as_uint(vload_half((i), (global const half*)(p)))
#else
typedef uint nms_elem;
#define NMS_BITS(p, i) ((p)[i])
#endif

// ---- scores as integers -------------------------------------------------------------------------

// a < b as floats iff nms_order(a) < nms_order(b) (neither NaN); -0 and +0 alike.
inline int nms_order(uint bits) { return (bits & 0x80000000u) != 0u ? (int)(0x80000000u - bits) : (int)bits; }
inline bool nms_is_nan(uint bits) { return (bits & 0x7fffffffu) > 0x7f800000u; }
// The sort key of a candidate: never 0, which marks "no candidate".
inline ulong nms_key(uint bits, uint box) {
  return ((ulong)((uint)nms_order(bits) ^ 0x80000000u) << 32) | (ulong)(~box);
}

// ---- boxes --------------------------------------------------------------------------------------

// fp32 bits as double, exactly (a denormal by integer arithmetic).
inline double nms_widen(uint bits) {
  const uint magnitude = bits & 0x7fffffffu;
  const double d = magnitude >= 0x00800000u ? (double)as_float(magnitude) : (double)magnitude * 0x1p-149;
  return (bits & 0x80000000u) != 0u ? -d : d;
}

typedef struct {
  double ymin, xmin, ymax, xmax, area;
} nms_corners;

// Box `box` (its index among all boxes of the batch) as sorted corners.
inline nms_corners nms_corners_of(global const nms_elem* boxes, ulong box, uint center_size) {
  const double v0 = nms_widen(NMS_BITS(boxes, box * 4)), v1 = nms_widen(NMS_BITS(boxes, box * 4 + 1));
  const double v2 = nms_widen(NMS_BITS(boxes, box * 4 + 2)), v3 = nms_widen(NMS_BITS(boxes, box * 4 + 3));
  double y1 = v0, x1 = v1, y2 = v2, x2 = v3;
  if (center_size != 0u) {  // [x_center, y_center, width, height]
    x1 = v0 - v2 / 2;
    x2 = v0 + v2 / 2;
    y1 = v1 - v3 / 2;
    y2 = v1 + v3 / 2;
  }
  nms_corners c;
  c.ymin = y2 < y1 ? y2 : y1;
  c.xmin = x2 < x1 ? x2 : x1;
  c.ymax = y1 < y2 ? y2 : y1;
  c.xmax = x1 < x2 ? x2 : x1;
  c.area = (c.ymax - c.ymin) * (c.xmax - c.xmin);
  return c;
}

inline bool nms_suppresses(nms_corners kept, nms_corners c, double iou_threshold) {
  if (kept.area <= 0 || c.area <= 0) return false;
  const double h = (kept.ymax < c.ymax ? kept.ymax : c.ymax) - (kept.ymin < c.ymin ? c.ymin : kept.ymin);
  const double w = (kept.xmax < c.xmax ? kept.xmax : c.xmax) - (kept.xmin < c.xmin ? c.xmin : kept.xmin);
  if (h <= 0 || w <= 0) return false;
  const double intersection = h * w;
  return intersection / (kept.area + c.area - intersection) > iou_threshold;
}

inline void nms_store_corners(local double* at, nms_corners c) {
  at[0] = c.ymin, at[1] = c.xmin, at[2] = c.ymax, at[3] = c.xmax, at[4] = c.area;
}
inline nms_corners nms_load_corners(local const double* at) {
  nms_corners c;
  c.ymin = at[0], c.xmin = at[1], c.ymax = at[2], c.xmax = at[3], c.area = at[4];
  return c;
}
inline nms_corners nms_load_global_corners(global const double* at) {
  nms_corners c;
  c.ymin = at[0], c.xmin = at[1], c.ymax = at[2], c.xmax = at[3], c.area = at[4];
  return c;
}

// ---- 1. candidates, sorted ----------------------------------------------------------------------

// One compare-exchange step of the bitonic network that sorts highest first:
// pairs (i, i + j) for i with bit j clear, pair p of `pairs`; `base` is
// where `a` starts in the segment (the direction goes by the segment index).
inline void nms_step_local(local ulong* a, uint base, uint pairs, uint k, uint j) {
  for (uint p = get_local_id(0); p < pairs; p += get_local_size(0)) {
    const uint i = ((p & ~(j - 1u)) << 1) | (p & (j - 1u)), l = i + j;
    const ulong x = a[i], y = a[l], high = max(x, y), low = min(x, y);
    const bool descending = ((base + i) & k) == 0u;  // branch-free: CPU drivers vectorise across work-items
    a[i] = descending ? high : low;
    a[l] = descending ? low : high;
  }
}

inline void nms_step_global(global ulong* a, uint pairs, uint k, uint j) {
  for (uint p = get_local_id(0); p < pairs; p += get_local_size(0)) {
    const uint i = ((p & ~(j - 1u)) << 1) | (p & (j - 1u)), l = i + j;
    const ulong x = a[i], y = a[l], high = max(x, y), low = min(x, y);
    const bool descending = (i & k) == 0u;
    a[i] = descending ? high : low;
    a[l] = descending ? low : high;
  }
}

// Sorts `count` (a power of two) keys of `a`, highest first, with blocks of
// up to `block_size` (a power of two) keys in local memory.
inline void nms_sort_keys(global ulong* a, uint count, local ulong* block, uint block_size) {
  const uint lane = get_local_id(0), group = get_local_size(0);
  const uint span = min(count, block_size);
  // Steps whose pairs lie within one block: all of sizes k <= span, and the
  // tail (j < span) of every larger size.
  for (uint k = span; k <= count; k <<= 1) {
    if (k > span)
      for (uint j = k >> 1; j >= span; j >>= 1) {
        nms_step_global(a, count / 2u, k, j);
        barrier(CLK_GLOBAL_MEM_FENCE);
      }
    for (uint base = 0; base < count; base += span) {
      for (uint i = lane; i < span; i += group) block[i] = a[base + i];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint kk = k == span ? 2u : k; kk <= k; kk <<= 1)
        for (uint j = min(kk, span) >> 1; j > 0u; j >>= 1) {
          nms_step_local(block, base, span / 2u, kk, j);
          barrier(CLK_LOCAL_MEM_FENCE);
        }
      for (uint i = lane; i < span; i += group) a[base + i] = block[i];
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
  }
}

// keys: a segment of `segment` keys (a power of two >= n) per task
// (batch item, class); candidates: how many of them are candidates.
kernel void nms_sort(global const nms_elem* scores, global ulong* keys, global uint* candidates, uint n,
                     uint classes, uint segment, int threshold_order, local ulong* block, uint block_size) {
  local uint count;
  const uint task = get_group_id(0), lane = get_local_id(0), group = get_local_size(0);
  const ulong first = (ulong)(task / classes) * n * classes + task % classes;
  global ulong* a = keys + (ulong)task * segment;
  if (lane == 0u) count = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Where each candidate lands depends on the atomics' order; the sort
  // below gives the one order of the unique keys.
  for (uint i = lane; i < n; i += group) {
    const uint bits = NMS_BITS(scores, first + (ulong)i * classes);
    if (!nms_is_nan(bits) && nms_order(bits) > threshold_order) a[atomic_inc(&count)] = nms_key(bits, i);
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  const uint m = count;
  uint padded = 1u;
  while (padded < m) padded <<= 1;
  for (uint i = m + lane; i < padded; i += group) a[i] = 0;
  if (lane == 0u) candidates[task] = m;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (m > 1u) nms_sort_keys(a, padded, block, block_size);
}

// ---- 2. suppression -----------------------------------------------------------------------------

// kept: per task `limit` pairs (box, score key) in the order kept; kept_count
// per task; kept_corners: per task `limit` x 5 doubles. Local: corners (5
// doubles), box and score key per work-item; the chunk's bitmask (a row of
// group/32 words per work-item), the rows out of the running (a bit per
// work-item: suppressed by a kept box, or past the chunk) and the walk's
// removed set (group/32 words each). The group size is a power of two >= 32.
kernel void nms_suppress(global const nms_elem* boxes, global const ulong* keys, global const uint* candidates,
                         global uint* kept, global uint* kept_count, global double* kept_corners, uint n,
                         uint classes, uint segment, uint limit, uint center_size, double iou_threshold,
                         local double* corners, local uint* chunk_box, local uint* chunk_key, local uint* mask,
                         local uint* out_of_running, local uint* removed) {
  local uint kept_so_far, chunk;
  const uint task = get_group_id(0), lane = get_local_id(0), group = get_local_size(0), words = group / 32u;
  const ulong first_box = (ulong)(task / classes) * n;
  const uint m = candidates[task];
  global const ulong* a = keys + (ulong)task * segment;
  global uint* out = kept + (ulong)task * limit * 2u;
  global double* out_corners = kept_corners + (ulong)task * limit * 5u;
  // The chunk: about as many candidates as should give the boxes still
  // wanted, at the last chunk's rate of candidates the kept boxes left in the
  // running (at first all), in whole mask words: the bitmask costs len^2 / 2
  // tests, wasted past the limit, and each chunk a walk and three barriers.
  if (lane == 0u) {
    kept_so_far = 0u;
    chunk = min(group, max(32u, (min(limit, group) + 31u) & ~31u));
  }
  if (lane < words) out_of_running[lane] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint base = 0; base < m;) {
    const uint total = kept_so_far;
    if (total >= limit) break;  // the same value for the whole group
    const uint len = min(chunk, m - base), used_words = (len + 31u) / 32u;
    bool out_of_it = true;
    if (lane < len) {
      const ulong key = a[base + lane];
      const uint box = ~(uint)key;
      const nms_corners me = nms_corners_of(boxes, first_box + box, center_size);
      nms_store_corners(corners + 5u * lane, me);
      chunk_box[lane] = box;
      chunk_key[lane] = (uint)(key >> 32);
      // A box without area is never suppressed; one the kept boxes suppress
      // neither keeps nor suppresses.
      out_of_it = false;
      if (me.area > 0)
        for (uint j = 0; j < total && !out_of_it; ++j)
          out_of_it = nms_suppresses(nms_load_global_corners(out_corners + 5u * j), me, iou_threshold);
    }
    if (out_of_it) atomic_or(out_of_running + lane / 32u, 1u << (lane % 32u));  // order-free
    barrier(CLK_LOCAL_MEM_FENCE);
    // Word w of row r: the candidates 32w .. 32w+31 after r that r suppresses.
    for (uint t = lane; t < len * used_words; t += group) {
      const uint r = t / used_words, w = t % used_words;
      uint bits = 0u;
      if (((out_of_running[r / 32u] >> (r % 32u)) & 1u) == 0u && 32u * w + 31u > r) {
        const nms_corners kept_box = nms_load_corners(corners + 5u * r);
        const uint live = ~out_of_running[w];
        for (uint q = 0; q < 32u; ++q) {
          const uint col = 32u * w + q;
          if (col > r && ((live >> q) & 1u) != 0u &&
              nms_suppresses(kept_box, nms_load_corners(corners + 5u * col), iou_threshold))
            bits |= 1u << q;
        }
      }
      mask[r * words + w] = bits;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // The walk, over the rows still in the running only: the lowest live bit
    // is kept, its row's bits leave the running.
    if (lane == 0u) {
      uint running = 0u;
      for (uint w = 0; w < used_words; ++w) {
        removed[w] = out_of_running[w];
        running += popcount(~removed[w]);
      }
      for (uint w = 0; w < words; ++w) out_of_running[w] = 0u;  // for the next chunk
      uint count = total;
      for (uint w = 0; w < used_words && count < limit; ++w) {
        uint live = ~removed[w];
        while (live != 0u && count < limit) {
          const uint q = 31u - clz(live & (0u - live)), r = 32u * w + q;
          out[2u * count] = chunk_box[r];
          out[2u * count + 1u] = chunk_key[r];
          for (uint e = 0; e < 5u; ++e) out_corners[5u * count + e] = corners[5u * r + e];
          ++count;
          live &= ~(mask[r * words + w] | (1u << q));
          for (uint v = w + 1u; v < used_words; ++v) removed[v] |= mask[r * words + v];
        }
      }
      kept_so_far = count;
      const uint need = limit - count;
      const uint want = running == 0u || need >= group ? group : (need * len + running - 1u) / running;
      chunk = min(group, max(32u, (want + 31u) & ~31u));
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    base += len;
  }
  if (lane == 0u) kept_count[task] = kept_so_far;
}

// ---- 3. merge -----------------------------------------------------------------------------------

// How many of the first `count` keys of a list sorted highest first are >= s.
inline uint nms_at_least(global const uint* list, uint count, uint s) {
  uint lo = 0u, hi = count;
  while (lo < hi) {
    const uint mid = lo + (hi - lo) / 2u;
    if (list[2u * mid + 1u] >= s)
      lo = mid + 1u;
    else
      hi = mid;
  }
  return lo;
}

// The group's sum of one uint per work-item (order-free: integers).
inline uint nms_group_sum(uint v, local uint* sum) {
  if (get_local_id(0) == 0u) *sum = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (v != 0u) atomic_add(sum, v);
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint result = *sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

// class_scratch: per batch item and class (above, ties, selected, first):
// kept keys above the cut, equal to it, the selected count and where the
// class's selected detections start in the class-major order. selection:
// per batch item its count, then per batch item `slots` pairs (box, class)
// in detection order (slots = min(max_detections, classes x limit)).
kernel void nms_merge(global const uint* kept, global const uint* kept_count, global uint* class_scratch,
                      global uint* selection, global int* out_classes, global int* out_count, uint batch,
                      uint classes, uint limit, uint slots, uint depth) {
  local uint sum;
  const uint b = get_group_id(0), lane = get_local_id(0), group = get_local_size(0);
  global const uint* lists = kept + (ulong)b * classes * limit * 2u;
  global const uint* counts = kept_count + (ulong)b * classes;
  global uint* per_class = class_scratch + (ulong)b * classes * 4u;
  uint mine = 0u;
  for (uint c = lane; c < classes; c += group) mine += counts[c];
  const uint total = nms_group_sum(mine, &sum);
  const uint selected = min(total, slots);
  // The cut: the highest score key s with at least `selected` kept keys >= s.
  uint lo = 0u, hi = 0xffffffffu;
  if (total > selected)
    while (lo < hi) {
      const uint mid = lo + (hi - lo) / 2u + ((hi - lo) & 1u);
      mine = 0u;
      for (uint c = lane; c < classes; c += group) mine += nms_at_least(lists + 2u * c * limit, counts[c], mid);
      if (nms_group_sum(mine, &sum) >= selected)
        lo = mid;
      else
        hi = mid - 1u;
    }
  for (uint c = lane; c < classes; c += group) {
    global const uint* list = lists + 2u * c * limit;
    const uint above = total > selected ? (lo == 0xffffffffu ? 0u : nms_at_least(list, counts[c], lo + 1u)) : counts[c];
    per_class[4u * c] = above;
    per_class[4u * c + 1u] = total > selected ? nms_at_least(list, counts[c], lo) - above : 0u;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  // Keys equal to the cut go by class: a walk over the classes.
  if (lane == 0u) {
    uint need = selected;
    for (uint c = 0; c < classes; ++c) need -= per_class[4u * c];
    uint first = 0u;
    for (uint c = 0; c < classes; ++c) {
      const uint ties = min(per_class[4u * c + 1u], need);
      need -= ties;
      per_class[4u * c + 2u] = per_class[4u * c] + ties;
      per_class[4u * c + 3u] = first;
      first += per_class[4u * c + 2u];
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  // Detection f of the class-major order: its class by binary search, its
  // place by the other classes' keys before it (equal keys: lower class first).
  global uint* out = selection + batch + (ulong)b * slots * 2u;
  for (uint f = lane; f < selected; f += group) {
    uint c_lo = 0u, c_hi = classes - 1u;
    while (c_lo < c_hi) {
      const uint mid = c_lo + (c_hi - c_lo + 1u) / 2u;
      if (per_class[4u * mid + 3u] <= f)
        c_lo = mid;
      else
        c_hi = mid - 1u;
    }
    const uint c = c_lo, j = f - per_class[4u * c + 3u];
    const uint box = lists[2u * (c * limit + j)], key = lists[2u * (c * limit + j) + 1u];
    uint place = j;
    for (uint o = 0; o < classes; ++o)
      if (o != c) {
        const uint s = o < c ? key : key + 1u;  // key + 1: keys are never 0xffffffff (NaN)
        place += nms_at_least(lists + 2u * o * limit, per_class[4u * o + 2u], s);
      }
    out[2u * place] = box;
    out[2u * place + 1u] = c;
    if (place < depth) out_classes[(ulong)b * depth + place] = (int)c;
  }
  for (uint r = selected + lane; r < depth; r += group) out_classes[(ulong)b * depth + r] = -1;
  if (lane == 0u) {
    out_count[b] = (int)selected;
    selection[b] = selected;
  }
}

// ---- 4. outputs ---------------------------------------------------------------------------------

// out: [batch, depth, row] elements. by_class: detection_scores (source
// element (box, class) of [batch, n, classes]); else rows of `row` elements
// per box of [batch, n, row] (detection_boxes, detection_features).
kernel void nms_gather(global const nms_elem* source, global const uint* selection, global nms_elem* out, uint batch,
                       uint depth, uint row, uint n, uint classes, uint slots, uint by_class) {
  const ulong e = get_global_id(0);
  const ulong per_item = (ulong)depth * row;
  if (e >= batch * per_item) return;
  const uint b = (uint)(e / per_item), slot = (uint)((e % per_item) / row), within = (uint)(e % row);
  nms_elem v = 0;
  if (slot < selection[b]) {
    global const uint* pick = selection + batch + ((ulong)b * slots + slot) * 2u;
    const ulong box = (ulong)b * n + pick[0];
    v = by_class != 0u ? source[box * classes + pick[1]] : source[box * row + within];
  }
  out[e] = v;
}
